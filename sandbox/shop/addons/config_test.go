package addons_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

// TestConfigure creates and changes add-ons through the control plane
// and refuses bad configurations naming the field.
func TestConfigure(t *testing.T) {
	s, _ := start(t)
	r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1002/addons/new-addon",
		Body: map[string]any{"installUrl": "http://127.0.0.1:9191/install", "webhookUrl": "http://127.0.0.1:9191/hooks",
			"endpoints": []any{"GetListOfOrders", "POST /api/orders", map[string]any{"endpoint": "GetEshopInfo", "approved": true}}}})
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var v addons.View
	r.Data(t, &v)
	if v.Status != auth.StatusConfigured || !strings.HasPrefix(v.ClientID, "sbx_client_") || !strings.HasPrefix(v.ClientSecret, "sbx_secret_") ||
		v.RedirectURI != v.InstallURL || v.EshopID != 1002 || !strings.HasSuffix(v.TokenURL, "/eshops/1002/action/ApiOAuthServer/token") {
		t.Fatalf("created add-on %+v", v)
	}
	wantGrants := []auth.EndpointGrant{{Endpoint: "GetListOfOrders", Action: "add"}, {Endpoint: "CreateOrder", Action: "add"}, {Endpoint: "GetEshopInfo", Approved: true}}
	if jsonText(v.Endpoints) != jsonText(wantGrants) {
		t.Fatalf("endpoints %s, want %s", jsonText(v.Endpoints), jsonText(wantGrants))
	}

	// A change keeps what it does not name.
	v2 := configure(t, s, 1002, "new-addon", map[string]any{"webhookUrl": ""})
	if v2.ClientSecret != v.ClientSecret || v2.InstallURL != v.InstallURL || v2.WebhookURL != "" || jsonText(v2.Endpoints) != jsonText(v.Endpoints) {
		t.Fatalf("after a partial change: %+v", v2)
	}

	bad := []struct {
		name, path string
		body       any
		status     int
		instance   string
	}{
		{"new add-on without installUrl", "/_sandbox/eshops/1002/addons/other", map[string]any{"webhookUrl": "http://127.0.0.1:1/h"}, 422, "installUrl"},
		{"relative installUrl", "/_sandbox/eshops/1002/addons/other", map[string]any{"installUrl": "/install"}, 422, "installUrl"},
		{"ftp redirectUri", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"redirectUri": "ftp://x/y"}, 422, "redirectUri"},
		{"empty secret", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"clientSecret": " "}, 422, "clientSecret"},
		{"unknown endpoint", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"endpoints": []string{"GetNothing"}}, 422, "endpoints[0]"},
		{"endpoint twice", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"endpoints": []string{"GetListOfOrders", "GET /api/orders"}}, 422, "endpoints[1]"},
		{"bad action", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"endpoints": []any{map[string]any{"endpoint": "GetListOfOrders", "action": "grant"}}}, 422, "endpoints[0].action"},
		{"status is not configurable", "/_sandbox/eshops/1002/addons/new-addon", map[string]any{"status": "installed"}, 422, "body"},
		{"no body", "/_sandbox/eshops/1002/addons/new-addon", nil, 422, "body"},
		{"unknown e-shop", "/_sandbox/eshops/9999/addons/new-addon", map[string]any{"installUrl": "http://127.0.0.1:1/i"}, 404, "9999"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(sandboxtest.Call{Method: "PUT", Path: tc.path, Body: tc.body})
			if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.instance {
				t.Fatalf("%d %s, want %d instance %q", r.Status, r.Body, tc.status, tc.instance)
			}
		})
	}

	var list struct {
		Addons []addons.View `json:"addons"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/addons"}).Data(t, &list)
	if len(list.Addons) != 1 || list.Addons[0].Name != "new-addon" {
		t.Fatalf("list %+v", list.Addons)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/addons/other"}); r.Status != 404 {
		t.Fatalf("unknown add-on: %d", r.Status)
	}
}

// TestApproveEndpoints: pending endpoints are listed with their action
// and refused with 403 until the e-shop approves them; an approved
// deletion removes the endpoint.
func TestApproveEndpoints(t *testing.T) {
	s, _ := start(t)
	name, tok := fixtureAddon(t)
	type item struct {
		Endpoint string  `json:"endpoint"`
		Action   *string `json:"action"`
	}
	list := func(status string) map[string]*string {
		var out struct {
			Endpoints []item `json:"endpoints"`
		}
		s.Do(sandboxtest.Call{Path: "/api/system/endpoints?status=" + status, AccessToken: tok}).Data(t, &out)
		m := map[string]*string{}
		for _, e := range out.Endpoints {
			m[e.Endpoint] = e.Action
		}
		return m
	}
	var v addons.View
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1001/addons/" + name}).Data(t, &v)
	var pendingOps []string
	for _, g := range v.Endpoints {
		if !g.Approved {
			pendingOps = append(pendingOps, g.Endpoint)
		}
	}
	if len(pendingOps) < 2 {
		t.Fatalf("the fixture add-on needs two pending endpoints for this test: %+v", v.Endpoints)
	}
	pending := list("pending")
	if len(pending) != len(pendingOps) {
		t.Fatalf("pending %v, want %v", pending, pendingOps)
	}
	for _, a := range pending {
		if a == nil || *a != "add" {
			t.Fatalf("pending endpoint without action add: %v", pending)
		}
	}
	// CreateOrder is pending in the fixtures: refused until approved.
	createOrder := func() *sandboxtest.Response {
		return s.Do(sandboxtest.Call{Method: "POST", Path: "/api/orders", AccessToken: tok, Body: map[string]any{"data": map[string]any{}}})
	}
	if r := createOrder(); r.Status != 403 || r.Env.Errors[0].ErrorCode != sandbox.CodeNoRights {
		t.Fatalf("pending endpoint: %d %s", r.Status, r.Body)
	}

	for _, tc := range []struct {
		body     any
		status   int
		instance string
	}{
		{map[string]any{"endpoints": []string{"GetNothing"}}, 422, "endpoints[0]"},
		{map[string]any{"endpoints": []string{"GetListOfOrders"}}, 409, "GetListOfOrders"},
		{map[string]any{"endpoint": "CreateOrder"}, 422, "body"},
	} {
		r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/approve", Body: tc.body})
		if r.Status != tc.status || r.Env.Errors[0].Instance != tc.instance {
			t.Fatalf("approve %v: %d %s", tc.body, r.Status, r.Body)
		}
	}

	var res addons.ApproveResult
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/approve", Body: map[string]any{"endpoints": []string{"POST /api/orders"}}})
	r.Data(t, &res)
	if r.Status != 200 || len(res.Approved) != 1 || res.Approved[0] != "CreateOrder" {
		t.Fatalf("approve CreateOrder: %d %s", r.Status, r.Body)
	}
	if _, ok := list("approved")["createOrder"]; !ok {
		t.Fatal("createOrder not listed as approved")
	}
	if _, ok := list("pending")["createOrder"]; ok || len(list("pending")) != len(pendingOps)-1 {
		t.Fatalf("pending after approval: %v", list("pending"))
	}
	if r := createOrder(); r.Status == 403 {
		t.Fatalf("approved endpoint still refused: %s", r.Body)
	}

	// Approve the rest without naming them.
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/approve"}).Data(t, &res)
	if len(res.Approved) != len(pendingOps)-1 || len(list("pending")) != 0 {
		t.Fatalf("approve all: %+v, still pending %v", res.Approved, list("pending"))
	}

	// The add-on drops an endpoint: it becomes a pending deletion, then
	// disappears once approved.
	keep := []string{}
	for _, g := range res.Addon.Endpoints {
		if g.Endpoint != "GetListOfOrders" {
			keep = append(keep, g.Endpoint)
		}
	}
	configure(t, s, 1001, name, map[string]any{"endpoints": keep})
	if a := list("pending")["getListOfOrders"]; a == nil || *a != "delete" {
		t.Fatalf("dropped endpoint: %v", list("pending"))
	}
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/approve"}).Data(t, &res)
	if _, ok := list("approved")["getListOfOrders"]; ok || len(list("pending")) != 0 {
		t.Fatalf("after approving the deletion: approved has it or pending %v", list("pending"))
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: tok}); r.Status != 403 {
		t.Fatalf("deleted endpoint still callable: %d", r.Status)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestOwnAddon: an add-on that is not in the fixtures is registered in
// one call with fixed credentials and every endpoint approved, works
// through the whole handshake and the API, and is removed again with its
// tokens revoked.
func TestOwnAddon(t *testing.T) {
	s, _ := start(t)
	b := &brokenAddon{}
	var oauthTok string
	b.do = func(c client, w http.ResponseWriter, code string) {
		_, oauthTok = c.exchange(code, nil)
		w.WriteHeader(200)
	}
	url := serve(t, b)
	r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/addons/my-addon", Body: map[string]any{
		"installUrl": url + "/install", "webhookUrl": url + "/hooks", "endpoints": "all", "approved": true,
		"clientId": "my-client", "clientSecret": "my-secret"}})
	if r.Status != 201 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	var v addons.View
	r.Data(t, &v)
	if v.ClientID != "my-client" || v.ClientSecret != "my-secret" || !strings.HasSuffix(v.EshopURL, "/eshops/1001") || v.TokenURL != v.EshopURL+"/action/ApiOAuthServer/token" {
		t.Fatalf("registered %+v", v)
	}
	approved := map[string]bool{}
	for _, g := range v.Endpoints {
		if !g.Approved || g.Action != "" {
			t.Fatalf("endpoint %+v is not approved", g)
		}
		approved[g.Endpoint] = true
	}
	if len(approved) < 300 || !approved["GetOrderDetail"] || !approved["UpdateOrderStatus"] || !approved["GetListOfAllProducts"] {
		t.Fatalf("%d endpoints approved; \"all\" is every operation of the catalogue", len(approved))
	}
	b.c = clientOf(v)
	if rec := install(t, s, 1001, "my-addon"); !rec.Passed {
		t.Fatalf("install: %q", rec.Problems)
	}
	st, apiTok, _ := b.c.accessToken(oauthTok)
	if st != 200 {
		t.Fatalf("API token: %d", st)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: apiTok}); r.Status != 200 {
		t.Fatalf("an API call of the new add-on: %d %s", r.Status, r.Body)
	}
	pending := configure(t, s, 1002, "my-addon", map[string]any{"installUrl": url + "/install", "endpoints": []string{"GetListOfOrders"}})
	if len(pending.Endpoints) != 1 || pending.Endpoints[0].Approved || strings.HasPrefix(pending.ClientID, "my-") {
		t.Fatalf("without approved the endpoints wait, credentials are generated: %+v", pending)
	}
	for _, bad := range []any{"every", 7, map[string]any{}} {
		r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/addons/my-addon", Body: map[string]any{"endpoints": bad}})
		if r.Status != 422 || r.Env.Errors[0].Instance != "endpoints" {
			t.Fatalf("endpoints %v: %d %s", bad, r.Status, r.Body)
		}
	}

	r = s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/addons/my-addon", ContentType: "-"})
	var removed addons.Removed
	if r.Status != 200 {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	r.Data(t, &removed)
	if removed.Name != "my-addon" || removed.Revoked.APITokens != 1 || removed.Revoked.OAuthTokens != 1 {
		t.Fatalf("removed %+v", removed)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: apiTok}); r.Status != 401 {
		t.Fatalf("the removed add-on's token: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1001/addons/my-addon"}); r.Status != 404 {
		t.Fatalf("the removed add-on: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/addons/my-addon", ContentType: "-"}); r.Status != 404 {
		t.Fatalf("removed twice: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/addons/my-addon"}); r.Status != 200 {
		t.Fatalf("the add-on of the other e-shop stays: %d", r.Status)
	}
}

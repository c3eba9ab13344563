package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// trafficRow is a call as GET /_sandbox/traffic lists it, with what the
// pipeline resolved.
type trafficRow struct {
	ID          string            `json:"id"`
	Status      int               `json:"status"`
	Operation   string            `json:"operation"`
	Area        string            `json:"area"`
	Route       string            `json:"route"`
	Params      map[string]string `json:"params"`
	Eshop       int               `json:"eshop"`
	Token       string            `json:"token"`
	TokenHeader string            `json:"tokenHeader"`
	AccessMode  string            `json:"accessMode"`
	Fault       string            `json:"fault"`
}

// trafficOf waits (polling with a deadline) until the traffic list holds
// the call with this request id, and returns it.
func trafficOf(t *testing.T, s *sandboxtest.Server, id string) trafficRow {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		var hist struct {
			Events []struct {
				Call *trafficRow `json:"call"`
			} `json:"events"`
		}
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/traffic?limit=200", ContentType: "-"})
		if err := json.Unmarshal(r.Env.Data, &hist); err != nil {
			t.Fatalf("traffic: %v", err)
		}
		for _, e := range hist.Events {
			if e.Call != nil && e.Call.ID == id {
				return *e.Call
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("call %s never reached the traffic list", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// findingOf returns the report's finding of a rule for the request id.
func findingOf(t *testing.T, s *sandboxtest.Server, rule, id string) (scenario.Finding, bool) {
	t.Helper()
	var rep scenario.ReportView
	r := s.Do(sandboxtest.Call{Path: scenario.ReportPath, ContentType: "-"})
	if err := json.Unmarshal(r.Env.Data, &rep); err != nil {
		t.Fatalf("report: %v %s", err, r.Body)
	}
	for _, f := range rep.Findings {
		if f.Rule == rule && f.RequestID == id {
			return f, true
		}
	}
	return scenario.Finding{}, false
}

// TestAliasIsOneOperationEverywhere: the spec's PATCH /orders/{code}/status
// is an alias of UpdateOrderStatus (PATCH /api/orders/{code}/status), and
// a PUT endpoint sent as POST is a method variant of its operation. A
// call on an alias is, for the scripted faults, the traffic list and the
// contract report alike, a call of the route's operation on the API, with
// the route's template and path parameters as the pipeline resolved
// them: a fault matched by operation acts on it, the traffic row names
// the operation and route, and the report judges it as an API call (no
// Content-Type), which it did not while it told API calls by their path.
func TestAliasIsOneOperationEverywhere(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	for _, op := range []string{"UpdateOrderStatus", "UpdateShippingData"} {
		if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/faults", Body: `{"name": "` + op + `-down", "match": {"operation": "` + op + `"}, "respond": {"status": 503}}`}); r.Status != 201 {
			t.Fatalf("POST /_sandbox/faults: %d %s", r.Status, r.Body)
		}
	}
	const code, req, ship = "2025000001", "SR-1", "5d1c0c9e-0000-4000-8000-000000000001"
	for _, tc := range []struct {
		call   sandboxtest.Call
		op     string
		route  string
		params map[string]string
	}{
		{sandboxtest.Call{Method: "PATCH", Path: "/orders/" + code + "/status"}, "UpdateOrderStatus", "/api/orders/{code}/status", map[string]string{"code": code}},
		{sandboxtest.Call{Method: "PATCH", Path: "/api/orders/" + code + "/status"}, "UpdateOrderStatus", "/api/orders/{code}/status", map[string]string{"code": code}},
		{sandboxtest.Call{Method: "PUT", Path: "/api/shipping-request/" + req + "/" + ship}, "UpdateShippingData", "/api/shipping-request/{shippingRequestCode}/{shippingGuid}", map[string]string{"shippingRequestCode": req, "shippingGuid": ship}},
		{sandboxtest.Call{Method: "POST", Path: "/api/shipping-request/" + req + "/" + ship}, "UpdateShippingData", "/api/shipping-request/{shippingRequestCode}/{shippingGuid}", map[string]string{"shippingRequestCode": req, "shippingGuid": ship}},
	} {
		c := tc.call
		t.Run(c.Method+" "+c.Path, func(t *testing.T) {
			c.PrivateToken, c.ContentType, c.Body = f.FullToken, "-", `{"data": {}}`
			r := s.Do(c)
			if r.Status != 503 {
				t.Fatalf("the fault matched by operation did not act: %d %s", r.Status, r.Body)
			}
			id := r.Env.Metadata.RequestID
			row := trafficOf(t, s, id)
			if row.Operation != tc.op || row.Area != "api" || row.Route != tc.route || row.Fault != tc.op+"-down" {
				t.Errorf("traffic row: %+v", row)
			}
			for k, v := range tc.params {
				if row.Params[k] != v {
					t.Errorf("path parameter %s = %q, want %q", k, row.Params[k], v)
				}
			}
			fd, ok := findingOf(t, s, scenario.RuleNoContentType, id)
			if !ok {
				t.Fatalf("the report did not judge the call as an API call (no %s finding)", scenario.RuleNoContentType)
			}
			if fd.Operation != tc.op || fd.Path != c.Path {
				t.Errorf("finding %+v", fd)
			}
		})
	}
}

// TestTokenHeadersAttributedOnce: with both token headers, or one sent
// twice, the contract report attributes a call to the token and access
// mode the pipeline took (auth.TokenOf's precedence: the add-on header
// first, a duplicated header's first value, nothing from an empty add-on
// header beside a private one, which is a conflict), as the traffic
// list shows them, instead of reading the headers again in its own
// order.
func TestTokenHeadersAttributedOnce(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	access, private := s.Headers.AccessToken, s.Headers.PrivateToken
	for _, tc := range []struct {
		name      string
		header    http.Header
		wantToken string // what the pipeline takes
		wantMode  string
	}{
		{"both, different tokens", http.Header{access: {f.AddonToken}, private: {f.FullToken}}, f.AddonToken, "addon"},
		{"both, one token", http.Header{access: {f.FullToken}, private: {f.FullToken}}, f.FullToken, "addon"},
		{"an empty add-on header beside a private one", http.Header{access: {""}, private: {f.FullToken}}, "", ""},
		{"the private header twice beside the add-on one", http.Header{access: {f.AddonToken}, private: {f.FullToken, f.OrdersReadToken}}, f.FullToken, "private"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, s.URL+"/api/eshop", nil)
			for k, vs := range tc.header {
				req.Header[k] = vs // as given: set would canonicalise away nothing, but keeps one value
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			id := resp.Header.Get("X-Request-ID")
			row := trafficOf(t, s, id)
			if row.Token != tc.wantToken || row.AccessMode != tc.wantMode {
				t.Errorf("the pipeline took token %q (%s), want %q (%s)", row.Token, row.AccessMode, tc.wantToken, tc.wantMode)
			}
			fd, ok := findingOf(t, s, scenario.RuleNoContentType, id)
			if !ok {
				t.Fatalf("no %s finding for the call", scenario.RuleNoContentType)
			}
			if fd.TokenKind != row.AccessMode || !sameToken(fd.Token, row.Token) {
				t.Errorf("the report attributes the call to %q (%s); the pipeline to %q (%s)", fd.Token, fd.TokenKind, row.Token, row.AccessMode)
			}
		})
	}
}

// sameToken reports whether a report's shortened token is the token.
func sameToken(short, tok string) bool {
	if short == "" || tok == "" {
		return short == tok
	}
	return strings.HasPrefix(tok, strings.TrimSuffix(short, "…"))
}

// TestControlRouteResolved: a control-plane call is published with its
// route as the pipeline resolved it (area, template, path parameters)
// and the e-shop its path names, with no token to tell it.
func TestControlRouteResolved(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	r := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/modules", ContentType: "-"})
	if r.Status != 200 {
		t.Fatalf("GET modules: %d %s", r.Status, r.Body)
	}
	row := trafficOf(t, s, r.Env.Metadata.RequestID)
	if row.Area != "control" || row.Route != "/_sandbox/eshops/{eshopId}/modules" || row.Params["eshopId"] != "1002" || row.Eshop != 1002 || row.Operation == "" || row.Token != "" {
		t.Fatalf("traffic row: %+v", row)
	}
}

package app_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestSurchargeParameterPatch walks the spec's surcharge-parameter rules
// through HTTP, including the code change and the follow-up calls.
func TestSurchargeParameterPatch(t *testing.T) {
	s, f := start(t)
	var params []map[string]any
	readJSON(t, "eshops/1001/surcharge-parameters.json", &params)
	code := params[0]["code"].(string)
	patch := func(code string, data any) *sandboxtest.Response {
		return s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/" + code, PrivateToken: f.FullToken, Body: map[string]any{"data": data}})
	}
	type sp struct {
		SurchargeParameter map[string]any `json:"surchargeParameter"`
	}
	var got sp
	r := patch(code, map[string]any{"name": "Dárkové balení Premium", "priority": 3, "googleMapping": "Gifts", "currency": "EUR"})
	if r.Status != 200 {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	r.Data(t, &got)
	p := got.SurchargeParameter
	if p["code"] != "darkove-baleni-premium" || p["name"] != "Dárkové balení Premium" || p["currency"] != "EUR" || p["priority"] != float64(3) {
		t.Fatalf("after rename: %v", p)
	}
	if gm, _ := p["googleMapping"].(map[string]any); gm["value"] != "Gifts" {
		t.Fatalf("googleMapping: %v", p["googleMapping"])
	}
	for _, k := range []string{"id", "code", "name", "displayName", "description", "priority", "required", "currency", "includingVat", "googleMapping"} {
		if _, ok := p[k]; !ok {
			t.Fatalf("response lacks %s", k)
		}
	}
	if r := patch(code, map[string]any{"priority": 1}); r.Status != 404 {
		t.Fatalf("old code still answers: %d", r.Status)
	}
	var detail sp
	r = s.Do(sandboxtest.Call{Path: "/api/products/surcharge-parameters/darkove-baleni-premium", PrivateToken: f.FullToken})
	if r.Status == 200 {
		r.Data(t, &detail)
	}
	if r := patch("darkove-baleni-premium", map[string]any{"code": params[1]["code"]}); r.Status != 409 {
		t.Fatalf("duplicate code: %d %s", r.Status, r.Body)
	}
	if r := patch("darkove-baleni-premium", map[string]any{"code": "Bad Code"}); r.Status != 400 || r.Env.Errors[0].Instance != "code" {
		t.Fatalf("bad code: %d %s", r.Status, r.Body)
	}
	if r := patch("darkove-baleni-premium", map[string]any{"currency": "USD"}); r.Status != 400 || r.Env.Errors[0].Instance != "currency" {
		t.Fatalf("foreign currency: %d %s", r.Status, r.Body)
	}
	if r := patch("darkove-baleni-premium", map[string]any{"required": "yes"}); r.Status != 422 || r.Env.Errors[0].Instance != "data.required" {
		t.Fatalf("wrong type: %d %s", r.Status, r.Body)
	}
	r = s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/x", PrivateToken: f.FullToken, Body: `{"data": `})
	if r.Status != 422 {
		t.Fatalf("malformed body: %d", r.Status)
	}
	r = patch("darkove-baleni-premium", map[string]any{"code": "wrap-it"})
	r.Data(t, &got)
	if got.SurchargeParameter["code"] != "wrap-it" || got.SurchargeParameter["name"] != "Dárkové balení Premium" {
		t.Fatalf("explicit code: %v", got.SurchargeParameter)
	}
}

// TestPricelistPatch checks the multi-record PATCH: written rows show in a
// follow-up GET, skipped rows answer 200 with errors.
func TestPricelistPatch(t *testing.T) {
	s, f := start(t)
	var lists []map[string]any
	readJSON(t, "eshops/1001/pricelists.json", &lists)
	id := jsonText(lists[0]["id"])
	code := lists[0]["_prices"].([]any)[0].(map[string]any)["code"].(string)
	r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/pricelists/" + id, PrivateToken: f.FullToken, Body: map[string]any{
		"data": []any{
			map[string]any{"code": code, "vatRate": "12.00"},
			map[string]any{"code": "NO-SUCH-CODE", "vatRate": "21.00"},
		},
	}})
	if r.Status != 200 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "NO-SUCH-CODE" {
		t.Fatalf("partial success: %d %s", r.Status, r.Body)
	}
	var d struct {
		Pricelist []map[string]any `json:"pricelist"`
		Paginator struct{ TotalCount int }
	}
	s.Do(sandboxtest.Call{Path: "/api/pricelists/" + id + "?code=" + code, PrivateToken: f.FullToken}).Data(t, &d)
	if len(d.Pricelist) != 1 || d.Pricelist[0]["vatRate"] != "12.00" {
		t.Fatalf("follow-up GET: %v", d.Pricelist)
	}
	if r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/pricelists/" + id, PrivateToken: f.FullToken, Body: map[string]any{"data": []any{map[string]any{"code": code, "vatRate": "12"}}}}); r.Status != 422 || r.Env.Errors[0].Instance != "data[0].vatRate" {
		t.Fatalf("bad vatRate: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/pricelists/999999", PrivateToken: f.FullToken, Body: map[string]any{"data": []any{map[string]any{"code": code}}}}); r.Status != 404 {
		t.Fatalf("unknown price list: %d %s", r.Status, r.Body)
	}
}

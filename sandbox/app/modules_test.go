package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// addonToken gives e-shop id an installed add-on approved for the
// operations and returns a valid API token of it: the records an install
// handshake would leave.
func addonToken(t *testing.T, s *sandboxtest.Server, id int, ops ...string) string {
	t.Helper()
	const tok = "sbx_api_0000000000000000000000000000beef"
	ad := &auth.Addon{Name: "module-probe", ClientID: "sbx_client_module_probe", ClientSecret: "sbx_secret_module_probe",
		InstallURL: "http://127.0.0.1:9/install", RedirectURI: "http://127.0.0.1:9/install", Status: auth.StatusInstalled}
	for _, op := range ops {
		ad.Endpoints = append(ad.Endpoints, auth.EndpointGrant{Endpoint: op, Approved: true})
	}
	exp := s.App.Clock.Now().Add(time.Hour)
	err := s.App.Store.Update(func(tx *store.Tx) error {
		if err := auth.PutAddon(tx, id, ad); err != nil {
			return err
		}
		return auth.PutToken(tx, &auth.Token{Token: tok, EshopID: id, Kind: auth.KindAddon, Addon: ad.Name, ExpiresAt: &exp})
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// moduleCall is one API call of the module tests and what it must answer:
// 200, or 403 module-not-enabled naming the module.
type moduleCall struct {
	path, operation string
	module          string // "" when it must answer 200
}

func checkModuleCalls(t *testing.T, s *sandboxtest.Server, mode string, call func(path string) sandboxtest.Call, calls []moduleCall) {
	t.Helper()
	for _, tc := range calls {
		t.Run(mode+" "+tc.path, func(t *testing.T) {
			r := s.Do(call(tc.path))
			if tc.module == "" {
				if r.Status != 200 {
					t.Fatalf("status %d, want 200: %s", r.Status, r.Body)
				}
				return
			}
			if r.Status != 403 || len(r.Env.Errors) != 1 || string(r.Env.Data) != "null" {
				t.Fatalf("status %d, want 403 with one error and data null: %s", r.Status, r.Body)
			}
			e := r.Env.Errors[0]
			if e.ErrorCode != "module-not-enabled" || e.Instance != tc.module ||
				!strings.Contains(e.Message, "module "+tc.module) || !strings.Contains(e.Message, tc.operation) {
				t.Fatalf("error %+v, want module-not-enabled naming %s and %s", e, tc.module, tc.operation)
			}
		})
	}
}

// TestModuleGate: e-shop 1002 has only the productVariants module, so its
// calls to price lists and stocks answer 403 module-not-enabled in both
// access modes, while 1001, which has the modules, reads them. Switching
// the modules on through the control plane opens the endpoints, switching
// one off closes it again, and a reset restores the fixtures' modules.
func TestModuleGate(t *testing.T) {
	s, f := start(t)
	gated := []string{"GetListOfPriceLists", "GetPricelistDetail", "GetListOfStocks", "GetStockDetail",
		"GetListOfVariantParameters", "GetListOfProducts"}
	access := addonToken(t, s, 1002, gated...)
	private := func(path string) sandboxtest.Call { return sandboxtest.Call{Path: path, PrivateToken: f.OtherToken} }
	addon := func(path string) sandboxtest.Call { return sandboxtest.Call{Path: path, AccessToken: access} }
	both := func(calls []moduleCall) {
		t.Helper()
		checkModuleCalls(t, s, "private", private, calls)
		checkModuleCalls(t, s, "add-on", addon, calls)
	}

	t.Log("the fixtures: 1002 has productVariants only")
	both([]moduleCall{
		{"/api/pricelists", "GetListOfPriceLists", "pricelists"},
		{"/api/pricelists/1", "GetPricelistDetail", "pricelists"},
		{"/api/stocks", "GetListOfStocks", "multipleStocks"},
		{"/api/stocks/1", "GetStockDetail", "multipleStocks"},
		{"/api/products/variant-parameters", "GetListOfVariantParameters", ""},
		{"/api/products", "GetListOfProducts", ""},
	})
	// The module is checked before the job:finished webhook an
	// asynchronous endpoint needs (1002 has none registered).
	checkModuleCalls(t, s, "private", private, []moduleCall{
		{"/api/products/snapshot/pricelists", "GetListOfAllProductsAndPricelistPrices", "pricelists"},
	})
	checkModuleCalls(t, s, "1001", func(path string) sandboxtest.Call { return sandboxtest.Call{Path: path, PrivateToken: f.FullToken} }, []moduleCall{
		{"/api/pricelists", "GetListOfPriceLists", ""},
		{"/api/stocks", "GetListOfStocks", ""},
		{"/api/products/variant-parameters", "GetListOfVariantParameters", ""},
	})

	t.Log("rights come first: an add-on not approved for the endpoint hears invalid-token-no-rights")
	if r := s.Do(addon("/api/stocks/1/movements")); r.Status != 403 || r.Env.Errors[0].ErrorCode != "invalid-token-no-rights" {
		t.Fatalf("unapproved endpoint: %d %s", r.Status, r.Body)
	}

	t.Log("switch price lists on: they open, stocks stay closed")
	if r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1002/modules/pricelists"}); r.Status != 200 {
		t.Fatalf("switch pricelists on: %d %s", r.Status, r.Body)
	}
	both([]moduleCall{
		{"/api/pricelists", "GetListOfPriceLists", ""},
		{"/api/pricelists/1", "GetPricelistDetail", ""},
		{"/api/stocks", "GetListOfStocks", "multipleStocks"},
	})

	t.Log("replace the whole set: stocks open, variants close")
	r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1002/modules", Body: map[string]any{"modules": []string{"pricelists", "multipleStocks"}}})
	if r.Status != 200 {
		t.Fatalf("put modules: %d %s", r.Status, r.Body)
	}
	both([]moduleCall{
		{"/api/pricelists", "GetListOfPriceLists", ""},
		{"/api/stocks", "GetListOfStocks", ""},
		{"/api/stocks/1", "GetStockDetail", ""},
		{"/api/products/variant-parameters", "GetListOfVariantParameters", "productVariants"},
	})
	var info struct {
		ActiveModules []struct{ Name, Title string } `json:"activeModules"`
	}
	s.Do(private("/api/eshop")).Data(t, &info)
	if len(info.ActiveModules) != 2 || info.ActiveModules[0].Name != "pricelists" || info.ActiveModules[0].Title != "Price lists" ||
		info.ActiveModules[1].Name != "multipleStocks" {
		t.Fatalf("GET /api/eshop activeModules = %+v, want pricelists and multipleStocks", info.ActiveModules)
	}

	t.Log("switch stocks off again")
	if r := s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1002/modules/multipleStocks"}); r.Status != 200 {
		t.Fatalf("switch multipleStocks off: %d %s", r.Status, r.Body)
	}
	both([]moduleCall{{"/api/stocks", "GetListOfStocks", "multipleStocks"}})

	t.Log("a reset brings back the fixtures' modules")
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset"}); r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	checkModuleCalls(t, s, "private", private, []moduleCall{
		{"/api/pricelists", "GetListOfPriceLists", "pricelists"},
		{"/api/products/variant-parameters", "GetListOfVariantParameters", ""},
	})
}

// TestModuleControl: the control plane shows an e-shop's modules with the
// endpoints each gated module opens, and refuses bad module lists with
// the status and field of the problem, changing nothing.
func TestModuleControl(t *testing.T) {
	s, _ := start(t)
	var view struct {
		EshopID       int                            `json:"eshopId"`
		ActiveModules []struct{ Name, Title string } `json:"activeModules"`
		Required      []struct {
			Module     string   `json:"module"`
			Active     bool     `json:"active"`
			Operations []string `json:"operations"`
		} `json:"required"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/modules"}).Data(t, &view)
	if view.EshopID != 1002 || len(view.ActiveModules) != 1 || view.ActiveModules[0].Name != "productVariants" || view.ActiveModules[0].Title != "Product variants" {
		t.Fatalf("view %+v", view)
	}
	got := map[string]bool{}
	for _, m := range view.Required {
		got[m.Module] = m.Active
		if len(m.Operations) == 0 {
			t.Fatalf("module %s opens no operation", m.Module)
		}
	}
	if len(got) != 3 || got["pricelists"] || got["multipleStocks"] || !got["productVariants"] {
		t.Fatalf("required modules %v, want pricelists and multipleStocks off, productVariants on", got)
	}

	tests := []struct {
		name           string
		method, path   string
		body           any
		status         int
		code, instance string
	}{
		{"misspelt", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": []string{"priceLists"}}, 400, "validation-error", "modules[0]"},
		{"twice", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": []string{"pricelists", "pricelists"}}, 400, "validation-error", "modules[1]"},
		{"bad shape", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": []string{"price lists"}}, 400, "validation-error", "modules[0]"},
		{"not a list", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": "pricelists"}, 422, "schema-mismatch", "modules"},
		{"not a string", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": []any{1}}, 422, "schema-mismatch", "modules[0]"},
		{"unknown field", "PUT", "/_sandbox/eshops/1002/modules", map[string]any{"modules": []string{}, "enable": true}, 422, "schema-mismatch", "enable"},
		{"unknown e-shop", "PUT", "/_sandbox/eshops/9999/modules", map[string]any{"modules": []string{}}, 404, "not-found", "9999"},
		{"one misspelt", "PUT", "/_sandbox/eshops/1002/modules/multiplestocks", nil, 400, "validation-error", "module"},
		{"one of an unknown e-shop", "DELETE", "/_sandbox/eshops/9999/modules/pricelists", nil, 404, "not-found", "9999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(sandboxtest.Call{Method: tc.method, Path: tc.path, Body: tc.body})
			if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != tc.code || r.Env.Errors[0].Instance != tc.instance || r.Env.Errors[0].Message == "" {
				t.Fatalf("%d %s, want %d %s at %s", r.Status, r.Body, tc.status, tc.code, tc.instance)
			}
		})
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops/1002/modules"}).Data(t, &view)
	if len(view.ActiveModules) != 1 || view.ActiveModules[0].Name != "productVariants" {
		t.Fatalf("a refused change changed the modules: %+v", view.ActiveModules)
	}

	t.Log("the wrapped form, and an empty set")
	r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1002/modules", Body: map[string]any{"data": map[string]any{"modules": []string{}}}})
	if r.Status != 200 {
		t.Fatalf("empty set: %d %s", r.Status, r.Body)
	}
	var eshops struct {
		Eshops []struct {
			ID      int      `json:"id"`
			Modules []string `json:"modules"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &eshops)
	for _, e := range eshops.Eshops {
		if e.ID == 1002 && (e.Modules == nil || len(e.Modules) != 0) {
			t.Fatalf("GET /_sandbox/eshops lists modules %v for 1002, want []", e.Modules)
		}
		if e.ID == 1001 && len(e.Modules) != 7 {
			t.Fatalf("GET /_sandbox/eshops lists modules %v for 1001", e.Modules)
		}
	}
}

// TestLanguageNeedsForeignLanguagesModule: language selects the English
// texts only while e-shop 1001 has the foreign-languages module; without
// it the default texts answer (the code is still checked), and switching
// it back on brings the translation back.
func TestLanguageNeedsForeignLanguagesModule(t *testing.T) {
	s, f := start(t)
	p := productBy(f, func(p map[string]any) bool {
		tr, _ := p["_translations"].(map[string]any)
		en, _ := tr["en"].(map[string]any)
		return en["name"] != nil && en["name"] != p["name"]
	})
	if p == nil {
		t.Fatal("no product of 1001 has an English name")
	}
	english := p["_translations"].(map[string]any)["en"].(map[string]any)["name"]
	path := "/api/products/" + p["guid"].(string) + "?language=en"
	name := func() any {
		t.Helper()
		var d map[string]any
		s.Do(sandboxtest.Call{Path: path, PrivateToken: f.FullToken}).Data(t, &d)
		return d["name"]
	}
	steps := []struct {
		name    string
		switch_ sandboxtest.Call
		want    any
	}{
		{"with the module (fixtures)", sandboxtest.Call{}, english},
		{"module switched off", sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/modules/foreignLanguages"}, p["name"]},
		{"module switched on", sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/modules/foreignLanguages"}, english},
	}
	for _, st := range steps {
		if st.switch_.Path != "" {
			if r := s.Do(st.switch_); r.Status != 200 {
				t.Fatalf("%s: %d %s", st.name, r.Status, r.Body)
			}
		}
		if got := name(); got != st.want {
			t.Fatalf("%s: name %q, want %q", st.name, got, st.want)
		}
		if st.want == p["name"] {
			r := s.Do(sandboxtest.Call{Path: "/api/products/" + p["guid"].(string) + "?language=xx", PrivateToken: f.FullToken})
			if r.Status != 400 || r.Env.Errors[0].Instance != "language" {
				t.Fatalf("%s: an unknown language answers %d %s, want 400 at language", st.name, r.Status, r.Body)
			}
		}
	}
}

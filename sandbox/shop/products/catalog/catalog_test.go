package catalog_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestCatalogueActions: deleting a product's last variant deletes the
// product; a copy gets unique variant codes; the category order skips
// products the category does not hold.
func TestCatalogueActions(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	do := func(method, path, body string) (int, gjson.Result) { return s.JSON(method, path, tok, body) }
	one := sandboxtest.Fixture(t, 1001, "products", "#(variants.#==1).guid")
	code := sandboxtest.Fixture(t, 1001, "products", "#(variants.#==1).variants.0.code")
	if st, _ := do("DELETE", "/api/products/code/"+code, ""); st != 200 {
		t.Fatalf("delete variant: %d", st)
	}
	if st, _ := do("GET", "/api/products/"+one, ""); st != 404 {
		t.Fatalf("a product without variants remains: %d", st)
	}
	src := sandboxtest.Fixture(t, 1001, "products", "0.guid")
	for i, want := range []string{"-COPY", "-COPY2"} {
		st, got := do("POST", "/api/products/"+src+"/copy", `{"data":{"name":"Kopie"}}`)
		if st != 201 || !strings.HasSuffix(got.Get("data.variants.0.code").String(), want) {
			t.Fatalf("copy %d: %d %s", i, st, got.Get("data.variants.0.code"))
		}
	}
	cat := sandboxtest.Fixture(t, 1001, "categories", "0.guid")
	st, got := do("PATCH", "/api/categories/"+cat+"/productsPriority", `{"data":[{"productGuid":"00000000-0000-4000-8000-000000000001","priority":1}]}`)
	if st != 200 || got.Get("errors.0.instance").String() != "data[0]" {
		t.Fatalf("unknown product: %d %s", st, got.Raw)
	}
	if st, _ := do("GET", "/api/categories/00000000-0000-4000-8000-000000000001/productsPriority", ""); st != 404 {
		t.Fatalf("unknown category: %d", st)
	}
}

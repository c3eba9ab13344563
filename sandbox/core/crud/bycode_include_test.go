package crud_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// TestProductByCodeHonoursInclude: GET /api/products/code/{code} answers
// exactly what GET /api/products/{guid} answers for the same product,
// for every include value: none, each section alone, all together (in
// another letter case), and an unknown one (400 from both). Without
// include, every optional section is null.
func TestProductByCodeHonoursInclude(t *testing.T) {
	e := start(t)
	guid := fixture(t, "products", "0.guid")
	code := fixture(t, "products", "0.variants.0.code")
	var row *registry.Resource
	for _, r := range registry.Rows() {
		if r.Name == "products" {
			row = r
		}
	}
	if row == nil || len(row.Sections) == 0 {
		t.Fatal("the products row declares no include sections")
	}
	names := registry.SectionNames(row.Sections)
	includes := append([]string{"", strings.ToUpper(strings.Join(names, ","))}, names...)
	for _, inc := range includes {
		q := ""
		if inc != "" {
			q = "?include=" + inc
		}
		byGUID := e.must(t, 200, "GET", "/api/products/"+guid+q, nil).Get("data")
		byCode := e.must(t, 200, "GET", "/api/products/code/"+code+q, nil).Get("data")
		if byGUID.Raw != byCode.Raw {
			t.Fatalf("include=%q: by code differs from by guid\nguid: %s\ncode: %s", inc, byGUID.Raw, byCode.Raw)
		}
		if inc == "" {
			for _, s := range row.Sections {
				for _, f := range s.Fields {
					if v := byCode.Get(f); v.Type != gjson.Null || !v.Exists() {
						t.Fatalf("without include, section %s (%s) is %s, want null", s.Name, f, v.Raw)
					}
				}
			}
		}
	}
	for _, path := range []string{"/api/products/" + guid, "/api/products/code/" + code} {
		r := e.call(t, "GET", path+"?include=images,secrets", nil)
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "include" {
			t.Fatalf("%s with an unknown section: %d %s", path, r.Status, r.Body)
		}
	}
}

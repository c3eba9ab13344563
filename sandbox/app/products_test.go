package app_test

import (
	"fmt"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

type productList struct {
	Paginator struct {
		TotalCount, Page, PageCount, ItemsOnPage, ItemsPerPage int
	} `json:"paginator"`
	Products []map[string]any `json:"products"`
}

// TestProductPaging checks the spec's paging rules on GET /api/products.
func TestProductPaging(t *testing.T) {
	s, f := start(t)
	total := len(f.Products)
	tests := []struct {
		query                            string
		page, perPage, onPage, pageCount int
	}{
		{"", 1, 20, min(20, total), (total + 19) / 20},
		{"?page=2&itemsPerPage=10", 2, 10, min(10, total-10), (total + 9) / 10},
		{"?itemsPerPage=1000", 1, 100, total, 1},
		{fmt.Sprintf("?page=%d&itemsPerPage=5", (total+4)/5), (total + 4) / 5, 5, total - 5*((total+4)/5-1), (total + 4) / 5},
		{"?page=99", 99, 20, 0, (total + 19) / 20},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			var l productList
			r := s.Do(sandboxtest.Call{Path: "/api/products" + tc.query, PrivateToken: f.FullToken})
			if r.Status != 200 {
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
			r.Data(t, &l)
			p := l.Paginator
			if p.TotalCount != total || p.Page != tc.page || p.ItemsPerPage != tc.perPage || p.ItemsOnPage != tc.onPage || p.PageCount != tc.pageCount || len(l.Products) != tc.onPage {
				t.Fatalf("paginator %+v with %d products; want page %d perPage %d onPage %d pageCount %d total %d",
					p, len(l.Products), tc.page, tc.perPage, tc.onPage, tc.pageCount, total)
			}
		})
	}
	// Paging through gives every product exactly once, in a stable order.
	seen := map[string]bool{}
	for page := 1; ; page++ {
		var l productList
		s.Do(sandboxtest.Call{Path: fmt.Sprintf("/api/products?page=%d&itemsPerPage=7", page), PrivateToken: f.FullToken}).Data(t, &l)
		if len(l.Products) == 0 {
			break
		}
		for i, p := range l.Products {
			g := p["guid"].(string)
			if seen[g] {
				t.Fatalf("product %s repeated", g)
			}
			seen[g] = true
			if want := f.Products[(page-1)*7+i]["guid"]; g != want {
				t.Fatalf("order differs from fixtures at page %d item %d", page, i)
			}
		}
	}
	if len(seen) != total {
		t.Fatalf("paged through %d of %d products", len(seen), total)
	}
}

// TestProductFilters checks list filters against the fixtures.
func TestProductFilters(t *testing.T) {
	s, f := start(t)
	count := func(pred func(map[string]any) bool) int {
		n := 0
		for _, p := range f.Products {
			if pred(p) {
				n++
			}
		}
		return n
	}
	firstVariant := f.Products[0]["variants"].([]any)[0].(map[string]any)["code"].(string)
	cat := f.Products[0]["defaultCategory"].(map[string]any)["guid"].(string)
	tests := []struct {
		query string
		want  int
	}{
		{"visibility=hidden", count(func(p map[string]any) bool { return p["visibility"] == "hidden" })},
		{"type=bazar", count(func(p map[string]any) bool { return p["type"] == "bazar" })},
		{"productCodes=" + firstVariant + ",NO-SUCH-CODE", 1},
		{"defaultCategoryGuid=" + cat, count(func(p map[string]any) bool { return p["defaultCategory"].(map[string]any)["guid"] == cat })},
		{"creationTimeFrom=2099-01-01T00:00:00+0000", 0},
		{"visibility=visible&type=service", count(func(p map[string]any) bool { return p["visibility"] == "visible" && p["type"] == "service" })},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			if tc.want == 0 && tc.query != "creationTimeFrom=2099-01-01T00:00:00+0000" {
				t.Fatalf("fixtures give no product for %s; the test would prove nothing", tc.query)
			}
			var l productList
			s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=100&" + tc.query, PrivateToken: f.FullToken}).Data(t, &l)
			if l.Paginator.TotalCount != tc.want || len(l.Products) != tc.want {
				t.Fatalf("%d products (total %d), want %d", len(l.Products), l.Paginator.TotalCount, tc.want)
			}
		})
	}
	r := s.Do(sandboxtest.Call{Path: "/api/products?creationTimeFrom=yesterday", PrivateToken: f.FullToken})
	if r.Status != 400 || r.Env.Errors[0].Instance != "creationTimeFrom" {
		t.Fatalf("bad date filter: %d %s", r.Status, r.Body)
	}
}

// TestProductDetail checks include sections, language variants and 404s.
func TestProductDetail(t *testing.T) {
	s, f := start(t)
	p := productBy(f, func(p map[string]any) bool {
		_, tr := p["_translations"]
		imgs, _ := p["images"].([]any)
		fps, _ := p["filteringParameters"].([]any)
		return tr && len(imgs) > 1 && len(fps) > 0
	})
	if p == nil {
		t.Fatal("fixtures need a translated product with images and filtering parameters")
	}
	guid := p["guid"].(string)
	get := func(query string) map[string]any {
		t.Helper()
		var m map[string]any
		r := s.Do(sandboxtest.Call{Path: "/api/products/" + guid + query, PrivateToken: f.FullToken})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
		}
		r.Data(t, &m)
		return m
	}
	plain := get("")
	if plain["guid"] != guid || plain["images"] != nil || plain["filteringParameters"] != nil {
		t.Fatalf("without include, sections must be null: images=%v filteringParameters=%v", plain["images"], plain["filteringParameters"])
	}
	if _, ok := plain["_translations"]; ok {
		t.Fatal("sandbox metadata leaked")
	}
	inc := get("?include=filteringParameters,IMAGES")
	imgs, _ := inc["images"].([]any)
	if len(imgs) != len(p["images"].([]any)) || inc["filteringParameters"] == nil || inc["flags"] != nil {
		t.Fatalf("include: %d images, filteringParameters %v, flags %v", len(imgs), inc["filteringParameters"], inc["flags"])
	}
	img := imgs[0].(map[string]any)
	for _, k := range []string{"name", "seoName", "cdnName", "signedCdnNames"} {
		if img[k] == nil {
			t.Fatalf("image lacks %s: %v", k, img)
		}
	}
	en := get("?language=en")
	wantName := p["_translations"].(map[string]any)["en"].(map[string]any)["name"]
	if wantName == nil || en["name"] != wantName || plain["name"] != p["name"] || en["name"] == plain["name"] {
		t.Fatalf("language: default %q, en %q, want %q", plain["name"], en["name"], wantName)
	}
	if cs := get("?language=cs"); cs["name"] != p["name"] {
		t.Fatalf("default language given explicitly: %q", cs["name"])
	}
	for _, tc := range []struct {
		path, instance string
		status         int
	}{
		{"/api/products/00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000000", 404},
		{"/api/products/" + guid + "?include=images,secrets", "include", 400},
		{"/api/products/" + guid + "?language=xx", "language", 400},
	} {
		r := s.Do(sandboxtest.Call{Path: tc.path, PrivateToken: f.FullToken})
		if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.instance {
			t.Fatalf("%s: %d %s", tc.path, r.Status, r.Body)
		}
	}
	// The list item carries the representative image only.
	var l productList
	s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=100&productGuids=" + guid, PrivateToken: f.FullToken}).Data(t, &l)
	if len(l.Products) != 1 || l.Products[0]["mainImage"].(map[string]any)["name"] != p["images"].([]any)[0].(map[string]any)["name"] {
		t.Fatalf("list mainImage: %v", l.Products)
	}
	if _, ok := l.Products[0]["images"]; ok {
		t.Fatal("list items must not carry all images")
	}
}

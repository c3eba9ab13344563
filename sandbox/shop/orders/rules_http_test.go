package orders_test

import (
	"encoding/json"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestItemRulesCatalogue covers item rules 2 and 3 and the coupon rule 9
// over HTTP, where products are looked up: each row posts an order and
// expects its total, or a 400 naming the field.
func TestItemRulesCatalogue(t *testing.T) {
	// A copy of the fixtures in which one product set has no contents.
	set := loadFacts(t).variant(t, func(v variant) bool { return v.Type == "product-set" })
	fsys := fstest.MapFS{}
	_ = fs.WalkDir(fixtures.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			raw, _ := fs.ReadFile(fixtures.FS, p)
			fsys[p] = &fstest.MapFile{Data: raw}
		}
		return nil
	})
	var prods []map[string]any
	_ = json.Unmarshal(fsys["eshops/1001/products.json"].Data, &prods)
	for _, p := range prods {
		if p["guid"] == set.GUID {
			p["setItems"] = []any{}
		}
	}
	raw, _ := json.Marshal(prods)
	fsys["eshops/1001/products.json"] = &fstest.MapFile{Data: raw}

	e := start(t, sandbox.Config{})
	empty := start(t, sandbox.Config{Fixtures: fsys, FixturesName: "test"})
	f := e.f
	prod := f.variant(t, func(v variant) bool { return v.Type == "product" && v.VatRate == "21.00" })
	other := f.variant(t, func(v variant) bool { return v.Type == "product" && v.GUID != prod.GUID })
	bazar := f.variant(t, func(v variant) bool { return v.Type == "bazar" })
	service := f.variant(t, func(v variant) bool { return v.Type == "service" })
	food := f.variant(t, func(v variant) bool { return v.VatRate == "12.00" })

	tests := []struct {
		name     string
		env      *env
		query    string
		items    []map[string]any
		total    string
		instance string
	}{
		{name: "rule 2: a bazar product sent as product", items: []map[string]any{product(bazar, "1", "1000.00")}, total: "1168.00/965.29/202.71"},
		{name: "rule 2: a product sent as gift", items: []map[string]any{product(prod, "1", "1000.00"),
			{"itemType": "gift", "code": other.Code, "vatRate": "21.00", "itemPriceWithVat": "0.00", "priceRatio": "0.0000"}}, total: "1168.00/965.29/202.71"},
		{name: "rule 2: a service", items: []map[string]any{{"itemType": "service", "code": service.Code, "vatRate": "21.00", "itemPriceWithoutVat": "100.00"}},
			total: "289.00/238.84/50.16"},
		{name: "rule 3: found by code and GUID", items: []map[string]any{{"itemType": "product", "code": prod.Code, "productGuid": prod.GUID, "vatRate": "21.00", "itemPriceWithVat": "1000.00"}},
			total: "1168.00/965.29/202.71"},
		{name: "rule 3: unknown code", items: []map[string]any{product(variant{Code: "NO-SUCH-CODE", VatRate: "21.00"}, "1", "1.00")}, instance: "data.items[2].code"},
		{name: "rule 3: unknown code with suppressProductChecking", query: "?suppressProductChecking=true",
			items: []map[string]any{product(variant{Code: "NO-SUCH-CODE", VatRate: "21.00"}, "1", "10.00")}, total: "178.00/147.10/30.90"},
		{name: "rule 3: mismatching code and GUID", items: []map[string]any{{"itemType": "product", "code": prod.Code, "productGuid": other.GUID, "vatRate": "21.00", "itemPriceWithVat": "1.00"}},
			instance: "data.items[2].productGuid"},
		{name: "rule 3: unknown GUID", items: []map[string]any{{"itemType": "product", "code": prod.Code, "productGuid": "00000000-0000-4000-8000-000000000000", "vatRate": "21.00", "itemPriceWithVat": "1.00"}},
			instance: "data.items[2].productGuid"},
		{name: "rule 3: mismatch is not checked with suppressProductChecking", query: "?suppressProductChecking=true",
			items: []map[string]any{{"itemType": "product", "code": prod.Code, "productGuid": other.GUID, "vatRate": "21.00", "itemPriceWithVat": "10.00"}}, total: "178.00/147.10/30.90"},
		{name: "rule 3: a product set with contents", items: []map[string]any{{"itemType": "product-set", "code": set.Code, "vatRate": "21.00", "itemPriceWithVat": "5000.00"}},
			total: "5168.00/4271.07/896.93"},
		{name: "rule 3: a product set without contents", env: empty, items: []map[string]any{{"itemType": "product-set", "code": set.Code, "vatRate": "21.00", "itemPriceWithVat": "5000.00"}},
			instance: "data.items[2].code"},
		{name: "rule 3: an empty product set with suppressProductChecking", env: empty, query: "?suppressProductChecking=true",
			items: []map[string]any{{"itemType": "product-set", "code": set.Code, "vatRate": "21.00", "itemPriceWithVat": "5000.00"}}, total: "5168.00/4271.07/896.93"},
		{name: "rule 3: a plain product is not a product set", items: []map[string]any{{"itemType": "product-set", "code": prod.Code, "vatRate": "21.00", "itemPriceWithVat": "1.00"}},
			instance: "data.items[2].code"},
		{name: "rule 9: coupon over two VAT rates", items: []map[string]any{product(prod, "1", "1210.00"), product(food, "2", "280.00"),
			{"itemType": "discount-coupon", "name": "MINUS300", "vatRate": "0.00", "itemPriceWithVat": "-300.00"},
			{"itemType": "discount-coupon", "name": "MINUS300", "vatRate": "21.00", "itemPriceWithVat": "-300.00"}}, total: "1638.00/1384.60/253.40"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			en := tc.env
			if en == nil {
				en = e
			}
			r := en.call(t, "POST", "/api/orders"+tc.query, map[string]any{"data": f.order(tc.items...)})
			if tc.instance != "" {
				if r.Status != 400 || len(r.Env.Errors) == 0 || r.Env.Errors[0].Instance != tc.instance {
					t.Fatalf("want 400 naming %s, got %d %s", tc.instance, r.Status, r.Body)
				}
				return
			}
			if r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var d struct{ Order map[string]any }
			r.Data(t, &d)
			if got := price(d.Order); got != tc.total {
				t.Errorf("total %s, want %s", got, tc.total)
			}
		})
	}
}

// TestCouponBreakdown checks that rule 9 leaves one coupon item whose
// VAT breakdown splits the discount by rate.
func TestCouponBreakdown(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	prod := f.variant(t, func(v variant) bool { return v.Type == "product" && v.VatRate == "21.00" })
	food := f.variant(t, func(v variant) bool { return v.VatRate == "12.00" })
	o := e.create(t, "/api/orders", f.order(product(prod, "1", "1210.00"), product(food, "2", "280.00"),
		map[string]any{"itemType": "discount-coupon", "name": "MINUS300", "vatRate": "0.00", "itemPriceWithVat": "-300.00"},
		map[string]any{"itemType": "discount-coupon", "name": "MINUS300", "vatRate": "21.00", "itemPriceWithVat": "-300.00"}))
	var coupons []map[string]any
	for _, it := range o["items"].([]any) {
		if m := it.(map[string]any); m["itemType"] == "discount-coupon" {
			coupons = append(coupons, m)
		}
	}
	if len(coupons) != 1 {
		t.Fatalf("%d coupon items, want 1", len(coupons))
	}
	var got []string
	for _, p := range coupons[0]["itemPriceVatBreakdown"].([]any) {
		m := p.(map[string]any)
		got = append(got, m["withVat"].(string)+"@"+m["vatRate"].(string))
	}
	if len(got) != 2 || got[0] != "-205.08@21.00" || got[1] != "-94.92@12.00" {
		t.Errorf("breakdown %v", got)
	}
	if ip := coupons[0]["itemPrice"].(map[string]any); ip["withVat"] != "-300.00" || ip["withoutVat"] != "-254.24" || ip["vatRate"] != "21.00" {
		t.Errorf("coupon price %v", ip)
	}
}

package orders_test

import (
	"reflect"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestCatalogFollowsProductWrites: the variant codes an order finds are
// those the e-shop's products hold at that moment, whatever wrote the
// products in between (the code index is only a hint): a new product's
// code is found at once, a code whose variant moved within its product is
// still found, a deleted code is refused. Ordering a variant that no stock
// held yet adds its supply and its per-stock amount, and leaves the rest
// of the stock and product records as they were.
func TestCatalogFollowsProductWrites(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	old := f.variant(t, func(v variant) bool { return v.Type == "product" })
	e.create(t, "/api/orders", f.order(product(old, "1", "10.00"))) // the index knows the seeded codes now

	r := e.call(t, "POST", "/api/products", map[string]any{"data": map[string]any{"name": "Index test", "variants": []any{
		map[string]any{"code": "IDX-1"}, map[string]any{"code": "IDX-2"}}}})
	if r.Status != 201 {
		t.Fatalf("create product: %d %s", r.Status, r.Body)
	}
	var created struct{ Product struct{ GUID string } }
	r.Data(t, &created)
	guid := created.Product.GUID
	stockBefore := e.record(t, "stocks", "1")
	fresh := variant{Code: "IDX-2", GUID: guid, VatRate: "21.00"}
	o := e.create(t, "/api/orders", f.order(product(fresh, "1", "10.00")))
	if got := o["items"].([]any)[2].(map[string]any)["productGuid"]; got != guid {
		t.Fatalf("the new product's code found product %v, want %s", got, guid)
	}
	stockAfter := e.record(t, "stocks", "1")
	supplies := stockAfter["_supplies"].([]any)
	added := supplies[len(supplies)-1].(map[string]any)
	if added["code"] != "IDX-2" || added["amount"] != "-1.000" || added["claim"] != "0.000" || added["productGuid"] != guid {
		t.Errorf("new supply %v", added)
	}
	stockAfter["_supplies"] = supplies[:len(supplies)-1]
	if !reflect.DeepEqual(stockAfter, stockBefore) {
		t.Errorf("the stock changed beyond the new supply:\n%v\n%v", stockAfter, stockBefore)
	}
	if got := perStock(t, e, guid, "IDX-2", 1); got != "-1.000" {
		t.Errorf("per-stock amount %q, want -1.000", got)
	}

	// IDX-2 moves from the second variant to the first.
	if r := e.call(t, "DELETE", "/api/products/code/IDX-1", nil); r.Status != 200 {
		t.Fatalf("delete variant: %d %s", r.Status, r.Body)
	}
	e.create(t, "/api/orders", f.order(product(fresh, "2", "10.00")))
	if got := e.supply(t, "1", "IDX-2"); got != "-3.000" {
		t.Errorf("supply after the second order %s, want -3.000", got)
	}
	if got := perStock(t, e, guid, "IDX-2", 1); got != "-3.000" {
		t.Errorf("per-stock amount %q, want -3.000", got)
	}
	for _, code := range []string{"IDX-1", "NO-SUCH-CODE"} {
		r := e.call(t, "POST", "/api/orders", map[string]any{"data": f.order(product(variant{Code: code, VatRate: "21.00"}, "1", "10.00"))})
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "data.items[2].code" {
			t.Errorf("order of %s: %d %s", code, r.Status, r.Body)
		}
	}
	if r := e.call(t, "DELETE", "/api/products/"+guid, nil); r.Status != 200 {
		t.Fatalf("delete product: %d %s", r.Status, r.Body)
	}
	if r := e.call(t, "POST", "/api/orders", map[string]any{"data": f.order(product(fresh, "1", "10.00"))}); r.Status != 400 {
		t.Errorf("order of a deleted product's code: %d %s", r.Status, r.Body)
	}
}

// perStock is a variant's amount in one stock as its product records it.
func perStock(t *testing.T, e *env, guid, code string, stockID float64) any {
	t.Helper()
	for _, v := range e.record(t, "products", guid)["variants"].([]any) {
		vm := v.(map[string]any)
		if vm["code"] != code {
			continue
		}
		for _, ps := range vm["perStockAmounts"].([]any) {
			if pm := ps.(map[string]any); pm["stockId"] == stockID {
				return pm["amount"]
			}
		}
	}
	return nil
}

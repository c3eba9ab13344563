package orders_test

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestStockAmountsFollowEveryWrite orders one variant again and again,
// with a change of its supply through the products in between: each
// stock movement must state the amount the stock record now holds and
// the sum over every stock. The orders read the stocks through indexes
// kept across requests (the stock an order moves is indexed from its
// edits), so a stale index would show here as a wrong amount.
func TestStockAmountsFollowEveryWrite(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	e := start(t, sandbox.Config{Limits: &lim})
	v := e.f.variant(t, func(v variant) bool { return v.Type == "product" && e.supply(t, "1", v.Code) != "" })
	sum := func() decimal.Decimal {
		total := decimal.Zero
		for _, sid := range []string{"1", "2"} {
			st := e.record(t, "stocks", sid)
			for _, s := range st["_supplies"].([]any) {
				if m := s.(map[string]any); m["code"] == v.Code {
					total = total.Add(decimal.RequireFromString(m["amount"].(string)))
				}
			}
		}
		return total
	}
	last := func() map[string]any {
		var mv map[string]any
		_ = e.App.Store.View(func(tx *store.Tx) error {
			return tx.Scan(1001, "stock-movements", func(_ string, doc []byte) bool {
				var m map[string]any
				if json.Unmarshal(doc, &m) == nil && m["productCode"] == v.Code {
					mv = m
				}
				return true
			})
		})
		return mv
	}
	// variantStock reads the variant's stock and its amount in stock 1 as
	// the product answers them.
	variantStock := func() (stock, inStock1 string) {
		t.Helper()
		r := e.call(t, "GET", "/api/products/"+v.GUID, nil)
		if r.Status != 200 {
			t.Fatalf("GET product: %d %s", r.Status, r.Body)
		}
		var d struct {
			Variants []struct {
				Code, Stock     string
				PerStockAmounts []struct {
					StockID int `json:"stockId"`
					Amount  string
				}
			}
		}
		r.Data(t, &d)
		for _, pv := range d.Variants {
			if pv.Code == v.Code {
				for _, ps := range pv.PerStockAmounts {
					if ps.StockID == 1 {
						inStock1 = ps.Amount
					}
				}
				return pv.Stock, inStock1
			}
		}
		t.Fatalf("variant %s not in its product", v.Code)
		return "", ""
	}
	order := func(amount string) {
		t.Helper()
		stockBefore, _ := variantStock()
		e.create(t, "/api/orders", e.f.order(product(v, amount, "100.00")))
		stock, in1 := variantStock()
		if in1 != e.supply(t, "1", v.Code) {
			t.Fatalf("the product says %s in stock 1, the stock %s", in1, e.supply(t, "1", v.Code))
		}
		if stockBefore == "" {
			t.Fatalf("variant %s shows no stock", v.Code)
		}
		{
			want := decimal.RequireFromString(stockBefore).Sub(decimal.RequireFromString(amount)).StringFixed(3)
			if stock != want {
				t.Fatalf("variant stock %s after %s pieces from %s, want %s", stock, amount, stockBefore, want)
			}
		}
		mv := last()
		if mv == nil {
			t.Fatal("no stock movement")
		}
		if got, want := mv["actualAmount"], e.supply(t, "1", v.Code); got != want {
			t.Fatalf("movement's actualAmount %v, stock record %s", got, want)
		}
		if got, want := mv["sumAmount"], sum().StringFixed(3); got != want {
			t.Fatalf("movement's sumAmount %v, stocks hold %s", got, want)
		}
	}
	before := decimal.RequireFromString(e.supply(t, "1", v.Code))
	order("1")
	order("2")
	if got, want := e.supply(t, "1", v.Code), before.Sub(decimal.NewFromInt(3)).StringFixed(3); got != want {
		t.Fatalf("after 3 pieces the supply is %s, want %s", got, want)
	}
	// The products change the supply: the next order reads the new amount.
	r := e.call(t, "PATCH", "/api/products/"+v.GUID, map[string]any{"data": map[string]any{"variants": []any{
		map[string]any{"code": v.Code, "stocksLocations": []any{map[string]any{"stockId": 1, "location": "B-07", "amount": "50.000"}}}}}})
	if r.Status != 200 {
		t.Fatalf("PATCH product: %d %s", r.Status, r.Body)
	}
	order("2")
	if got := e.supply(t, "1", v.Code); got != "48.000" {
		t.Fatalf("after a supply of 50 and 2 pieces the supply is %s", got)
	}
	// The order rewrote the product as the PATCH left it.
	r = e.call(t, "GET", "/api/products/"+v.GUID, nil)
	if loc := gjson.GetBytes(r.Body, `data.variants.#(code=="`+v.Code+`").perStockAmounts.#(stockId==1).location`).String(); loc != "B-07" {
		t.Fatalf("the variant's location in stock 1 is %q after the order, want B-07 from the PATCH", loc)
	}
	order("1")
	if got := e.supply(t, "1", v.Code); got != "47.000" {
		t.Fatalf("then 1 piece more: %s", got)
	}
}

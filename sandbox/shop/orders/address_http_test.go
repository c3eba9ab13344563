package orders_test

import (
	"strconv"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestAddressRulesHTTP sends the street in each of its forms to an
// e-shop that stores it split (1001) and one that stores it whole
// (1002), and reads back the stored billing address.
func TestAddressRulesHTTP(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	tests := []struct {
		name       string
		addr       map[string]any
		split      [2]any // street, houseNumber in 1001
		combined   [2]any // in 1002
		missingErr bool
	}{
		{"rule 2: separate fields", map[string]any{"street": "Korunní", "houseNumber": "1208/74"},
			[2]any{"Korunní", "1208/74"}, [2]any{"Korunní 1208/74", nil}, false},
		{"rule 3: combined value", map[string]any{"streetWithNr": "Korunní 1208/74"},
			[2]any{"Korunní", "1208/74"}, [2]any{"Korunní 1208/74", nil}, false},
		{"rule 4: separate fields win", map[string]any{"street": "Vinohradská", "houseNumber": "12", "streetWithNr": "Korunní 1208/74"},
			[2]any{"Vinohradská", "12"}, [2]any{"Vinohradská 12", nil}, false},
		{"rule 1: a mandatory street may come combined", map[string]any{"streetWithNr": "Na Kopci"},
			[2]any{"Na Kopci", nil}, [2]any{"Na Kopci", nil}, false},
		{"no street at all is a missing mandatory field", map[string]any{"houseNumber": "12"}, [2]any{}, [2]any{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := f.order(product(v, "1", "10.00"))
			ba := d["billingAddress"].(map[string]any)
			delete(ba, "street")
			delete(ba, "houseNumber")
			for k, x := range tc.addr {
				ba[k] = x
			}
			r := e.call(t, "POST", "/api/orders", map[string]any{"data": d})
			if tc.missingErr {
				if r.Status != 400 || r.Env.Errors[0].Instance != "data.billingAddress.street" {
					t.Fatalf("want 400 naming data.billingAddress.street, got %d %s", r.Status, r.Body)
				}
				return
			}
			if r.Status != 201 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			var o struct{ Order map[string]any }
			r.Data(t, &o)
			got := o.Order["billingAddress"].(map[string]any)
			if got["street"] != tc.split[0] || got["houseNumber"] != tc.split[1] {
				t.Errorf("split e-shop: %v / %v, want %v", got["street"], got["houseNumber"], tc.split)
			}
			// e-shop 1002 stores the street whole (a cash-desk order needs no methods)
			cd := map[string]any{"cashDeskOrder": true, "billingAddress": map[string]any{"fullName": "X"},
				"items": []any{map[string]any{"itemType": "product", "code": "ANY", "vatRate": "20.00", "itemPriceWithVat": "1.00"}}}
			for k, x := range tc.addr {
				cd["billingAddress"].(map[string]any)[k] = x
			}
			r = e.Do(sandboxtest.Call{Method: "POST", Path: "/api/orders?suppressProductChecking=true", PrivateToken: f.OtherToken, Body: map[string]any{"data": cd}})
			if r.Status != 201 {
				t.Fatalf("1002: %d %s", r.Status, r.Body)
			}
			r.Data(t, &o)
			got = o.Order["billingAddress"].(map[string]any)
			if got["street"] != tc.combined[0] || got["houseNumber"] != tc.combined[1] {
				t.Errorf("combined e-shop: %v / %v, want %v", got["street"], got["houseNumber"], tc.combined)
			}
		})
	}
}

// TestStatusAssignmentHTTP is the spec's status-assignment table over
// HTTP, with statuses taken from the fixtures.
func TestStatusAssignmentHTTP(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	def := f.Statuses.Default
	chg := f.status(t, func(id int, chg, paid bool, role string) bool { return chg && role == "" })
	noChg := f.status(t, func(id int, chg, paid bool, role string) bool { return !chg && !paid && role == "" })
	own := f.status(t, func(id int, c, paid bool, role string) bool { return id != chg && id != noChg && role == "" && !paid })
	tests := []struct {
		name        string
		order       any // nil = omitted
		item        any // the product item's own statusId
		wantOrder   int
		wantGoods   int // the item with or without its own status
		wantService int // the shipping item, never with a status of its own
	}{
		{"order omitted, item with its own status", nil, own, def, own, def},
		{"order omitted, item without status", nil, nil, def, def, def},
		{"changeOrderItems true, item with its own status", chg, own, chg, own, chg},
		{"changeOrderItems true, item without status", chg, nil, chg, chg, chg},
		{"changeOrderItems false, item with its own status", noChg, own, noChg, own, def},
		{"changeOrderItems false, item without status", noChg, nil, noChg, def, def},
		{"status ids as digit strings", itoa(chg), itoa(own), chg, own, chg},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			item := product(v, "1", "10.00")
			if tc.item != nil {
				item["statusId"] = tc.item
			}
			d := f.order(item)
			if tc.order != nil {
				d["statusId"] = tc.order
			}
			o := e.create(t, "/api/orders", d)
			ids := func(m any) int { return int(m.(map[string]any)["status"].(map[string]any)["id"].(float64)) }
			items := o["items"].([]any)
			if got := ids(o); got != tc.wantOrder {
				t.Errorf("order status %d, want %d", got, tc.wantOrder)
			}
			if got := ids(items[2]); got != tc.wantGoods {
				t.Errorf("item status %d, want %d", got, tc.wantGoods)
			}
			if got := ids(items[0]); got != tc.wantService {
				t.Errorf("shipping item status %d, want %d", got, tc.wantService)
			}
		})
	}
	r := e.call(t, "POST", "/api/orders", map[string]any{"data": func() map[string]any { d := f.order(product(v, "1", "1.00")); d["statusId"] = 999; return d }()})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.statusId" {
		t.Errorf("unknown status: %d %s", r.Status, r.Body)
	}
	item := product(v, "1", "1.00")
	item["statusId"] = 999
	r = e.call(t, "POST", "/api/orders", map[string]any{"data": f.order(item)})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.items[2].statusId" {
		t.Errorf("unknown item status: %d %s", r.Status, r.Body)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

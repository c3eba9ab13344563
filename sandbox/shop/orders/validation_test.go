package orders_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestCreateOrderRefusals posts broken orders: each answers 400 (a rule)
// or 422 (the body's shape) with an envelope naming the field.
func TestCreateOrderRefusals(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	tests := []struct {
		name     string
		change   func(d map[string]any)
		status   int
		instance string
	}{
		{"unknown currency", func(d map[string]any) { d["currency"] = map[string]any{"code": "USD"} }, 400, "data.currency.code"},
		{"unknown language", func(d map[string]any) { d["language"] = "de" }, 400, "data.language"},
		{"no payment method", func(d map[string]any) { delete(d, "paymentMethodGuid") }, 400, "data.paymentMethodGuid"},
		{"unknown shipping method", func(d map[string]any) { d["shippingGuid"] = "00000000-0000-4000-8000-000000000000" }, 400, "data.shippingGuid"},
		{"pickup point required", func(d map[string]any) { d["shippingGuid"] = f.Branches["guid"] }, 400, "data.shippingDetails.branchId"},
		{"unknown pickup point", func(d map[string]any) {
			d["shippingGuid"] = f.Branches["guid"]
			d["shippingDetails"] = map[string]any{"branchId": "BR-NOPE"}
		}, 400, "data.shippingDetails.branchId"},
		{"pickup point for a courier", func(d map[string]any) { d["shippingDetails"] = map[string]any{"branchId": "BR-001"} }, 400, "data.shippingDetails.branchId"},
		{"unknown customer", func(d map[string]any) { d["customerGuid"] = "00000000-0000-4000-8000-000000000000" }, 400, "data.customerGuid"},
		{"unknown stock", func(d map[string]any) { d["stockId"] = 99 }, 400, "data.stockId"},
		{"unknown source", func(d map[string]any) { d["sourceId"] = 99 }, 400, "data.sourceId"},
		{"duplicate code", func(d map[string]any) { d["code"] = f.Orders[0]["code"] }, 409, "data.code"},
		{"bad creation time", func(d map[string]any) { d["creationTime"] = "yesterday" }, 400, "data.creationTime"},
		{"missing mandatory e-mail", func(d map[string]any) { delete(d, "email") }, 400, "data.email"},
		{"vatRate missing", func(d map[string]any) { delete(d["items"].([]any)[2].(map[string]any), "vatRate") }, 422, "data.items[2]"},
		{"vatRate with one decimal", func(d map[string]any) { d["items"].([]any)[2].(map[string]any)["vatRate"] = "21.0" }, 422, "data.items[2].vatRate"},
		{"unknown item type", func(d map[string]any) { d["items"].([]any)[2].(map[string]any)["itemType"] = "coupon" }, 422, "data.items[2].itemType"},
		{"priceRatio with two decimals", func(d map[string]any) { d["items"].([]any)[2].(map[string]any)["priceRatio"] = "0.90" }, 422, "data.items[2].priceRatio"},
		{"billing method out of the code list", func(d map[string]any) { d["billingMethodCode"] = 7 }, 422, "data.billingMethodCode"},
		{"e-mail of the wrong type", func(d map[string]any) { d["email"] = 5 }, 422, "data.email"},
		{"not an e-mail address", func(d map[string]any) { d["email"] = "buyer at example.com" }, 422, "data.email"},
		{"price missing", func(d map[string]any) { delete(d["items"].([]any)[2].(map[string]any), "itemPriceWithVat") }, 400, "data.items[2].itemPriceWithVat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := f.order(product(v, "1", "10.00"))
			tc.change(d)
			r := e.call(t, "POST", "/api/orders", map[string]any{"data": d})
			if r.Status != tc.status || len(r.Env.Errors) == 0 || !strings.HasPrefix(r.Env.Errors[0].Instance, tc.instance) || r.Env.Data != nil && string(r.Env.Data) != "null" {
				t.Fatalf("want %d naming %s, got %d %s", tc.status, tc.instance, r.Status, r.Body)
			}
			if !strings.Contains(r.Env.Errors[0].Message, strings.Split(tc.instance, "[")[0]) && tc.status != 409 {
				t.Errorf("message does not name the field: %s", r.Env.Errors[0].Message)
			}
		})
	}
	t.Run("every missing mandatory field is listed", func(t *testing.T) {
		d := f.order(product(v, "1", "10.00"))
		delete(d, "email")
		d["billingAddress"] = map[string]any{"fullName": "A"}
		r := e.call(t, "POST", "/api/orders", map[string]any{"data": d})
		var got []string
		for _, er := range r.Env.Errors {
			got = append(got, er.Instance)
		}
		if r.Status != 400 || strings.Join(got, ",") != "data.billingAddress.city,data.billingAddress.street,data.billingAddress.zip,data.email" {
			t.Fatalf("%d %v", r.Status, got)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		r := e.call(t, "POST", "/api/orders", "{nope")
		if r.Status != 422 || r.Env.Errors[0].ErrorCode != sandbox.CodeInvalidJSON {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("a historical order", func(t *testing.T) {
		d := f.order(product(v, "1", "10.00"))
		d["code"], d["creationTime"], d["paid"] = "H-2019-0001", "2019-05-01T10:00:00+0200", true
		o := e.create(t, "/api/orders?suppressDocumentGeneration=true&suppressEmailSending=true&suppressStockMovements=true", d)
		if o["code"] != "H-2019-0001" || o["creationTime"] != "2019-05-01T10:00:00+0200" || o["paid"] != true {
			t.Errorf("historical order %v %v %v", o["code"], o["creationTime"], o["paid"])
		}
		if evs := e.ev.take(); contains(evs, "order:paid H-2019-0001") {
			t.Error("order:paid for an order created paid")
		}
	})
	t.Run("a cash-desk order", func(t *testing.T) {
		o := e.create(t, "/api/orders", map[string]any{"cashDeskOrder": true, "billingMethodCode": 3,
			"items": []any{product(v, "1", "250.00")}})
		if o["cashDeskOrder"] != true || o["shipping"] != nil || o["billingMethod"].(map[string]any)["id"].(float64) != 3 || price(o) != "250.00/206.61/43.39" {
			t.Errorf("cash-desk order %v %v %v", o["cashDeskOrder"], o["billingMethod"], price(o))
		}
	})
	t.Run("a foreign currency and a pickup point", func(t *testing.T) {
		d := f.order(product(v, "1", "10.00"))
		d["currency"] = map[string]any{"code": "EUR"}
		d["shippingGuid"] = f.Branches["guid"]
		d["shippingDetails"] = map[string]any{"branchId": "BR-002", "branchName": "Brno"}
		o := e.create(t, "/api/orders", d)
		if p := o["price"].(map[string]any); p["currencyCode"] != "EUR" || p["exchangeRate"] != "25.00000000" {
			t.Errorf("price %v", p)
		}
		if sd := o["shippingDetails"].(map[string]any); sd["branchId"] != "BR-002" {
			t.Errorf("shippingDetails %v", sd)
		}
	})
}

package jobs_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// TestOrderBatch: POST /api/orders/batch creates one order per valid line
// with every rule of POST /api/orders, skips the bad line, and emits
// order:massCreate with the new codes plus order:create for each.
func TestOrderBatch(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished", "order:massCreate", "order:create")
	var products, payments, shippings []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	evtest.Read(t, "eshops/1001/payment-methods.json", &payments)
	evtest.Read(t, "eshops/1001/shipping-methods.json", &shippings)
	code := products[0]["variants"].([]any)[0].(map[string]any)["code"].(string)
	var pay, ship string
	for _, p := range payments {
		if p["_online"] == nil && p["_addon"] == nil && pay == "" {
			pay = p["guid"].(string)
		}
	}
	for _, s := range shippings {
		if s["_branches"] == nil && ship == "" {
			ship = s["guid"].(string)
		}
	}
	order := func(email string) map[string]any {
		return map[string]any{"email": email, "paymentMethodGuid": pay, "shippingGuid": ship,
			"billingAddress": map[string]any{"fullName": "Batch Buyer", "street": "Krátká", "houseNumber": "3", "city": "Brno", "zip": "602 00", "countryCode": "CZ"},
			"currency":       map[string]any{"code": "CZK"},
			"items": []any{
				map[string]any{"itemType": "product", "code": code, "amount": "1.000", "vatRate": "21.00", "itemPriceWithVat": "100.00"},
				map[string]any{"itemType": "shipping", "name": "Courier", "vatRate": "21.00", "itemPriceWithVat": "99.00"},
				map[string]any{"itemType": "billing", "name": "Payment", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			}}
	}
	bad := order("broken@example.com")
	bad["items"] = []any{map[string]any{"itemType": "product", "code": "NO-SUCH-CODE", "vatRate": "21.00", "itemPriceWithVat": "1.00"}}
	var lines []string
	for _, row := range []map[string]any{order("first@example.com"), bad, order("second@example.com")} {
		raw, _ := json.Marshal(row)
		lines = append(lines, string(raw))
	}
	url := "data:application/x-ndjson;base64," + base64.StdEncoding.EncodeToString([]byte(strings.Join(lines, "\n")))
	id := submit(t, e, "POST", "/api/orders/batch", map[string]any{"batchFileUrlPath": url})
	e.Advance("5s")
	j := job(t, e, id)
	if j.Status != jobs.Completed || !strings.Contains(deref(j.Log), "3 rows read, 2 records changed, 1 rows skipped") {
		t.Fatalf("order batch job: %+v %s", j, deref(j.Log))
	}
	mass := e.R.WaitFor("order:massCreate", "")
	var codes []string
	if err := json.Unmarshal([]byte(mass.Payload.EventInstance), &codes); err != nil || len(codes) != 2 {
		t.Fatalf("mass instance %q", mass.Payload.EventInstance)
	}
	for i, want := range []string{"first@example.com", "second@example.com"} {
		var d struct{ Order struct{ Email string } }
		e.Call("GET", "/api/orders/"+codes[i], nil).Data(t, &d)
		if d.Order.Email != want {
			t.Fatalf("order %s: email %q, want %q", codes[i], d.Order.Email, want)
		}
		e.R.WaitFor("order:create", codes[i])
	}
}

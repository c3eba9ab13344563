package orders_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestOutboxLanguage: the outbox e-mails are written in the e-shop's
// default language only (Czech for 1001, English for 1002), amounts as
// the e-shop writes its currency, and no address placeholder is left.
func TestOutboxLanguage(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	data := f.order(product(v, "2", "1250.00"))
	data["paymentMethodGuid"] = f.Card["guid"] // an online payment: the e-mail carries the payment link; 2 × 1250 + 129 + 39 = 2668
	cz := e.create(t, "/api/orders", data)
	paidStatus := f.status(t, func(_ int, _, paid bool, _ string) bool { return paid })
	if r := e.call(t, "PATCH", "/api/orders/"+cz["code"].(string)+"/status", map[string]any{"data": map[string]any{"statusId": paidStatus}}); r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}

	var ships, pays []map[string]any
	readFixture(t, "eshops/1002/shipping-methods.json", &ships)
	readFixture(t, "eshops/1002/payment-methods.json", &pays)
	var prods []map[string]any
	readFixture(t, "eshops/1002/products.json", &prods)
	code := prods[0]["variants"].([]any)[0].(map[string]any)["code"]
	r := e.Do(sandboxCall("POST", "/api/orders", f.OtherToken, map[string]any{"data": map[string]any{
		"email": "buyer@example.com", "shippingGuid": ships[0]["guid"], "paymentMethodGuid": pays[0]["guid"],
		"billingAddress": map[string]any{"fullName": "Niamh Buyer", "street": "Shop Street", "houseNumber": "5", "city": "Galway", "zip": "H91 A1B2", "countryCode": "IE"},
		"items": []any{
			map[string]any{"itemType": "shipping", "vatRate": "21.00", "itemPriceWithVat": "7.50"},
			map[string]any{"itemType": "billing", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			map[string]any{"itemType": "product", "code": code, "vatRate": "21.00", "itemPriceWithVat": "1189.00"},
		}}}))
	if r.Status != 201 {
		t.Fatalf("order in 1002: %d %s", r.Status, r.Body)
	}

	var box struct{ Emails []map[string]any }
	e.Do(sandboxtest.Call{Path: "/_sandbox/outbox"}).Data(t, &box)
	byShop := map[float64][]map[string]any{}
	for _, m := range box.Emails {
		byShop[m["eshopId"].(float64)] = append(byShop[m["eshopId"].(float64)], m)
	}
	const nbsp = "\u00a0"
	tests := []struct {
		name    string
		mail    func() map[string]any
		want    []string
		foreign []string // words of the other language
	}{
		{"1001 confirmation", func() map[string]any { return pick(byShop[1001], "order-confirmation") },
			[]string{"Trailvik Outdoor: objednávka " + cz["code"].(string) + " přijata", "Děkujeme za objednávku", "2" + nbsp + "668,00" + nbsp + "Kč",
				"Zaplatit online: " + e.URL + "/eshops/1001/order/" + cz["code"].(string) + "/pay", "S pozdravem"},
			[]string{"Thank you", "order ", "Total", "Pay online", "regards"}},
		{"1001 status", func() map[string]any { return pick(byShop[1001], "order-status") },
			[]string{"je nyní ve stavu", "se změnil na", e.URL + "/eshops/1001/"},
			[]string{"is now", "changed to", "status of"}},
		{"1002 confirmation", func() map[string]any { return pick(byShop[1002], "order-confirmation") },
			[]string{"Lakelark Paddle Supply: order", "Thank you for your order", "€1,196.50", "Kind regards"},
			[]string{"Děkujeme", "objednávk", "Kč"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.mail()
			if m == nil {
				t.Fatalf("no such e-mail in %v", box.Emails)
			}
			text := m["subject"].(string) + "\n" + m["body"].(string)
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("missing %q in\n%s", w, text)
				}
			}
			for _, w := range tc.foreign {
				if strings.Contains(text, w) {
					t.Errorf("%q of the other language in\n%s", w, text)
				}
			}
			if strings.Contains(text, "_url}") {
				t.Errorf("a placeholder is left:\n%s", text)
			}
		})
	}
}

func pick(mails []map[string]any, kind string) map[string]any {
	for _, m := range mails {
		if m["kind"] == kind {
			return m
		}
	}
	return nil
}

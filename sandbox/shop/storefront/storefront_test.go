package storefront

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// shopStore is a store with two bare e-shops: 1 in English, 2 in Czech.
func shopStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	err = st.Update(func(tx *store.Tx) error {
		for _, m := range []*eshop.Meta{
			{ID: 1, Name: "Shop & co", DefaultLanguage: "en", Languages: []string{"en"}, Currencies: []string{"EUR"}, DefaultCurrency: "EUR"},
			{ID: 2, Name: "Obchod", DefaultLanguage: "cs", Languages: []string{"cs"}, Currencies: []string{"CZK"}, DefaultCurrency: "CZK"},
		} {
			if err := eshop.Put(tx, m); err != nil {
				return err
			}
		}
		_, _ = tx.Put(1, eshop.InfoCollection, "info", []byte(`{"currencies":[{"code":"EUR","display":{"location":"before","text":"€","decimalsSeparator":"."}}]}`))
		_, _ = tx.Put(2, eshop.InfoCollection, "info", []byte(`{"currencies":[{"code":"CZK","display":{"location":"after","text":"Kč","decimalsSeparator":",","thousandsSeparator":" "}}]}`))
		_, _ = tx.Put(1, TemplatesCollection, CommonHeader, []byte(`{"html":"<meta name=\"x\" content=\"head\">"}`))
		_, _ = tx.Put(1, TemplatesCollection, CommonFooter, []byte(`{"html":"<script>footer()</script>"}`))
		_, _ = tx.Put(1, TemplatesCollection, OrderConfirmed, []byte(`{"html":"<img src=\"/pixel\">"}`))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// order is an order record whose texts try to break out of the page.
var order = map[string]any{
	"code": "2025000099", "status": map[string]any{"name": "New <b>"}, "email": "a@b.example",
	"price":          map[string]any{"currencyCode": "EUR", "withoutVat": "10.00", "vat": "2.10", "withVat": "12.10", "toPay": "12.10"},
	"billingAddress": map[string]any{"fullName": "<script>alert(1)</script>", "street": "Main", "houseNumber": "1", "city": "Cork", "zip": "T12"},
	"items": []any{
		map[string]any{"itemType": "product", "name": `Tent "<img src=x onerror=alert(2)>"`, "code": "T-1", "amount": "2.000", "amountUnit": "pcs",
			"unitPrice": map[string]any{"withVat": "5.00"}, "itemPrice": map[string]any{"withVat": "10.00"}},
		map[string]any{"itemType": "shipping", "name": "Courier", "amount": "1.000", "unitPrice": map[string]any{"withVat": "2.10"}, "itemPrice": map[string]any{"withVat": "2.10"}},
	},
}

func render1(t *testing.T, st *store.Store, id int, p Page) string {
	t.Helper()
	var out string
	_ = st.View(func(tx *store.Tx) error { out = string(Render(tx, id, p)); return nil })
	return out
}

// TestRenderInsertsTemplates: the three inserts land where the spec puts
// them, only on their e-shop's pages, order-confirmed only on the page
// confirming an order; everything else on the page is escaped.
func TestRenderInsertsTemplates(t *testing.T) {
	st := shopStore(t)
	confirmed := ConfirmedPage(Confirmed{Order: order, EshopURL: "http://h/eshops/1", GatewayURL: "https://gw.example/?a=1&b=2"})
	tests := []struct {
		name string
		page Page
		want []string
		not  []string
	}{
		{"thank-you", ThankYouPage(ThankYou{Order: order, EshopURL: "http://h/eshops/1", PaymentStatus: "failed", RetryURL: "http://h/eshops/1/order/2025000099/pay"}),
			[]string{`<meta name="x" content="head">`, `<script>footer()</script>`, `<title>The payment did not go through – Shop &amp; co</title>`, `id="pay-again"`},
			[]string{"/pixel", "http-equiv"}},
		{"confirmed", confirmed,
			[]string{`<img src="/pixel">`, `<meta http-equiv="refresh" content="5;url=https://gw.example/?a=1&amp;b=2">`, `id="pay-online" class="button" href="https://gw.example/?a=1&amp;b=2"`},
			nil},
		{"preview", Page{kind: "preview", orderConfirmed: true}, []string{`<img src="/pixel">`}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := render1(t, st, 1, tc.page)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("unexpected %q", n)
				}
			}
			head, body, end := strings.Index(out, `content="head"`), strings.Index(out, "<body>"), strings.Index(out, "</body>")
			if head < 0 || head > strings.Index(out, "</head>") || strings.Index(out, "footer()") < strings.Index(out, "</footer>") || strings.Index(out, "footer()") > end || body < 0 {
				t.Errorf("inserts in the wrong place:\n%s", out)
			}
			for _, bad := range []string{"<script>alert", "<img src=x", "New <b>"} {
				if strings.Contains(out, bad) {
					t.Errorf("unescaped %q on the page", bad)
				}
			}
			if strings.Count(out, "<script>") > 2 { // the footer insert, and the countdown of the confirmed page
				t.Errorf("%d scripts on the page", strings.Count(out, "<script>"))
			}
		})
	}
	if other := render1(t, st, 2, confirmed); strings.Contains(other, "footer()") || strings.Contains(other, "/pixel") {
		t.Fatal("another e-shop's template leaked")
	}
}

// TestPagesInShopLanguage: a Czech e-shop's page is Czech throughout,
// with amounts in its currency's way; an English one English.
func TestPagesInShopLanguage(t *testing.T) {
	st := shopStore(t)
	cz := map[string]any{}
	for k, v := range order {
		cz[k] = v
	}
	cz["price"] = map[string]any{"currencyCode": "CZK", "withoutVat": "1000.00", "vat": "210.00", "withVat": "1210.00", "toPay": "1210.00"}
	tests := []struct {
		id      int
		o       map[string]any
		want    []string
		foreign []string
	}{
		{1, order, []string{`<html lang="en">`, "Thank you for your order 2025000099", "Billing address", "Total incl. VAT", "€12.10", "2\u00a0pcs"},
			[]string{"Děkujeme", "Celkem", "Kč"}},
		{2, cz, []string{`<html lang="cs">`, "Děkujeme za objednávku 2025000099", "Fakturační adresa", "Celkem s DPH", "1\u00a0210,00\u00a0Kč"},
			[]string{"Thank you", "Total", "Billing"}},
	}
	for _, tc := range tests {
		out := render1(t, st, tc.id, ConfirmedPage(Confirmed{Order: tc.o, Paid: true}))
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("e-shop %d: missing %q", tc.id, w)
			}
		}
		for _, w := range tc.foreign {
			if strings.Contains(out, w) {
				t.Errorf("e-shop %d: %q of the other language", tc.id, w)
			}
		}
	}
}

// TestThankYouFollowsPayment: the heading and state follow the payment's
// status, not the order's paid flag; the paid flag is said apart.
func TestThankYouFollowsPayment(t *testing.T) {
	st := shopStore(t)
	withTx := map[string]any{}
	for k, v := range order {
		withTx[k] = v
	}
	withTx["paymentTransactions"] = []any{map[string]any{"status": "paid"}, map[string]any{"status": "failed"}}
	tests := []struct {
		name     string
		ty       ThankYou
		status   string
		heading  string
		paidNote string // data-paid of #order-paid, "" when absent
		retry    bool
	}{
		{"paid and marked", ThankYou{Order: order, PaymentStatus: "paid", Paid: true}, "paid", "Thank you for your payment", "true", false},
		{"paid, not marked yet", ThankYou{Order: order, PaymentStatus: "paid", RetryURL: "http://r"}, "paid", "Thank you for your payment", "false", false},
		{"pending", ThankYou{Order: order, PaymentStatus: "pending", RetryURL: "http://r"}, "pending", "Thank you", "", false},
		{"failed", ThankYou{Order: order, PaymentStatus: "failed", RetryURL: "http://r"}, "failed", "The payment did not go through", "", true},
		{"failed, order paid before", ThankYou{Order: order, PaymentStatus: "failed", Paid: true}, "failed", "The payment did not go through", "true", false},
		{"canceled", ThankYou{Order: order, PaymentStatus: "canceled", RetryURL: "http://r"}, "canceled", "The payment was canceled", "", true},
		{"no code: latest transaction", ThankYou{Order: withTx}, "failed", "The payment did not go through", "", false},
		{"no code, no transaction, paid order", ThankYou{Order: order, Paid: true}, "paid", "Thank you for your payment", "true", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := render1(t, st, 1, ThankYouPage(tc.ty))
			if !strings.Contains(out, `id="payment-status" class="state state-`) || !strings.Contains(out, `data-status="`+tc.status+`"`) {
				t.Errorf("status %q missing", tc.status)
			}
			if !strings.Contains(out, "<h1>"+tc.heading+"</h1>") {
				t.Errorf("heading %q missing", tc.heading)
			}
			if got := strings.Contains(out, `id="order-paid"`); got != (tc.paidNote != "") || tc.paidNote != "" && !strings.Contains(out, `data-paid="`+tc.paidNote+`"`) {
				t.Errorf("order-paid: want %q", tc.paidNote)
			}
			if got := strings.Contains(out, `id="pay-again"`); got != tc.retry {
				t.Errorf("pay again shown %v, want %v", got, tc.retry)
			}
		})
	}
}

// TestRenderRefusesUnknownPage: a page that was never built renders an
// error page, never a panic, and an unknown e-shop says so.
func TestRenderRefusesUnknownPage(t *testing.T) {
	st := shopStore(t)
	if out := render1(t, st, 1, Page{}); !strings.Contains(out, `no page of kind &#34;&#34;`) {
		t.Errorf("zero page: %s", out)
	}
	if out := render1(t, st, 77, Redirect("https://x.example/")); !strings.Contains(out, "77 does not exist") {
		t.Errorf("unknown e-shop: %s", out)
	}
}

// TestDeliveryAddress: the delivery address shows only when it differs
// from the billing one.
func TestDeliveryAddress(t *testing.T) {
	st := shopStore(t)
	other := map[string]any{}
	for k, v := range order {
		other[k] = v
	}
	other["deliveryAddress"] = map[string]any{"fullName": "Niamh Other", "street": "Quay", "houseNumber": "9", "city": "Galway", "zip": "H91"}
	same := map[string]any{}
	for k, v := range order {
		same[k] = v
	}
	same["deliveryAddress"], same["addressesEqual"] = order["billingAddress"], true
	for _, tc := range []struct {
		o    map[string]any
		want bool
	}{{other, true}, {same, false}, {order, false}} {
		out := render1(t, st, 1, ConfirmedPage(Confirmed{Order: tc.o}))
		if got := strings.Contains(out, `id="delivery-address"`); got != tc.want || tc.want && !strings.Contains(out, "<div>Niamh Other</div>") {
			t.Errorf("delivery address shown %v, want %v", got, tc.want)
		}
	}
}

func TestQuantity(t *testing.T) {
	for _, tc := range []struct{ amount, unit, sep, want string }{
		{"2.000", "ks", ",", "2\u00a0ks"}, {"1.500", "kg", ",", "1,5\u00a0kg"}, {"0.250", "", ".", "0.25"}, {"x", "ks", ",", "x ks"},
	} {
		if got := quantity(tc.amount, tc.unit, tc.sep); got != tc.want {
			t.Errorf("quantity(%q, %q) = %q, want %q", tc.amount, tc.unit, got, tc.want)
		}
	}
}

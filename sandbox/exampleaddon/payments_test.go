package exampleaddon_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// cardOrder creates, as the e-shop, an order of e-shop 1001 paid online
// through the example add-on's card method, and returns its code.
func cardOrder(t *testing.T, s *sandboxtest.Server) string {
	t.Helper()
	var creds struct {
		PrivateTokens []struct{ Token string }
	}
	var pays, ships []map[string]any
	var prods []struct {
		Type     string
		Variants []struct{ Code, VatRate string }
	}
	for path, v := range map[string]any{"eshops/1001/credentials.json": &creds, "eshops/1001/payment-methods.json": &pays,
		"eshops/1001/shipping-methods.json": &ships, "eshops/1001/products.json": &prods} {
		raw, err := fs.ReadFile(fixtures.FS, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatal(err)
		}
	}
	var card, courier any
	for _, m := range pays {
		if m["_online"] == true && m["_addon"] == "example-addon" {
			card = m["guid"]
		}
	}
	for _, m := range ships {
		if m["_default"] == true {
			courier = m["guid"]
		}
	}
	product, vat := "", ""
	for _, p := range prods {
		if p.Type == "product" {
			product, vat = p.Variants[0].Code, p.Variants[0].VatRate
			break
		}
	}
	if card == nil || courier == nil || product == "" || len(creds.PrivateTokens) == 0 {
		t.Fatal("the fixtures lack a card method of example-addon, a default shipping or a product")
	}
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/orders", PrivateToken: creds.PrivateTokens[0].Token, Body: map[string]any{"data": map[string]any{
		"email": "buyer@example.com", "paymentMethodGuid": card, "shippingGuid": courier, "language": "en",
		"billingAddress": map[string]any{"fullName": "Eva Buyer", "street": "Korunní", "houseNumber": "12", "city": "Praha", "zip": "120 00"},
		"items": []any{map[string]any{"itemType": "product", "code": product, "amount": "1.000", "vatRate": vat, "itemPriceWithVat": "500.00"},
			map[string]any{"itemType": "shipping", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			map[string]any{"itemType": "billing", "vatRate": "21.00", "itemPriceWithVat": "0.00"}},
	}}})
	if r.Status != 201 {
		t.Fatalf("create the order: %d %s", r.Status, r.Body)
	}
	var d struct {
		Order struct{ Code string } `json:"order"`
	}
	r.Data(t, &d)
	return d.Order.Code
}

var payButton = regexp.MustCompile(`id="pay-online" class="button" href="([^"]+)"`)

// TestPaymentGatewayEndToEnd is the payment flow with the example add-on
// as the gateway, over real sockets: the buyer's order-confirmed page
// leads to the gateway the add-on registered; the add-on reads the
// payment, stores the result and sets the order status (both calls of
// step 6) and sends the buyer back to the thank-you page, which shows
// the order paid. The contract report stays clean after its time has
// passed. A second visit with the used code is escalated, not paid again.
func TestPaymentGatewayEndToEnd(t *testing.T) {
	a, s, clock := startWithSandbox(t)
	ctx := context.Background()
	if rep, err := a.RequestInstall(ctx, 1001); err != nil || !rep.Passed {
		t.Fatalf("install: %v %+v", err, rep)
	}
	order := cardOrder(t, s)
	buyer := &http.Client{Timeout: 30 * time.Second} // follows the gateway's redirect, as a browser does
	get := func(u string) (*http.Response, string) {
		t.Helper()
		resp, err := buyer.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp, string(raw)
	}
	_, page := get(s.URL + "/eshops/1001/order/" + order + "/confirmed")
	m := payButton.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the confirmed page has no online payment button:\n%s", page)
	}
	gateway := html.UnescapeString(m[1])
	if !strings.HasPrefix(gateway, a.Config().PublicURL+exampleaddon.GatewayPath+"?code=") || !strings.Contains(gateway, "&eshop=1001") {
		t.Fatalf("the button leads to %s, not to the add-on's gateway at %s", gateway, a.Config().PublicURL)
	}
	resp, thanks := get(gateway) // the gateway settles and redirects (303) to the return address
	if resp.StatusCode != 200 || !strings.Contains(resp.Request.URL.Path, "/eshops/1001/order/"+order+"/thank-you") ||
		!strings.Contains(thanks, `data-status="paid"`) || !strings.Contains(thanks, `data-paid="true"`) {
		t.Fatalf("after the gateway: %d %s\n%s", resp.StatusCode, resp.Request.URL, thanks)
	}

	var detail struct {
		Order struct {
			Paid          bool             `json:"paid"`
			Status        struct{ ID int } `json:"status"`
			BillingMethod struct{ ID int } `json:"billingMethod"`
		} `json:"order"`
	}
	if err := a.API(ctx, 1001, "GET", "/api/orders/"+order, nil, &detail); err != nil {
		t.Fatal(err)
	}
	var statuses struct {
		OrderStatuses struct {
			Statuses []struct {
				ID         int  `json:"id"`
				MarkAsPaid bool `json:"markAsPaid"`
			} `json:"statuses"`
		} `json:"orderStatuses"`
	}
	if err := a.API(ctx, 1001, "GET", "/api/eshop?include=orderStatuses", nil, &statuses); err != nil {
		t.Fatal(err)
	}
	marksPaid := false
	for _, st := range statuses.OrderStatuses.Statuses {
		if st.ID == detail.Order.Status.ID {
			marksPaid = st.MarkAsPaid
		}
	}
	if !detail.Order.Paid || !marksPaid || detail.Order.BillingMethod.ID != 4 {
		t.Errorf("the order after the gateway: %+v (its status marks orders paid: %v)", detail.Order, marksPaid)
	}

	// both calls of step 6 went to the sandbox, the result first
	var traffic struct {
		Events []struct {
			Call *struct {
				Operation string `json:"operation"`
				Status    int    `json:"status"`
				Path      string `json:"path"`
			} `json:"call"`
		} `json:"events"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/traffic?limit=200"}).Data(t, &traffic)
	var seq []string
	for _, ev := range traffic.Events {
		if c := ev.Call; c != nil && (c.Operation == "UpdatePaymentStatus" || c.Operation == "UpdateOrderStatus") && c.Status == 200 {
			seq = append(seq, c.Operation+" "+c.Path)
		}
	}
	if len(seq) != 2 || !strings.HasPrefix(seq[0], "UpdatePaymentStatus") || seq[1] != "UpdateOrderStatus /api/orders/"+order+"/status" {
		t.Errorf("the add-on's step-6 calls: %v", seq)
	}
	st := a.Status()
	if len(st.Payments) != 1 || st.Payments[0].Result != exampleaddon.ResultPaid || st.Payments[0].StatusID == nil || *st.Payments[0].StatusID != detail.Order.Status.ID {
		t.Errorf("the add-on's payments: %+v", st.Payments)
	}

	clock.Advance(sandbox.DefaultPaymentStatusWithin * 2)
	var rep scenario.ReportView
	s.Do(sandboxtest.Call{Path: scenario.ReportPath}).Data(t, &rep)
	if !rep.Clean {
		t.Errorf("the contract report after the example add-on's payment: %+v", rep.Findings)
	}

	// the buyer comes back to the gateway with the used code: the order is
	// paid, so the add-on escalates and changes nothing
	resp, _ = get(gateway)
	if resp.StatusCode != 200 || !strings.Contains(resp.Request.URL.Path, "/thank-you") {
		t.Errorf("second visit: %d %s", resp.StatusCode, resp.Request.URL)
	}
	if st := a.Status(); len(st.Payments) != 2 || st.Payments[1].Escalated == "" || st.Payments[1].Result != "" {
		t.Errorf("second visit: %+v", st.Payments)
	}
}

// TestParseResultStatuses reads --result-status.
func TestParseResultStatuses(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want map[string]int
		bad  bool
	}{
		{"", map[string]int{}, false},
		{"paid=-5", map[string]int{"paid": -5}, false},
		{" paid = -5 , failed=-1,", map[string]int{"paid": -5, "failed": -1}, false},
		{"paid", nil, true},
		{"paid=x", nil, true},
		{"=3", nil, true},
	} {
		got, err := exampleaddon.ParseResultStatuses(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("%q: error %v", tc.in, err)
			continue
		}
		if !tc.bad && len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
			}
		}
	}
}

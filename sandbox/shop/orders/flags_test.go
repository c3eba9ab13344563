package orders_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestCreationFlags runs every creation flag, given in the query and in
// the body, against an order that the flag changes: what the order
// creates (documents, e-mail, stock movement) or what it may lack.
func TestCreationFlags(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" && atLeast(e.supply(t, "1", v.Code), "6") })
	type effect struct{ invoices, notes, mails int }
	tests := []struct {
		flag   string
		change func(d map[string]any) // makes the order need the flag
		status int                    // without the flag
		want   effect                 // with the flag: documents and mails created
		stock  bool                   // with the flag: stock moved
	}{
		{flag: "suppressDocumentGeneration", status: 201, want: effect{0, 0, 1}, stock: true},
		{flag: "suppressEmailSending", status: 201, want: effect{1, 1, 0}, stock: true},
		{flag: "suppressStockMovements", status: 201, want: effect{1, 1, 1}, stock: false},
		{flag: "suppressProductChecking", change: func(d map[string]any) {
			d["items"] = append(d["items"].([]any), map[string]any{"itemType": "product", "code": "NOT-IN-CATALOGUE", "vatRate": "21.00", "itemPriceWithVat": "5.00"})
		}, status: 400, want: effect{1, 1, 1}, stock: true},
		{flag: "suppressHistoricalMandatoryFields", change: func(d map[string]any) { delete(d, "email") }, status: 400, want: effect{1, 1, 0}, stock: true},
		{flag: "suppressHistoricalPaymentChecking", change: func(d map[string]any) { d["paymentMethodGuid"] = nil }, status: 400, want: effect{1, 1, 1}, stock: true},
		{flag: "suppressHistoricalShippingChecking", change: func(d map[string]any) { delete(d, "shippingGuid") }, status: 400, want: effect{1, 1, 1}, stock: true},
	}
	for _, tc := range tests {
		for _, where := range []string{"query", "data", "body"} {
			t.Run(tc.flag+" in "+where, func(t *testing.T) {
				data := f.order(product(v, "1", "100.00"))
				if tc.change != nil {
					tc.change(data)
					r := e.call(t, "POST", "/api/orders", map[string]any{"data": data})
					if r.Status != tc.status {
						t.Fatalf("without the flag: %d %s", r.Status, r.Body)
					}
				}
				e.ev.take()
				invoices, notes, mails, stock := e.count(t, "invoices"), e.count(t, "delivery-notes"), e.count(t, "outbox"), e.supply(t, "1", v.Code)
				path, body := "/api/orders", map[string]any{"data": data}
				switch where {
				case "query":
					path += "?" + tc.flag + "=true"
				case "data":
					data[tc.flag] = true
				case "body":
					body[tc.flag] = true
				}
				r := e.call(t, "POST", path, body)
				if r.Status != 201 {
					t.Fatalf("with the flag: %d %s", r.Status, r.Body)
				}
				got := effect{e.count(t, "invoices") - invoices, e.count(t, "delivery-notes") - notes, e.count(t, "outbox") - mails}
				if got != tc.want {
					t.Errorf("invoices, delivery notes, e-mails created: %v, want %v", got, tc.want)
				}
				moved := e.supply(t, "1", v.Code) != stock
				if moved != tc.stock {
					t.Errorf("stock moved: %v, want %v", moved, tc.stock)
				}
				evs := strings.Join(e.ev.take(), ",")
				if strings.Contains(evs, "stock:movement") != tc.stock || strings.Contains(evs, "invoice:create") != (tc.want.invoices > 0) {
					t.Errorf("events %s", evs)
				}
				if strings.Contains(string(r.Body), tc.flag) {
					t.Error("the flag is stored on the order")
				}
			})
		}
	}
	r := e.call(t, "POST", "/api/orders?suppressStockMovements=maybe", map[string]any{"data": f.order(product(v, "1", "1.00"))})
	if r.Status != 400 || r.Env.Errors[0].Instance != "suppressStockMovements" {
		t.Errorf("bad flag value: %d %s", r.Status, r.Body)
	}
	r = e.call(t, "POST", "/api/orders", map[string]any{"data": map[string]any{"suppressEmailSending": "soon"}})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.suppressEmailSending" {
		t.Errorf("bad body flag value: %d %s", r.Status, r.Body)
	}
}

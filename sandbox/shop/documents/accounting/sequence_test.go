package accounting_test

import (
	"strconv"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// issue is one way a document of a kind comes into being: the call and
// where its answer holds the new code.
type issue struct {
	name, method, path, body, code string
}

// TestOneSequencePerDocumentKind issues documents of each kind by every
// path that creates one, alternating between them, on a fresh sandbox:
// every call answers 201 and the codes continue one number sequence
// (each the previous plus one), whoever issued the previous document. Two
// counters in one code space would hand out a used code (409) or leave a
// gap.
func TestOneSequencePerDocumentKind(t *testing.T) {
	fix := func(file, path string) string { return sandboxtest.Fixture(t, 1001, file, path) }
	orders := gjson.Parse(fix("orders", "#.code")).Array()
	order := func(i int) string { return orders[i].String() }
	proformas := gjson.Parse(fix("proforma-invoices", "#.code")).Array()
	proforma := func(i int) string { return proformas[len(proformas)-1-i].String() }
	invoice := fix("invoices", "2.code")
	invoiceItem := fix("invoices", "2.items.0.itemId")
	proof := fix("proof-payments", "0.code")
	direct := func(n int) issue {
		return issue{"POST /api/proof-payments", "POST", "/api/proof-payments",
			`{"data":{"orderCode":"` + order(n) + `","payment":"10.00","currencyCode":"CZK"}}`, "data.proofPayments.code"}
	}
	kinds := []struct {
		kind  string
		calls []issue
	}{
		{"proof payments", []issue{
			direct(3),
			{"from an order", "POST", "/api/proof-payments/order/" + order(4), "", "data.proofPayments.code"},
			direct(5),
			{"from a proforma invoice", "POST", "/api/proof-payments/proforma-invoice/" + proforma(0), "", "data.proofPayments.code"},
			direct(6),
			{"from an order", "POST", "/api/proof-payments/order/" + order(7), "", "data.proofPayments.code"},
			direct(8),
		}},
		{"invoices", []issue{
			{"from an order", "POST", "/api/orders/" + order(3) + "/invoice", `{"data":{}}`, "data.invoice.code"},
			{"from a proforma invoice", "POST", "/api/proforma-invoices/" + proforma(1) + "/invoice", `{"data":{}}`, "data.invoice.code"},
			{"from an order", "POST", "/api/orders/" + order(4) + "/invoice", `{"data":{}}`, "data.invoice.code"},
		}},
		{"proforma invoices", []issue{
			{"from an order", "POST", "/api/orders/" + order(5) + "/proforma-invoice", `{"data":{}}`, "data.proformaInvoice.code"},
			{"from an order", "POST", "/api/orders/" + order(6) + "/proforma-invoice", `{"data":{}}`, "data.proformaInvoice.code"},
		}},
		{"credit notes", []issue{
			{"from an invoice", "POST", "/api/invoices/" + invoice + "/credit-note", `{"data":{"useItemIds":[` + invoiceItem + `]}}`, "data.creditNote.code"},
			{"from a proof of payment", "POST", "/api/proof-payments/" + proof + "/credit-note", `{"data":{}}`, "data.creditNote.code"},
			{"from an invoice", "POST", "/api/invoices/" + invoice + "/credit-note", `{"data":{"useItemIds":[` + invoiceItem + `]}}`, "data.creditNote.code"},
		}},
		{"delivery notes", []issue{
			{"from an order", "POST", "/api/orders/" + order(7) + "/delivery-notes", `{"data":{}}`, "data.deliveryNote.code"},
			{"from an order", "POST", "/api/orders/" + order(8) + "/delivery-notes", `{"data":{}}`, "data.deliveryNote.code"},
		}},
	}
	for _, k := range kinds {
		t.Run(k.kind, func(t *testing.T) {
			s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
			tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
			var prev int64
			for i, c := range k.calls {
				st, got := s.JSON(c.method, c.path, tok, c.body)
				if st != 201 {
					t.Fatalf("call %d (%s, after code %d): %d %s", i+1, c.name, prev, st, got.Raw)
				}
				code, err := strconv.ParseInt(got.Get(c.code).String(), 10, 64)
				if err != nil {
					t.Fatalf("call %d (%s): code %q is not a number", i+1, c.name, got.Get(c.code).String())
				}
				if prev != 0 && code != prev+1 {
					t.Fatalf("call %d (%s): code %d after %d; one sequence continues by one", i+1, c.name, code, prev)
				}
				prev = code
			}
		})
	}
}

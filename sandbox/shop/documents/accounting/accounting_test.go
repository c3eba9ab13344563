package accounting_test

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestDocumentRules walks the accounting actions' rules: a partial
// credit note re-prices the item and totals, a restock happens once,
// linked codes must exist, a proforma gets one invoice unless the check
// is suppressed.
func TestDocumentRules(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	do := func(method, path, body string) (int, gjson.Result) { return s.JSON(method, path, tok, body) }
	inv := sandboxtest.Fixture(t, 1001, "invoices", "2.code")
	item := gjson.Parse(sandboxtest.Fixture(t, 1001, "invoices", "2.items.0"))
	unitWith := item.Get("unitPrice.withVat").Float()
	st, got := do("POST", "/api/invoices/"+inv+"/credit-note", `{"data":{"items":[{"invoiceItemId":`+item.Get("itemId").Raw+`,"amount":"2.000"}]}}`)
	if st != 201 {
		t.Fatalf("credit note: %d %s", st, got.Raw)
	}
	cn := got.Get("data.creditNote")
	if cn.Get("items.#").Int() != 1 || cn.Get("items.0.amount").String() != "2.000" {
		t.Fatalf("items %s", cn.Get("items").Raw)
	}
	if w := cn.Get("items.0.itemPrice.withVat").Float(); w != 2*unitWith*item.Get("priceRatio").Float() || cn.Get("price.withVat").Float() != w {
		t.Fatalf("prices: item %v, total %s, unit %v", w, cn.Get("price.withVat"), unitWith)
	}
	code := cn.Get("code").String()
	if st, got := do("POST", "/api/credit-notes/"+code+"/restock", ""); st != 200 || got.Get("data.notes.#").Int() == 0 {
		t.Fatalf("restock: %d %s", st, got.Raw)
	}
	if st, _ := do("POST", "/api/credit-notes/"+code+"/restock", ""); st != 409 {
		t.Fatalf("second restock: %d", st)
	}
	if st, got := do("POST", "/api/invoices/"+inv+"/credit-note", `{"data":{"useItemIds":[999999]}}`); st != 400 || got.Get("errors.0.instance").String() != "data.useItemIds[0]" {
		t.Fatalf("unknown item: %d %s", st, got.Raw)
	}
	if st, got := do("PATCH", "/api/invoices/"+inv+"/link-proforma-invoice", `{"data":{"proformaInvoiceCodes":["NOPE"]}}`); st != 404 || got.Get("errors.0.instance").String() != "data.proformaInvoiceCodes[0]" {
		t.Fatalf("unknown proforma: %d %s", st, got.Raw)
	}
	pro := sandboxtest.Fixture(t, 1001, "proforma-invoices", "#.code|@reverse|0")
	if st, _ := do("POST", "/api/proforma-invoices/"+pro+"/invoice", `{"data":{}}`); st != 201 {
		t.Fatalf("invoice from proforma: %d", st)
	}
	if st, _ := do("POST", "/api/proforma-invoices/"+pro+"/invoice", `{"data":{}}`); st != 409 {
		t.Fatalf("second invoice: %d", st)
	}
	if st, _ := do("POST", "/api/proforma-invoices/"+pro+"/invoice?suppressExistenceCheck=true", `{"data":{}}`); st != 201 {
		t.Fatalf("suppressed check: %d", st)
	}
	if st, got := do("POST", "/api/proforma-invoices/"+pro+"/invoice", `{"data":{"billingMethodId":9}}`); st != 422 || got.Get("errors.0.instance").String() != "data.billingMethodId" {
		t.Fatalf("bad billing method: %d %s", st, got.Raw)
	}
}

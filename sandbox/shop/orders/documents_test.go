package orders_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestDocumentsMatchTheReference issues every document kind the order
// flow makes and validates each stored record against the reference's
// detail shape (what the document read endpoints serve).
func TestDocumentsMatchTheReference(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	paid := f.status(t, func(id int, chg, paid bool, role string) bool { return paid })
	o := e.create(t, "/api/orders", f.order(product(v, "1", "10.00"),
		map[string]any{"itemType": "discount-coupon", "name": "C", "vatRate": "21.00", "itemPriceWithVat": "-1.00"}))
	code := o["code"].(string)
	e.call(t, "PATCH", "/api/orders/"+code+"/status", map[string]any{"data": map[string]any{"statusId": paid}})
	e.Do(sandboxCall("POST", "/api/orders/"+code+"/proforma-invoice?suppressExistenceCheck=true", f.Token, map[string]any{"data": map[string]any{}}))
	stored := e.record(t, "orders", code)
	for _, k := range []struct{ coll, field, def string }{
		{"invoices", "_invoiceCode", "Invoice"},
		{"delivery-notes", "_deliveryNoteCode", "DeliveryNote"},
		{"proforma-invoices", "_proformaInvoiceCode", "ProformaInvoice"},
		{"proof-payments", "_proofPaymentCode", "ProofPaymentDetail"},
	} {
		t.Run(k.def, func(t *testing.T) {
			c, _ := stored[k.field].(string)
			if c == "" {
				t.Fatalf("the order has no %s", k.coll)
			}
			rec := e.record(t, k.coll, c)
			if rec["code"] != c || rec["orderCode"] != code {
				t.Errorf("codes %v %v", rec["code"], rec["orderCode"])
			}
			raw, _ := json.Marshal(rec)
			doc, err := api.DecodeObject(raw)
			if err != nil {
				t.Fatal(err)
			}
			api.StripMeta(doc)
			raw, _ = json.Marshal(doc)
			val, _ := schemas.Decode(bytes.NewReader(raw))
			sch, err := e.App.Schemas.Def(k.def)
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(val); err != nil {
				t.Errorf("%s %s does not match the reference: %v", k.coll, c, err)
			}
		})
	}
}

// Package accounting serves the document endpoints whose behaviour the
// registry table cannot state: credit notes issued from an invoice or a
// proof of payment, an invoice issued from a proforma invoice, proof
// payments issued for an order or a proforma invoice, linking documents
// to an invoice, restocking a credit note. Documents go into the same
// collections the order flow writes (sandbox/shop/orders), numbered by its
// sequences, and every write logs its change and emits its event.
package accounting

import (
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// Handlers returns the accounting actions keyed by operation.
func Handlers(e *crud.Engine, site *eshop.Site) map[string]api.HandlerFunc {
	h := &handlers{e: e, site: site}
	return map[string]api.HandlerFunc{
		"CreateCreditNoteFromInvoice":             h.creditNoteFromInvoice,
		"CreateCreditNoteFromProofOfPayment":      h.creditNoteFromProof,
		"RestockCreditNote":                       h.restock,
		"InvoiceLinkProformaInvoices":             h.linkProformas,
		"InvoiceLinkProofPayments":                h.linkProofs,
		"CreateInvoiceFromProformaInvoice":        h.invoiceFromProforma,
		"CreateProofPaymentByOrderCode":           h.proofForOrder,
		"CreateProofPaymentByProformaInvoiceCode": h.proofForProforma,
		"ProofPaymentDocumentSettings":            h.proofSettings,
	}
}

type handlers struct {
	e    *crud.Engine
	site *eshop.Site
}

// billingMethods names the invoice billing method ids (spec, code lists).
var billingMethods = map[int64]string{1: "Cash on delivery", 2: "Wire transfer", 3: "Cash", 4: "Card"}

// options reads the document fields common to the "create from" bodies.
func options(data map[string]any) (map[string]any, error) {
	out := map[string]any{}
	for _, k := range []string{"constSymbol", "dueDate", "taxDate", "varSymbol", "specSymbol", "reasonRemark", "orderCode"} {
		if v, ok := data[k]; ok {
			out[k] = v
		}
	}
	if v, ok := data["billingMethodId"]; ok && v != nil {
		id, err := strconv.ParseInt(str(v), 10, 64)
		name, known := billingMethods[id]
		if err != nil || !known {
			return nil, sandbox.Invalid("data.billingMethodId", "Field data.billingMethodId must be 1 (cash on delivery), 2 (wire transfer), 3 (cash) or 4 (card).")
		}
		out["billingMethod"] = map[string]any{"id": id, "name": name}
	}
	return out, nil
}

// nextCode numbers a new document with the order flow's sequence, or
// takes the code the request gives (409 when used).
func nextCode(c *crud.Ctx, shop *orders.Shop, coll, given string) (string, error) {
	if given == "" {
		return shop.NextCode(coll)
	}
	if c.Tx.Exists(c.R.Eshop, coll, given) {
		return "", sandbox.Conflict("code", "A document with code %q already exists in %s.", given, coll)
	}
	return given, nil
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b := crud.IDString(v)
	return b
}

// created answers a new document with 201.
func created(c *crud.Ctx, key string, rec map[string]any) (any, error) {
	shown, err := c.Render(rec)
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: c.Answer(map[string]any{key: shown})}, nil
}

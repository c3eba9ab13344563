package documents

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// Media types of the downloads.
const (
	PDFType   = "application/pdf"
	ISDOCType = "application/xml; charset=utf-8"
)

// Hooks complete the registry's document rows for the generic handlers
// (crud.Deps.Hooks): the document each row's downloads draw, the one
// code sequence of each numbered row (NextCode), and a credit note's
// items, whose prices make its totals.
func Hooks() []crud.Hook {
	return []crud.Hook{
		{Resource: "credit-notes/items", Prepare: prepareItem},
		// A credit note's totals follow its items.
		{Resource: "credit-notes", Parent: totals, Download: download(CreditNote), Number: number},
		{Resource: "invoices", Download: download(Invoice), Number: number},
		{Resource: "proforma-invoices", Download: download(ProformaInvoice), Number: number},
		{Resource: "delivery-notes", Download: download(DeliveryNote), Number: number},
		{Resource: "proof-payments", Download: download(ProofPayment), Number: number},
	}
}

// number gives a new document of a numbered row the next code of the
// row's sequence.
func number(c *crud.Ctx, k *crud.Coll) (string, error) {
	return NextCode(c.Tx, c.R.Eshop, k.Row.Name, c.Tx.Now().Year())
}

// download draws a record of the kind as a PDF or an ISDOC file.
func download(kind Kind) crud.Download {
	return func(c *crud.Ctx, shown map[string]any, format string) (*api.Raw, error) {
		info, err := c.EshopInfo()
		if err != nil {
			return nil, err
		}
		doc := FromRecord(kind, shown, info)
		if format == "pdf" {
			return &api.Raw{ContentType: PDFType, Body: PDF(doc)}, nil
		}
		body, err := ISDOC(doc)
		if err != nil {
			return nil, sandbox.Invalid(doc.Code, "%s", err.Error())
		}
		return &api.Raw{ContentType: ISDOCType, Body: body}, nil
	}
}

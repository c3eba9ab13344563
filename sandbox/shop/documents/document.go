// Package documents renders the sandbox's accounting documents (invoices,
// proforma invoices, credit notes, delivery notes, proof payments, orders)
// as the files the reference's download endpoints return: a real,
// minimal PDF that a browser opens, and an ISDOC 6 XML document. Both are
// built from the same Doc, which is read from a stored record in the
// reference's detail shape, so the files always agree with the JSON. It
// also numbers them: one code sequence per kind (NextCode), whoever
// issues the document. Hooks hands both, and the pricing of a credit
// note's items, to the generic handlers (sandbox/core/crud).
package documents

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// Kind says what a document is; it picks the title and the ISDOC
// document type.
type Kind string

// The document kinds the reference can download.
const (
	Invoice         Kind = "invoice"
	ProformaInvoice Kind = "proforma-invoice"
	CreditNote      Kind = "credit-note"
	DeliveryNote    Kind = "delivery-note"
	ProofPayment    Kind = "proof-payment"
	Order           Kind = "order"
)

// Title is the heading printed on a document of the kind.
func (k Kind) Title() string {
	switch k {
	case Invoice:
		return "Invoice - tax document"
	case ProformaInvoice:
		return "Proforma invoice"
	case CreditNote:
		return "Credit note"
	case DeliveryNote:
		return "Delivery note"
	case ProofPayment:
		return "Proof of payment - tax document"
	case Order:
		return "Order"
	}
	return string(k)
}

// isdocType is the ISDOC DocumentType code: 1 invoice, 2 credit note,
// 4 advance (proforma) invoice, 5 tax document on a received payment.
func (k Kind) isdocType() (int, bool) {
	switch k {
	case Invoice:
		return 1, true
	case CreditNote:
		return 2, true
	case ProformaInvoice:
		return 4, true
	case ProofPayment:
		return 5, true
	}
	return 0, false
}

// Party is the seller or the buyer.
type Party struct {
	Name, Street, City, Zip, Country string
	CompanyID, VatID                 string
	Email                            string
}

// Line is one item.
type Line struct {
	Code, Name      string
	Amount, Unit    string
	UnitWithoutVat  decimal.Decimal
	UnitWithVat     decimal.Decimal
	TotalWithoutVat decimal.Decimal
	TotalWithVat    decimal.Decimal
	VatRate         decimal.Decimal
	HasPrice        bool
}

// Doc is everything the files show.
type Doc struct {
	Kind      Kind
	Code      string
	UUID      string
	Issued    string // YYYY-MM-DD
	TaxDate   string
	DueDate   string
	VarSymbol string
	OrderCode string
	Related   string // the original document of a credit note
	Currency  string
	Seller    Party
	Buyer     Party
	Lines     []Line
	Remark    string
}

// Totals sums the lines: without VAT, VAT and with VAT.
func (d *Doc) Totals() (without, vat, with decimal.Decimal) {
	for _, l := range d.Lines {
		without = without.Add(l.TotalWithoutVat)
		with = with.Add(l.TotalWithVat)
	}
	return without, with.Sub(without), with
}

// VatBreakdown sums the lines by VAT rate, in rate order of first use.
func (d *Doc) VatBreakdown() []VatRow {
	var out []VatRow
	idx := map[string]int{}
	for _, l := range d.Lines {
		key := l.VatRate.StringFixed(2)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, VatRow{Rate: l.VatRate})
		}
		out[i].Base = out[i].Base.Add(l.TotalWithoutVat)
		out[i].Total = out[i].Total.Add(l.TotalWithVat)
	}
	return out
}

// VatRow is one VAT rate's sums.
type VatRow struct {
	Rate, Base, Total decimal.Decimal
}

// Vat is the tax of a row.
func (v VatRow) Vat() decimal.Decimal { return v.Total.Sub(v.Base) }

// FromRecord reads a Doc from a record in the reference's detail shape
// (invoice, credit note, order, ...) and the e-shop's information (data
// of GET /api/eshop, for the seller).
func FromRecord(kind Kind, rec, eshopInfo map[string]any) Doc {
	d := Doc{Kind: kind, Code: str(rec["code"]), OrderCode: str(rec["orderCode"]), Remark: str(rec["documentRemark"])}
	d.UUID = docUUID(kind, d.Code)
	d.Issued = date(first(rec, "creationTime", "issueDate", "createdAt"))
	d.TaxDate = date(first(rec, "taxDate"))
	if d.TaxDate == "" {
		d.TaxDate = d.Issued
	}
	d.DueDate = date(first(rec, "dueDate"))
	d.VarSymbol = str(rec["varSymbol"])
	d.Related = str(first(rec, "invoiceCode", "proformaInvoiceCode"))
	if price, ok := rec["price"].(map[string]any); ok {
		d.Currency = str(price["currencyCode"])
	}
	if d.Currency == "" {
		d.Currency = str(first(rec, "currencyCode"))
	}
	d.Seller = seller(eshopInfo)
	d.Buyer = buyer(rec)
	items, _ := rec["items"].([]any)
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		d.Lines = append(d.Lines, line(m))
	}
	if len(d.Lines) == 0 {
		if l, ok := paymentLine(rec); ok {
			d.Lines = append(d.Lines, l)
		}
	}
	return d
}

func line(m map[string]any) Line {
	l := Line{Code: str(m["code"]), Name: str(m["name"]), Amount: str(m["amount"]), Unit: str(m["amountUnit"])}
	if v := str(m["variantName"]); v != "" {
		l.Name += " " + v
	}
	if l.Amount == "" {
		l.Amount = "1.000"
	}
	if l.Unit == "" {
		l.Unit = "pcs"
	}
	amount := dec(l.Amount)
	if ip, ok := m["itemPrice"].(map[string]any); ok {
		l.HasPrice = true
		l.VatRate = dec(str(ip["vatRate"]))
		l.TotalWithVat = dec(str(ip["withVat"]))
		l.TotalWithoutVat = dec(str(ip["withoutVat"]))
	}
	if up, ok := m["unitPrice"].(map[string]any); ok {
		l.UnitWithVat = dec(str(up["withVat"]))
		l.UnitWithoutVat = dec(str(up["withoutVat"]))
	} else if !amount.IsZero() {
		l.UnitWithVat = l.TotalWithVat.Div(amount).Round(2)
		l.UnitWithoutVat = l.TotalWithoutVat.Div(amount).Round(2)
	}
	return l
}

// paymentLine is the single line of a proof payment: the paid amount,
// taken from its VAT breakdown when present.
func paymentLine(rec map[string]any) (Line, bool) {
	vb, _ := rec["vatBreakdown"].(map[string]any)
	rows, _ := vb["items"].([]any)
	var with, without decimal.Decimal
	rate := decimal.Zero
	for _, r := range rows {
		m, _ := r.(map[string]any)
		with = with.Add(dec(str(m["priceWithVat"])))
		without = without.Add(dec(str(m["priceWithoutVat"])))
		rate = dec(str(m["vatRate"]))
	}
	if len(rows) == 0 {
		p := str(rec["payment"])
		if p == "" {
			return Line{}, false
		}
		with, without = dec(p), dec(p)
	}
	return Line{Name: "Received payment", Amount: "1.000", Unit: "pcs", HasPrice: true, VatRate: rate,
		TotalWithVat: with, TotalWithoutVat: without, UnitWithVat: with, UnitWithoutVat: without}, true
}

func seller(info map[string]any) Party {
	bi, _ := info["billingInformation"].(map[string]any)
	addr, _ := bi["address"].(map[string]any)
	comp, _ := bi["company"].(map[string]any)
	country, _ := bi["country"].(map[string]any)
	p := Party{Name: str(bi["billingName"]), Street: str(addr["streetAddress"]), City: str(addr["city"]), Zip: str(addr["zip"]),
		Country: str(country["countryCode"]), CompanyID: str(comp["companyId"]), VatID: str(comp["vatId"]), Email: str(bi["email"])}
	if p.Name == "" {
		ci, _ := info["contactInformation"].(map[string]any)
		p.Name = str(ci["eshopName"])
	}
	return p
}

func buyer(rec map[string]any) Party {
	ba, _ := rec["billingAddress"].(map[string]any)
	if ba == nil {
		// Proof payments keep the billing address flat (billFullName, ...).
		ba = map[string]any{"fullName": rec["billFullName"], "company": rec["billCompany"], "street": rec["billStreet"],
			"houseNumber": rec["billHouseNumber"], "city": rec["billCity"], "zip": rec["billZip"], "countryCode": rec["billCountryCode"],
			"companyId": rec["companyId"], "vatId": rec["vatId"]}
	}
	name := str(ba["company"])
	if name == "" {
		name = str(ba["fullName"])
	}
	street := strings.TrimSpace(str(ba["street"]) + " " + str(ba["houseNumber"]))
	p := Party{Name: name, Street: street, City: str(ba["city"]), Zip: str(ba["zip"]), Country: str(ba["countryCode"]),
		CompanyID: str(ba["companyId"]), VatID: str(ba["vatId"])}
	if c, ok := rec["customer"].(map[string]any); ok {
		p.Email = str(c["email"])
	} else {
		p.Email = str(rec["email"])
	}
	return p
}

// docUUID is a stable, ISDOC-style (upper-case) UUID of a document,
// derived from its kind and code so the same document always gets it.
func docUUID(kind Kind, code string) string {
	h := sha1.Sum([]byte("sandbox-document/" + string(kind) + "/" + code))
	h[6] = (h[6] & 0x0f) | 0x50
	h[8] = (h[8] & 0x3f) | 0x80
	x := strings.ToUpper(hex.EncodeToString(h[:16]))
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

func first(rec map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := rec[k]; ok && v != nil && str(v) != "" {
			return v
		}
	}
	return nil
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

func date(v any) string {
	s := str(v)
	if len(s) >= 10 {
		return s[:10]
	}
	return s
}

func dec(s string) decimal.Decimal {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero
	}
	return d
}

package documents

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/shopspring/decimal"
)

// ISDOCNamespace and ISDOCVersion identify the ISDOC format written.
const (
	ISDOCNamespace = "http://isdoc.cz/namespace/2013"
	ISDOCVersion   = "6.0.1"
)

// The ISDOC document, in the element order the format's schema demands.
type isdocInvoice struct {
	XMLName                  xml.Name        `xml:"Invoice"`
	Xmlns                    string          `xml:"xmlns,attr"`
	Version                  string          `xml:"version,attr"`
	DocumentType             int             `xml:"DocumentType"`
	ID                       string          `xml:"ID"`
	UUID                     string          `xml:"UUID"`
	IssuingSystem            string          `xml:"IssuingSystem"`
	IssueDate                string          `xml:"IssueDate"`
	TaxPointDate             string          `xml:"TaxPointDate,omitempty"`
	VATApplicable            bool            `xml:"VATApplicable"`
	ElectronicPossibilityRef string          `xml:"ElectronicPossibilityAgreementReference"`
	Note                     string          `xml:"Note,omitempty"`
	LocalCurrencyCode        string          `xml:"LocalCurrencyCode"`
	CurrRate                 string          `xml:"CurrRate"`
	RefCurrRate              string          `xml:"RefCurrRate"`
	Supplier                 isdocPartyWrap  `xml:"AccountingSupplierParty"`
	Customer                 isdocPartyWrap  `xml:"AccountingCustomerParty"`
	OrderReferences          *isdocOrderRefs `xml:"OrderReferences,omitempty"`
	OriginalDocuments        *isdocOrigRefs  `xml:"OriginalDocumentReferences,omitempty"`
	Lines                    []isdocLine     `xml:"InvoiceLines>InvoiceLine"`
	TaxTotal                 isdocTaxTotal   `xml:"TaxTotal"`
	Total                    isdocTotal      `xml:"LegalMonetaryTotal"`
}

type isdocPartyWrap struct {
	Party isdocParty `xml:"Party"`
}

type isdocParty struct {
	ID       string       `xml:"PartyIdentification>ID"`
	Name     string       `xml:"PartyName>Name"`
	Address  isdocAddress `xml:"PostalAddress"`
	TaxID    string       `xml:"PartyTaxScheme>CompanyID,omitempty"`
	TaxSchem string       `xml:"PartyTaxScheme>TaxScheme,omitempty"`
	Email    string       `xml:"Contact>ElectronicMail,omitempty"`
}

type isdocAddress struct {
	Street   string `xml:"StreetName"`
	Building string `xml:"BuildingNumber"`
	City     string `xml:"CityName"`
	Zip      string `xml:"PostalZone"`
	Country  string `xml:"Country>IdentificationCode"`
	CName    string `xml:"Country>Name"`
}

type isdocOrderRefs struct {
	Ref []isdocOrderRef `xml:"OrderReference"`
}

type isdocOrderRef struct {
	ID        string `xml:"id,attr"`
	SalesID   string `xml:"SalesOrderID"`
	IssueDate string `xml:"IssueDate,omitempty"`
}

type isdocOrigRefs struct {
	Ref []isdocOrigRef `xml:"OriginalDocumentReference"`
}

type isdocOrigRef struct {
	ID     string `xml:"id,attr"`
	DocID  string `xml:"ID"`
	IssueD string `xml:"IssueDate,omitempty"`
}

type isdocLine struct {
	ID               string        `xml:"ID"`
	OrderRef         *isdocLineRef `xml:"OrderReference,omitempty"`
	Quantity         isdocQuantity `xml:"InvoicedQuantity"`
	LineExtension    string        `xml:"LineExtensionAmount"`
	LineExtensionInc string        `xml:"LineExtensionAmountTaxInclusive"`
	LineExtensionTax string        `xml:"LineExtensionTaxAmount"`
	UnitPrice        string        `xml:"UnitPrice"`
	UnitPriceInc     string        `xml:"UnitPriceTaxInclusive"`
	Percent          string        `xml:"ClassifiedTaxCategory>Percent"`
	VATCalculation   int           `xml:"ClassifiedTaxCategory>VATCalculationMethod"`
	Description      string        `xml:"Item>Description"`
	SellersItemID    string        `xml:"Item>SellersItemIdentification>ID,omitempty"`
}

type isdocLineRef struct {
	Ref string `xml:"ref,attr"`
}

type isdocQuantity struct {
	Unit  string `xml:"unitCode,attr"`
	Value string `xml:",chardata"`
}

type isdocTaxTotal struct {
	Sub       []isdocTaxSub `xml:"TaxSubTotal"`
	TaxAmount string        `xml:"TaxAmount"`
}

type isdocTaxSub struct {
	Taxable          string `xml:"TaxableAmount"`
	Tax              string `xml:"TaxAmount"`
	Inclusive        string `xml:"TaxInclusiveAmount"`
	ClaimedTaxable   string `xml:"AlreadyClaimedTaxableAmount"`
	ClaimedTax       string `xml:"AlreadyClaimedTaxAmount"`
	ClaimedInclusive string `xml:"AlreadyClaimedTaxInclusiveAmount"`
	DiffTaxable      string `xml:"DifferenceTaxableAmount"`
	DiffTax          string `xml:"DifferenceTaxAmount"`
	DiffInclusive    string `xml:"DifferenceTaxInclusiveAmount"`
	Percent          string `xml:"TaxCategory>Percent"`
}

type isdocTotal struct {
	TaxExclusive     string `xml:"TaxExclusiveAmount"`
	TaxInclusive     string `xml:"TaxInclusiveAmount"`
	ClaimedExclusive string `xml:"AlreadyClaimedTaxExclusiveAmount"`
	ClaimedInclusive string `xml:"AlreadyClaimedTaxInclusiveAmount"`
	DiffExclusive    string `xml:"DifferenceTaxExclusiveAmount"`
	DiffInclusive    string `xml:"DifferenceTaxInclusiveAmount"`
	PayableRounding  string `xml:"PayableRoundingAmount"`
	PaidDeposits     string `xml:"PaidDepositsAmount"`
	Payable          string `xml:"PayableAmount"`
}

// ISDOC renders the document as ISDOC 6 XML (UTF-8). Only invoices,
// proforma invoices, credit notes and proof payments have an ISDOC form.
func ISDOC(d Doc) ([]byte, error) {
	typ, ok := d.Kind.isdocType()
	if !ok {
		return nil, fmt.Errorf("a %s has no ISDOC form", d.Kind)
	}
	cur := d.Currency
	if cur == "" {
		cur = "CZK"
	}
	doc := isdocInvoice{
		Xmlns: ISDOCNamespace, Version: ISDOCVersion, DocumentType: typ, ID: d.Code, UUID: d.UUID,
		IssuingSystem: "sandbox", IssueDate: d.Issued, TaxPointDate: d.TaxDate, VATApplicable: d.Seller.VatID != "",
		Note: d.Remark, LocalCurrencyCode: cur, CurrRate: "1", RefCurrRate: "1",
		Supplier: isdocPartyWrap{party(d.Seller)}, Customer: isdocPartyWrap{party(d.Buyer)},
	}
	if d.OrderCode != "" {
		doc.OrderReferences = &isdocOrderRefs{Ref: []isdocOrderRef{{ID: "order-1", SalesID: d.OrderCode}}}
	}
	if d.Related != "" && d.Kind == CreditNote {
		doc.OriginalDocuments = &isdocOrigRefs{Ref: []isdocOrigRef{{ID: "original-1", DocID: d.Related}}}
	}
	for i, l := range d.Lines {
		line := isdocLine{
			ID:               fmt.Sprint(i + 1),
			Quantity:         isdocQuantity{Unit: l.Unit, Value: amount(l.Amount)},
			LineExtension:    l.TotalWithoutVat.StringFixed(2),
			LineExtensionInc: l.TotalWithVat.StringFixed(2),
			LineExtensionTax: l.TotalWithVat.Sub(l.TotalWithoutVat).StringFixed(2),
			UnitPrice:        l.UnitWithoutVat.StringFixed(2),
			UnitPriceInc:     l.UnitWithVat.StringFixed(2),
			Percent:          l.VatRate.StringFixed(0),
			Description:      l.Name,
			SellersItemID:    l.Code,
		}
		if doc.OrderReferences != nil {
			line.OrderRef = &isdocLineRef{Ref: "order-1"}
		}
		doc.Lines = append(doc.Lines, line)
	}
	zero := decimal.Zero.StringFixed(2)
	for _, v := range d.VatBreakdown() {
		doc.TaxTotal.Sub = append(doc.TaxTotal.Sub, isdocTaxSub{
			Taxable: v.Base.StringFixed(2), Tax: v.Vat().StringFixed(2), Inclusive: v.Total.StringFixed(2),
			ClaimedTaxable: zero, ClaimedTax: zero, ClaimedInclusive: zero,
			DiffTaxable: v.Base.StringFixed(2), DiffTax: v.Vat().StringFixed(2), DiffInclusive: v.Total.StringFixed(2),
			Percent: v.Rate.StringFixed(0),
		})
	}
	without, vat, with := d.Totals()
	doc.TaxTotal.TaxAmount = vat.StringFixed(2)
	doc.Total = isdocTotal{
		TaxExclusive: without.StringFixed(2), TaxInclusive: with.StringFixed(2), ClaimedExclusive: zero, ClaimedInclusive: zero,
		DiffExclusive: without.StringFixed(2), DiffInclusive: with.StringFixed(2), PayableRounding: zero, PaidDeposits: zero,
		Payable: with.StringFixed(2),
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func party(p Party) isdocParty {
	out := isdocParty{ID: p.CompanyID, Name: p.Name, Email: p.Email,
		Address: isdocAddress{Street: p.Street, City: p.City, Zip: p.Zip, Country: p.Country}}
	if p.VatID != "" {
		out.TaxID, out.TaxSchem = p.VatID, "VAT"
	}
	return out
}

func amount(s string) string {
	d := dec(s)
	return d.String()
}

package orders

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Document kinds an order produces: collection, event prefix, detail key
// in the reference's responses, and the order metadata field remembering
// the code.
type DocKind struct {
	Collection string
	Event      string // e.g. "invoice" -> invoice:create
	Key        string // data key of the detail responses, e.g. "invoice"
	OrderField string // order metadata field holding the last code
}

// The document kinds of the order flow.
var (
	KindInvoice      = DocKind{InvoicesCollection, "invoice", "invoice", "_invoiceCode"}
	KindDeliveryNote = DocKind{DeliveryNotes, "deliveryNote", "deliveryNote", "_deliveryNoteCode"}
	KindProforma     = DocKind{ProformaCollection, "proformaInvoice", "proformaInvoice", "_proformaInvoiceCode"}
	KindProofPayment = DocKind{ProofPayments, "proofPayment", "proofPayments", "_proofPaymentCode"}
)

// DocOptions are the caller's choices for a document (from the
// CreateInvoiceFromOrder-style request bodies); zero values take the
// sandbox's defaults.
type DocOptions struct {
	Code          string
	BillingMethod any // {id, name} or nil to keep the order's
	VarSymbol     *int64
	ConstSymbol   any
	SpecSymbol    any
	DueDate       string
	TaxDate       string
	Date          string // delivery note date
	ProformaCode  string
	ProofCodes    []string
}

// DueDays is the due period of invoices and proforma invoices the sandbox
// issues (the spec is silent).
const DueDays = 14

// CreateDocument issues a document of kind k from an order, stores it,
// remembers its code on the order (which the caller saves) and emits
// <event>:create.
func (s *Shop) CreateDocument(k DocKind, o map[string]any, opt DocOptions) (map[string]any, error) {
	code := opt.Code
	if code == "" {
		var err error
		if code, err = s.NextCode(k.Collection); err != nil {
			return nil, err
		}
	} else if s.Tx.Exists(s.ID, k.Collection, code) {
		return nil, sandbox.Conflict(code, "A %s with code %q already exists.", k.Key, code)
	}
	var doc map[string]any
	switch k {
	case KindDeliveryNote:
		doc = s.deliveryNote(code, o, opt)
	case KindProofPayment:
		doc = s.proofPayment(code, o, opt)
	default:
		doc = s.invoiceLike(code, o, opt, k == KindInvoice)
	}
	// The row's create event (<event>:create) and add entry.
	if err := s.W.Save(k.Collection, code, doc, crud.Added); err != nil {
		return nil, err
	}
	o[k.OrderField] = code
	return doc, nil
}

func (s *Shop) docCustomer(o map[string]any) map[string]any {
	var remark any
	if n, ok := o["notes"].(map[string]any); ok {
		remark = n["customerRemark"]
	}
	return map[string]any{"guid": o["customerGuid"], "email": o["email"], "phone": o["phone"], "remark": remark}
}

func (s *Shop) varSymbol(code string, opt DocOptions) int64 {
	if opt.VarSymbol != nil {
		return *opt.VarSymbol
	}
	n, err := strconv.ParseInt(code, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func (s *Shop) date(days int) string {
	return s.Now.AddDate(0, 0, days).Format(time.DateOnly)
}

// invoiceLike builds an invoice or a proforma invoice in the reference's
// detail shape.
func (s *Shop) invoiceLike(code string, o map[string]any, opt DocOptions, invoice bool) map[string]any {
	price, _ := o["price"].(map[string]any)
	cur := s.Currency(str(price["currencyCode"]))
	bank := cur.Get("bankAccount")
	var docItems []any
	weight := rules.Amount3(orderWeight(o))
	for _, it := range items(o) {
		di := map[string]any{}
		for _, k := range []string{"additionalField", "amount", "amountUnit", "brand", "code", "displayPrices", "itemId", "itemPrice",
			"itemPriceVatBreakdown", "itemType", "name", "priceRatio", "productGuid", "purchasePrice", "remark",
			"specificSurchargeParameters", "surchargeParameters", "unitPrice", "variantName", "weight"} {
			di[k] = it[k]
		}
		if invoice {
			di["consumptionTax"], di["recyclingFee"] = it["consumptionTax"], it["recyclingFee"]
		}
		docItems = append(docItems, di)
	}
	billing := o["billingMethod"]
	if opt.BillingMethod != nil {
		billing = opt.BillingMethod
	}
	due := opt.DueDate
	if due == "" {
		due = s.date(DueDays)
	}
	doc := map[string]any{
		"code": code, "orderCode": o["code"], "isValid": true, "creationTime": s.Time(), "changeTime": s.Time(),
		"dueDate": due, "varSymbol": s.varSymbol(code, opt), "constSymbol": opt.ConstSymbol, "specSymbol": opt.SpecSymbol,
		"paid": o["paid"], "billingMethod": billing, "billingAddress": o["billingAddress"], "deliveryAddress": o["deliveryAddress"],
		"addressesEqual": o["addressesEqual"], "customer": s.docCustomer(o), "documentRemark": nil,
		"eshop": map[string]any{"vatPayer": s.InfoField("settings").Get("vatPayer").Bool(), "bankAccount": bank.Get("accountNumber").Value(),
			"iban": bank.Get("iban").Value(), "bic": bank.Get("bic").Value()},
		"items": docItems, "price": o["price"], "vatMode": o["vatMode"], "vatPayer": o["vatPayer"],
		"weight": weight, "completePackageWeight": weight,
	}
	if invoice {
		tax := opt.TaxDate
		if tax == "" {
			tax = s.date(0)
		}
		proformas := []any{}
		if opt.ProformaCode != "" {
			proformas = append(proformas, opt.ProformaCode)
		} else if c := str(o[KindProforma.OrderField]); c != "" {
			proformas = append(proformas, c)
		}
		proofs := []any{}
		for _, c := range opt.ProofCodes {
			proofs = append(proofs, map[string]any{"code": c, "vatBreakdown": nil})
		}
		doc["taxDate"], doc["proformaInvoiceCodes"], doc["proofPayments"] = tax, proformas, proofs
	}
	return doc
}

// deliveryNote lists the order's goods in the reference's DeliveryNote
// shape (shipping, billing and discounts are not delivered).
func (s *Shop) deliveryNote(code string, o map[string]any, opt DocOptions) map[string]any {
	var docItems []any
	for _, it := range items(o) {
		if !rules.IsGoods(str(it["itemType"])) {
			continue
		}
		di := map[string]any{}
		for _, k := range []string{"amount", "amountUnit", "brand", "code", "itemType", "name", "productGuid", "remark", "variantName", "weight"} {
			di[k] = it[k]
		}
		di["surchargeParameters"], di["specificSurchargeParameters"] = []any{}, []any{}
		docItems = append(docItems, di)
	}
	if docItems == nil {
		docItems = []any{}
	}
	created := s.Time()
	if opt.Date != "" {
		if t, err := time.ParseInLocation(time.DateOnly, opt.Date, s.Now.Location()); err == nil {
			created = sandbox.FormatTime(t)
		}
	}
	return map[string]any{
		"code": code, "orderCode": o["code"], "isValid": true, "creationTime": created, "changeTime": s.Time(),
		"billingAddress": o["billingAddress"], "deliveryAddress": o["deliveryAddress"], "addressesEqual": o["addressesEqual"],
		"customer": s.docCustomer(o), "documentRemark": nil, "items": docItems,
	}
}

// proofPayment records the payment of an order in the reference's
// ProofPaymentDetail shape, with its VAT breakdown.
func (s *Shop) proofPayment(code string, o map[string]any, opt DocOptions) map[string]any {
	price, _ := o["price"].(map[string]any)
	ba, _ := o["billingAddress"].(map[string]any)
	byRate := map[string]*rules.Price{}
	var rates []string
	for _, it := range items(o) {
		parts, _ := it["itemPriceVatBreakdown"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			r := str(pm["vatRate"])
			if byRate[r] == nil {
				rd, _ := sandbox.ParseDecimal(r)
				byRate[r] = &rules.Price{VatRate: rd}
				rates = append(rates, r)
			}
			g, _ := sandbox.ParseDecimal(str(pm["withVat"]))
			n, _ := sandbox.ParseDecimal(str(pm["withoutVat"]))
			*byRate[r] = byRate[r].Add(rules.Both(g, n, byRate[r].VatRate))
		}
	}
	var lines []any
	var sum rules.Price
	for _, r := range rates {
		p := byRate[r]
		sum = sum.Add(*p)
		lines = append(lines, map[string]any{"vatRate": r, "priceWithVat": rules.Money(p.WithVat), "priceWithoutVat": rules.Money(p.WithoutVat), "vat": rules.Money(p.Vat)})
	}
	if lines == nil {
		lines = []any{}
	}
	b := func(k string) any {
		if ba == nil {
			return nil
		}
		return ba[k]
	}
	inv := o[KindInvoice.OrderField]
	return map[string]any{
		"code": code, "orderCode": o["code"], "invoiceCode": inv, "proformaInvoiceCode": o[KindProforma.OrderField],
		"isValid": true, "closed": false, "currencyCode": price["currencyCode"], "invoicingExchangeRate": price["exchangeRate"],
		"payment": price["toPay"], "varSymbol": s.varSymbol(str(o["code"]), opt), "constSymbol": nil, "specSymbol": nil,
		"billingMethod": o["billingMethod"], "createdAt": s.Time(), "updatedAt": s.Time(), "issueDate": s.Time(), "taxDate": s.date(0),
		"billFullName": b("fullName"), "billCompany": b("company"), "billStreet": b("street"), "billHouseNumber": b("houseNumber"),
		"billCity": b("city"), "billZip": b("zip"), "billCountryCode": b("countryCode"), "billDistrict": b("district"),
		"billAdditional": b("additional"), "billRegionName": b("regionName"), "billRegionShortcut": b("regionShortcut"),
		"companyId": b("companyId"), "taxId": b("taxId"), "vatId": b("vatId"),
		"email": o["email"], "phone": o["phone"], "customerGuid": o["customerGuid"], "language": o["language"], "vatMode": o["vatMode"],
		"source": map[string]any{"id": 1, "name": "Order"}, "remark": nil, "documentRemark": nil,
		"vatBreakdown": map[string]any{"items": lines, "summary": map[string]any{"withVat": rules.Money(sum.WithVat), "withoutVat": rules.Money(sum.WithoutVat), "vat": rules.Money(sum.Vat)}},
	}
}

// orderWeight sums weight times amount over the order's items.
func orderWeight(o map[string]any) decimal.Decimal {
	sum := decimal.Zero
	for _, it := range items(o) {
		w, err1 := decimal.NewFromString(str(it["weight"]))
		a, err2 := decimal.NewFromString(str(it["amount"]))
		if err1 == nil && err2 == nil {
			sum = sum.Add(w.Mul(a))
		}
	}
	return sum
}

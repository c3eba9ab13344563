package accounting

import (
	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// proofForOrder answers POST /api/proof-payments/order/{code}: the order
// flow issues the proof of payment of the order (sandbox/shop/orders).
func (h *handlers) proofForOrder(r *api.Request) (any, error) {
	var out any
	err := h.e.Update(r, func(c *crud.Ctx) error {
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		ok, err := c.CollOf("orders")
		if err != nil {
			return err
		}
		code, o, err := ok.Find(r.Var("code"))
		if err != nil {
			return err
		}
		doc, err := shop.CreateDocument(orders.KindProofPayment, o, orders.DocOptions{})
		if err != nil {
			return err
		}
		// The order only remembers the proof's code (sandbox metadata).
		if err := ok.Annotate(code, o); err != nil {
			return err
		}
		out, err = created(c, "proofPayments", doc)
		return err
	})
	return out, err
}

// proofForProforma answers POST /api/proof-payments/proforma-invoice/{code}:
// the proof of the payment of a proforma invoice, its amount split by VAT
// rate.
func (h *handlers) proofForProforma(r *api.Request) (any, error) {
	var out any
	err := h.e.Update(r, func(c *crud.Ctx) error {
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		pk, err := c.CollOf("proforma-invoices")
		if err != nil {
			return err
		}
		_, pf, err := pk.Find(r.Var("code"))
		if err != nil {
			return err
		}
		code, err := nextCode(c, shop, "proof-payments", "")
		if err != nil {
			return err
		}
		ba, _ := pf["billingAddress"].(map[string]any)
		cust, _ := pf["customer"].(map[string]any)
		price, _ := pf["price"].(map[string]any)
		now := c.Now()
		rec := map[string]any{
			"code": code, "proformaInvoiceCode": pf["code"], "orderCode": pf["orderCode"], "invoiceCode": nil,
			"isValid": true, "closed": false, "currencyCode": price["currencyCode"], "invoicingExchangeRate": price["exchangeRate"],
			"payment": price["withVat"], "varSymbol": pf["varSymbol"], "billingMethod": pf["billingMethod"], "vatMode": pf["vatMode"],
			"createdAt": now, "updatedAt": now, "issueDate": now, "taxDate": c.Tx.Now().Format("2006-01-02"),
			"billFullName": ba["fullName"], "billCompany": ba["company"], "billStreet": ba["street"], "billHouseNumber": ba["houseNumber"],
			"billCity": ba["city"], "billZip": ba["zip"], "billCountryCode": ba["countryCode"], "companyId": ba["companyId"],
			"vatId": ba["vatId"], "taxId": ba["taxId"], "email": cust["email"], "phone": cust["phone"], "customerGuid": cust["guid"],
			"source": map[string]any{"id": 2, "name": "Proforma invoice"}, "vatBreakdown": breakdown(pf),
		}
		k, err := c.CollOf("proof-payments")
		if err != nil {
			return err
		}
		saved, _, err := c.CreateOne(k, rec)
		if err != nil {
			return err
		}
		out, err = created(c, "proofPayments", saved)
		return err
	})
	return out, err
}

// breakdown sums a document's items by VAT rate (proof payment shape).
func breakdown(doc map[string]any) map[string]any {
	type sums struct{ with, without decimal.Decimal }
	by := map[string]*sums{}
	var rates []string
	items, _ := doc["items"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		ip, _ := m["itemPrice"].(map[string]any)
		rate := str(ip["vatRate"])
		if by[rate] == nil {
			by[rate] = &sums{}
			rates = append(rates, rate)
		}
		w, _ := decimal.NewFromString(str(ip["withVat"]))
		n, _ := decimal.NewFromString(str(ip["withoutVat"]))
		by[rate].with, by[rate].without = by[rate].with.Add(w), by[rate].without.Add(n)
	}
	lines := []any{}
	var tw, tn decimal.Decimal
	for _, r := range rates {
		s := by[r]
		tw, tn = tw.Add(s.with), tn.Add(s.without)
		lines = append(lines, map[string]any{"vatRate": r, "priceWithVat": s.with.StringFixed(2), "priceWithoutVat": s.without.StringFixed(2),
			"vat": s.with.Sub(s.without).StringFixed(2)})
	}
	return map[string]any{"items": lines, "summary": map[string]any{"withVat": tw.StringFixed(2), "withoutVat": tn.StringFixed(2), "vat": tw.Sub(tn).StringFixed(2)}}
}

// proofSettings answers POST /api/proof-payments/{code}/document-settings:
// closed closes (or reopens) the proof payment; unlink detaches it from
// its invoice and proforma invoice.
func (h *handlers) proofSettings(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	patch := map[string]any{}
	if v, ok := data["closed"].(bool); ok {
		patch["closed"] = v
	}
	if v, _ := data["unlink"].(bool); v {
		patch["invoiceCode"], patch["proformaInvoiceCode"] = nil, nil
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("proof-payments")
		if err != nil {
			return err
		}
		rec, err := c.UpdateOne(k, r.Var("code"), patch, false)
		if err != nil {
			return err
		}
		shown, err := c.Render(rec)
		out = c.Answer(map[string]any{"proofPayments": shown})
		return err
	})
	return out, err
}

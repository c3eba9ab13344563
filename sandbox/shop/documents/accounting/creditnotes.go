package accounting

import (
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// creditNoteFromInvoice answers POST /api/invoices/{code}/credit-note: a
// credit note for the invoice's items (those named by useItemIds or
// items[].invoiceItemId, with an amount of their own when given; all of
// them otherwise).
func (h *handlers) creditNoteFromInvoice(r *api.Request) (any, error) {
	return h.creditNoteFrom(r, "invoices", func(c *crud.Ctx, inv, data map[string]any, code string) (map[string]any, error) {
		items, err := pickItems(inv, data)
		if err != nil {
			return nil, err
		}
		rec := map[string]any{"code": code, "invoiceCode": inv["code"], "proofPaymentCode": nil}
		for _, k := range []string{"orderCode", "billingAddress", "deliveryAddress", "addressesEqual", "customer", "eshop", "vatPayer",
			"vatMode", "billingMethod", "varSymbol", "price", "weight", "completePackageWeight"} {
			rec[k] = crud.Clone(inv[k])
		}
		rec["items"] = items
		rec["isValid"], rec["restocked"] = true, false
		rec["taxDate"] = c.Tx.Now().Format("2006-01-02")
		return rec, nil
	})
}

// creditNoteFrom is the shared part of the credit notes made from another
// document: it reads the body and its options, finds the source record the
// path's code names in coll, takes the next credit-note code, and stores
// the record build makes of it with the body's options applied.
func (h *handlers) creditNoteFrom(r *api.Request, coll string, build func(c *crud.Ctx, src, data map[string]any, code string) (map[string]any, error)) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	opts, err := options(data)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		k, err := c.CollOf(coll)
		if err != nil {
			return err
		}
		_, src, err := k.Find(r.Var("code"))
		if err != nil {
			return err
		}
		code, err := nextCode(c, shop, "credit-notes", str(data["creditNoteCode"]))
		if err != nil {
			return err
		}
		rec, err := build(c, src, data, code)
		if err != nil {
			return err
		}
		for k, v := range opts {
			rec[k] = v
		}
		out, err = h.createCreditNote(c, rec)
		return err
	})
	return out, err
}

// pickItems selects and re-prices the invoice items a credit note covers.
func pickItems(inv, data map[string]any) ([]any, error) {
	all, _ := inv["items"].([]any)
	byID := map[string]map[string]any{}
	for _, it := range all {
		if m, ok := it.(map[string]any); ok {
			byID[crud.IDString(m["itemId"])] = m
		}
	}
	var out []any
	add := func(id, field string, amount string) error {
		it, ok := byID[id]
		if !ok {
			return sandbox.Invalid(field, "Field %s: the invoice has no item %s.", field, id)
		}
		cp := crud.Clone(it).(map[string]any)
		if amount != "" {
			reprice(cp, amount)
		}
		out = append(out, cp)
		return nil
	}
	if ids, ok := data["useItemIds"].([]any); ok && len(ids) > 0 {
		for i, id := range ids {
			if err := add(crud.IDString(id), fmt.Sprintf("data.useItemIds[%d]", i), ""); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if list, ok := data["items"].([]any); ok && len(list) > 0 {
		for i, e := range list {
			m, _ := e.(map[string]any)
			if err := add(crud.IDString(m["invoiceItemId"]), fmt.Sprintf("data.items[%d].invoiceItemId", i), str(m["amount"])); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	for _, it := range all {
		out = append(out, crud.Clone(it))
	}
	return out, nil
}

// reprice sets an item's amount and its total from the unit price.
func reprice(it map[string]any, amount string) {
	a, err := decimal.NewFromString(amount)
	if err != nil {
		return
	}
	it["amount"] = a.StringFixed(3)
	up, _ := it["unitPrice"].(map[string]any)
	with, _ := decimal.NewFromString(str(up["withVat"]))
	without, _ := decimal.NewFromString(str(up["withoutVat"]))
	ratio, err := decimal.NewFromString(str(it["priceRatio"]))
	if err != nil {
		ratio = decimal.NewFromInt(1)
	}
	tw, tn := with.Mul(a).Mul(ratio).Round(2), without.Mul(a).Mul(ratio).Round(2)
	it["itemPrice"] = map[string]any{"withVat": tw.StringFixed(2), "withoutVat": tn.StringFixed(2), "vat": tw.Sub(tn).StringFixed(2), "vatRate": up["vatRate"]}
	it["itemPriceVatBreakdown"] = nil
}

// createCreditNote totals and stores a credit note and answers it.
func (h *handlers) createCreditNote(c *crud.Ctx, rec map[string]any) (any, error) {
	total(rec)
	k, err := c.CollOf("credit-notes")
	if err != nil {
		return nil, err
	}
	saved, _, err := c.CreateOne(k, rec)
	if err != nil {
		return nil, err
	}
	return created(c, "creditNote", saved)
}

// total sums a document's items into its price (2 decimal places).
func total(doc map[string]any) {
	items, _ := doc["items"].([]any)
	var with, without decimal.Decimal
	for _, it := range items {
		m, _ := it.(map[string]any)
		ip, _ := m["itemPrice"].(map[string]any)
		w, _ := decimal.NewFromString(str(ip["withVat"]))
		n, _ := decimal.NewFromString(str(ip["withoutVat"]))
		with, without = with.Add(w), without.Add(n)
	}
	price, _ := doc["price"].(map[string]any)
	if price == nil {
		price = map[string]any{}
	}
	price = crud.Clone(price).(map[string]any)
	price["withVat"], price["withoutVat"] = with.StringFixed(2), without.StringFixed(2)
	price["vat"], price["toPay"] = with.Sub(without).StringFixed(2), with.StringFixed(2)
	doc["price"] = price
}

// creditNoteFromProof answers POST /api/proof-payments/{code}/credit-note:
// a credit note refunding the payment, one item per VAT rate of it.
func (h *handlers) creditNoteFromProof(r *api.Request) (any, error) {
	return h.creditNoteFrom(r, "proof-payments", func(c *crud.Ctx, pp, _ map[string]any, code string) (map[string]any, error) {
		rec := map[string]any{
			"code": code, "proofPaymentCode": pp["code"], "invoiceCode": pp["invoiceCode"], "orderCode": pp["orderCode"],
			"isValid": true, "restocked": false, "varSymbol": pp["varSymbol"], "billingMethod": pp["billingMethod"],
			"vatMode": pp["vatMode"], "vatPayer": true, "addressesEqual": true, "taxDate": c.Tx.Now().Format("2006-01-02"),
			"billingAddress": map[string]any{"fullName": pp["billFullName"], "company": pp["billCompany"], "street": pp["billStreet"],
				"houseNumber": pp["billHouseNumber"], "city": pp["billCity"], "zip": pp["billZip"], "countryCode": pp["billCountryCode"],
				"companyId": pp["companyId"], "vatId": pp["vatId"], "taxId": pp["taxId"]},
			"customer": map[string]any{"guid": pp["customerGuid"], "email": pp["email"], "phone": pp["phone"], "remark": nil},
			"price":    map[string]any{"currencyCode": pp["currencyCode"], "exchangeRate": pp["invoicingExchangeRate"]},
		}
		var items []any
		vb, _ := pp["vatBreakdown"].(map[string]any)
		rows, _ := vb["items"].([]any)
		for i, row := range rows {
			m, _ := row.(map[string]any)
			price := map[string]any{"withVat": m["priceWithVat"], "withoutVat": m["priceWithoutVat"], "vat": m["vat"], "vatRate": m["vatRate"]}
			items = append(items, map[string]any{"itemId": i + 1, "itemType": "product", "name": "Refund of payment " + str(pp["code"]),
				"amount": "1.000", "priceRatio": "1.0000", "itemPrice": price, "unitPrice": crud.Clone(price)})
		}
		rec["items"] = items
		return rec, nil
	})
}

// restock answers POST /api/credit-notes/{code}/restock: the credit
// note's product items go back to the default stock (stock:movement and
// the stock events follow); a credit note is restocked once (409 after).
func (h *handlers) restock(r *api.Request) (any, error) {
	var out any
	err := h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("credit-notes")
		if err != nil {
			return err
		}
		code, cn, err := k.Find(r.Var("code"))
		if err != nil {
			return err
		}
		if b, _ := cn["restocked"].(bool); b {
			return sandbox.Conflict(code, "Credit note %s is already restocked.", code)
		}
		stockID, err := defaultStock(c)
		if err != nil {
			return err
		}
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		var lines []orders.StockLine
		var notes []any
		items, _ := cn["items"].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			pcode := str(m["code"])
			if pcode == "" || (m["itemType"] != "product" && m["itemType"] != "bazar") {
				continue
			}
			amt, err := decimal.NewFromString(str(m["amount"]))
			if err != nil || !amt.IsPositive() {
				continue
			}
			lines = append(lines, orders.StockLine{Code: pcode, ProductGUID: str(m["productGuid"]), Delta: amt})
			notes = append(notes, fmt.Sprintf("%s × %s returned to stock %d.", amt.StringFixed(3), pcode, stockID))
		}
		if len(lines) == 0 {
			notes = append(notes, "The credit note has no product items to return to stock.")
		}
		if err := shop.MoveStock(stockID, str(cn["orderCode"]), lines); err != nil {
			return err
		}
		if _, err := c.UpdateOne(k, code, map[string]any{"restocked": true, "stockAmountChangeType": "restock"}, false); err != nil {
			return err
		}
		out = c.Answer(map[string]any{"notes": notes})
		return nil
	})
	return out, err
}

// defaultStock is the stock marked "_default" in the fixtures, else the
// first.
func defaultStock(c *crud.Ctx) (int64, error) {
	k, err := c.CollOf("stocks")
	if err != nil {
		return 0, err
	}
	recs, err := k.All(nil)
	if err != nil {
		return 0, err
	}
	if len(recs) == 0 {
		return 0, sandbox.Invalid("stock", "This e-shop has no stock.")
	}
	pick := recs[0]
	for _, s := range recs {
		if b, _ := s["_default"].(bool); b {
			pick = s
		}
	}
	return strconv.ParseInt(crud.IDString(pick["id"]), 10, 64)
}

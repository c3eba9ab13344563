package fixturegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// counters number the documents and stock movements: how many were made
// before an order.
type counters struct{ paid, delivered, moves int }

func (c counters) plus(o counters) counters {
	return counters{c.paid + o.paid, c.delivered + o.delivered, c.moves + o.moves}
}

func (c counters) times(n int) counters {
	return counters{c.paid * n, c.delivered * n, c.moves * n}
}

// shapeOf counts what deriveOrder makes of an order: an invoice and a
// proof of payment when it is paid, a delivery note and a stock movement
// per product item when it is paid and not cancelled. A generated order
// has its template's shape.
func shapeOf(o map[string]any) counters {
	if o["paid"] != true {
		return counters{}
	}
	if str(obj(o["status"])["id"]) == "-4" {
		return counters{paid: 1}
	}
	c := counters{paid: 1, delivered: 1}
	for _, it := range list(o["items"]) {
		if movesStock(obj(it)) {
			c.moves++
		}
	}
	return c
}

func movesStock(im map[string]any) bool {
	return (im["itemType"] == "product" || im["itemType"] == "bazar") && str(im["code"]) != ""
}

func docCode(base string, n int) string { return fmt.Sprintf("2026%s%05d", base, n) }

// deriveOrder adds to out the documents, stock movements and history
// entry that follow from order number i; ctr holds the numbers used
// before it and is advanced past it.
func (g *gen) deriveOrder(o map[string]any, i int, ctr *counters, out *orderChunk) {
	inv, dn, pp, hist, moves := &out[1], &out[2], &out[3], &out[4], &out[5]
	shape := shapeOf(o)
	defer func() { *ctr = ctr.plus(shape) }()
	day := str(o["creationTime"])
	if len(day) > 10 {
		day = day[:10]
	}
	hist.record(map[string]any{"id": i + 1, "orderCode": o["code"], "creationTime": o["creationTime"], "system": true,
		"type": "order-created", "text": "Objednávka vytvořena.", "user": nil}, idFields["order-history"])
	if shape.paid == 0 {
		return
	}
	icode := docCode("1", ctr.paid+1)
	invoice := docOf(o, icode, day)
	invoice["taxDate"], invoice["proformaInvoiceCodes"] = day, []any{}
	ppcode := docCode("5", ctr.paid+1)
	proof := proofOf(o, ppcode, day, icode)
	invoice["proofPayments"] = []any{map[string]any{"code": ppcode, "vatBreakdown": proof["vatBreakdown"]}}
	inv.record(invoice, idFields["invoices"])
	pp.record(proof, idFields["proof-payments"])
	if shape.delivered == 0 {
		return
	}
	dn.record(deliveryOf2(o, docCode("3", ctr.delivered+1), day), idFields["delivery-notes"])
	n := ctr.moves
	for _, it := range list(o["items"]) {
		im := obj(it)
		if !movesStock(im) {
			continue
		}
		n++
		amt, _ := decimal.NewFromString(str(im["amount"]))
		moves.record(map[string]any{"id": n, "productCode": im["code"], "productGuid": im["productGuid"],
			"historicalProductGuid": nil, "amountChange": amt.Neg().StringFixed(3), "actualAmount": "10.000", "sumAmount": "20.000",
			"changeTime": o["creationTime"], "changedBy": "API", "orderCode": o["code"], "_stockId": 1}, idFields["stock-movements"])
	}
}

// derive empties the documents tied to template orders and points the
// remaining files' references at generated records.
func (g *gen) derive() {
	// Documents and shipments tied to template orders have no generated
	// counterpart; the lists start empty.
	for _, f := range []string{"credit-notes", "proforma-invoices", "shipments"} {
		if _, ok := g.files[f]; ok {
			g.files[f] = []any{}
		}
	}
	g.remap()
}

// remap rewrites, in the files not generated, references to template
// products, variants, customers and orders to their first generated
// counterparts (whole JSON strings only).
func (g *gen) remap() {
	pairs := map[string]string{}
	for t, p := range g.tplProducts {
		pairs[str(p["guid"])] = g.editions[t][0].guid
		for tc, c := range g.editions[t][0].codes {
			pairs[tc] = c
		}
	}
	for i, c := range g.tplCustomers {
		if i < len(g.customers) {
			pairs[str(c["guid"])] = str(g.customers[i]["guid"])
		}
	}
	for i, o := range g.tplOrders {
		if i < len(g.orderCodes) {
			pairs[str(o["code"])] = g.orderCodes[i]
		}
	}
	var rep []string
	for from, to := range pairs {
		rep = append(rep, strconv.Quote(from), strconv.Quote(to))
	}
	r := strings.NewReplacer(rep...)
	generated := map[string]bool{"products": true, "customers": true, "orders": true, "invoices": true, "delivery-notes": true,
		"proof-payments": true, "order-history": true, "stock-movements": true, "pricelists": true, "stocks": true}
	for name, v := range g.files {
		if generated[name] {
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(r.Replace(string(raw)))))
		dec.UseNumber()
		var out any
		if dec.Decode(&out) == nil {
			g.files[name] = out
		}
	}
}

func customerOf(o map[string]any) map[string]any {
	var remark any
	if n := obj(o["notes"]); n != nil {
		remark = n["customerRemark"]
	}
	return map[string]any{"guid": o["customerGuid"], "email": o["email"], "phone": o["phone"], "remark": remark}
}

// docOf is an invoice of an order in the reference's detail shape. The
// documents share values with their order: they are encoded and dropped,
// never changed.
func docOf(o map[string]any, code, day string) map[string]any {
	var items []any
	for _, it := range list(o["items"]) {
		im := obj(it)
		di := map[string]any{}
		for _, k := range []string{"additionalField", "amount", "amountUnit", "brand", "code", "displayPrices", "itemId", "itemPrice",
			"itemPriceVatBreakdown", "itemType", "name", "priceRatio", "productGuid", "purchasePrice", "remark", "specificSurchargeParameters",
			"surchargeParameters", "unitPrice", "variantName", "weight", "consumptionTax", "recyclingFee"} {
			di[k] = im[k]
		}
		items = append(items, di)
	}
	vs, _ := strconv.ParseInt(str(o["code"]), 10, 64)
	ts := day + "T09:00:00+0100"
	return map[string]any{
		"code": code, "orderCode": o["code"], "isValid": true, "creationTime": ts, "changeTime": ts, "dueDate": day,
		"varSymbol": vs, "constSymbol": "0308", "specSymbol": nil, "paid": o["paid"], "billingMethod": o["billingMethod"],
		"billingAddress": o["billingAddress"], "deliveryAddress": o["deliveryAddress"], "addressesEqual": o["addressesEqual"],
		"customer": customerOf(o), "documentRemark": nil, "eshop": map[string]any{"bankAccount": "2900123456/2010", "iban": nil, "bic": nil, "vatPayer": true},
		"vatPayer": true, "vatMode": o["vatMode"], "items": orEmpty(items), "price": o["price"], "weight": nil, "completePackageWeight": nil,
	}
}

func deliveryOf2(o map[string]any, code, day string) map[string]any {
	var items []any
	for _, it := range list(o["items"]) {
		im := obj(it)
		di := map[string]any{}
		for _, k := range []string{"additionalField", "amount", "amountUnit", "code", "itemId", "itemType", "name", "productGuid", "remark", "variantName", "weight"} {
			di[k] = im[k]
		}
		items = append(items, di)
	}
	ts := day + "T10:30:00+0100"
	return map[string]any{"code": code, "orderCode": o["code"], "isValid": true, "creationTime": ts, "changeTime": ts,
		"billingAddress": o["billingAddress"], "deliveryAddress": o["deliveryAddress"], "addressesEqual": o["addressesEqual"],
		"customer": customerOf(o), "documentRemark": nil, "items": orEmpty(items)}
}

// proofOf is the proof of an order's payment, its amount by VAT rate.
func proofOf(o map[string]any, code, day, invoice string) map[string]any {
	type sums struct{ with, without decimal.Decimal }
	by := map[string]*sums{}
	var rates []string
	for _, it := range list(o["items"]) {
		ip := obj(obj(it)["itemPrice"])
		r := str(ip["vatRate"])
		if by[r] == nil {
			by[r] = &sums{}
			rates = append(rates, r)
		}
		w, _ := decimal.NewFromString(str(ip["withVat"]))
		n, _ := decimal.NewFromString(str(ip["withoutVat"]))
		by[r].with, by[r].without = by[r].with.Add(w), by[r].without.Add(n)
	}
	var rows []any
	var tw, tn decimal.Decimal
	for _, r := range rates {
		s := by[r]
		tw, tn = tw.Add(s.with), tn.Add(s.without)
		rows = append(rows, map[string]any{"vatRate": r, "priceWithVat": s.with.StringFixed(2), "priceWithoutVat": s.without.StringFixed(2), "vat": s.with.Sub(s.without).StringFixed(2)})
	}
	b := obj(o["billingAddress"])
	price := obj(o["price"])
	vs, _ := strconv.ParseInt(str(o["code"]), 10, 64)
	ts := day + "T11:00:00+0100"
	rec := map[string]any{
		"code": code, "orderCode": o["code"], "invoiceCode": invoice, "proformaInvoiceCode": nil, "isValid": true, "closed": true,
		"currencyCode": price["currencyCode"], "invoicingExchangeRate": price["exchangeRate"], "payment": price["withVat"], "varSymbol": vs,
		"constSymbol": nil, "specSymbol": nil, "billingMethod": o["billingMethod"], "createdAt": ts, "updatedAt": ts, "issueDate": ts, "taxDate": day,
		"email": o["email"], "phone": o["phone"], "customerGuid": o["customerGuid"], "language": o["language"], "vatMode": o["vatMode"],
		"source": map[string]any{"id": 1, "name": "Order"}, "remark": nil, "documentRemark": nil, "bankAccount": nil, "iban": nil, "bic": nil,
		"billBankAccount": nil, "billIban": nil, "billBic": nil, "cashdeskId": nil, "customerProfileId": nil, "identificationNumber": nil,
		"vatBreakdown": map[string]any{"items": orEmpty(rows), "summary": map[string]any{"withVat": tw.StringFixed(2), "withoutVat": tn.StringFixed(2), "vat": tw.Sub(tn).StringFixed(2)}},
	}
	for k, f := range map[string]string{"billFullName": "fullName", "billCompany": "company", "billStreet": "street", "billHouseNumber": "houseNumber",
		"billCity": "city", "billZip": "zip", "billCountryCode": "countryCode", "billDistrict": "district", "billAdditional": "additional",
		"billRegionName": "regionName", "billRegionShortcut": "regionShortcut", "companyId": "companyId", "taxId": "taxId", "vatId": "vatId"} {
		rec[k] = b[f]
	}
	return rec
}

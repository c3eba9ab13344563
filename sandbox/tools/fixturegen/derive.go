package fixturegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// derived collects the records that follow from the generated orders,
// already encoded (see gen.raw), in order.
type derived struct {
	inv, dn, pp, hist, moves []any
	n                        map[string]int
}

// deriveOrder adds the documents, stock movements and history entries
// that follow from one generated order; orders are derived as they are
// made, so no order needs to stay in memory as a decoded document.
func (g *gen) deriveOrder(o map[string]any) {
	d := &g.der
	if d.n == nil {
		d.n = map[string]int{}
	}
	code := func(kind, base string) string {
		d.n[kind]++
		return fmt.Sprintf("2026%s%05d", base, d.n[kind])
	}
	day := str(o["creationTime"])
	if len(day) > 10 {
		day = day[:10]
	}
	canceled := str(obj(o["status"])["id"]) == "-4"
	d.hist = append(d.hist, g.raw(map[string]any{"id": len(d.hist) + 1, "orderCode": o["code"], "creationTime": o["creationTime"], "system": true,
		"type": "order-created", "text": "Objednávka vytvořena.", "user": nil}))
	if o["paid"] != true {
		return
	}
	icode := code("inv", "1")
	invoice := docOf(o, icode, day)
	invoice["taxDate"], invoice["proformaInvoiceCodes"] = day, []any{}
	ppcode := code("pp", "5")
	proof := proofOf(o, ppcode, day, icode)
	invoice["proofPayments"] = []any{map[string]any{"code": ppcode, "vatBreakdown": proof["vatBreakdown"]}}
	d.inv, d.pp = append(d.inv, g.raw(invoice)), append(d.pp, g.raw(proof))
	if canceled {
		return
	}
	d.dn = append(d.dn, g.raw(deliveryOf2(o, code("dn", "3"), day)))
	for _, it := range list(o["items"]) {
		im := obj(it)
		if (im["itemType"] != "product" && im["itemType"] != "bazar") || str(im["code"]) == "" {
			continue
		}
		amt, _ := decimal.NewFromString(str(im["amount"]))
		d.moves = append(d.moves, g.raw(map[string]any{"id": len(d.moves) + 1, "productCode": im["code"], "productGuid": im["productGuid"],
			"historicalProductGuid": nil, "amountChange": amt.Neg().StringFixed(3), "actualAmount": "10.000", "sumAmount": "20.000",
			"changeTime": o["creationTime"], "changedBy": "API", "orderCode": o["code"], "_stockId": 1}))
	}
}

// derive files what deriveOrder collected and points the remaining files'
// references at generated records.
func (g *gen) derive() {
	d := &g.der
	g.files["invoices"], g.files["delivery-notes"], g.files["proof-payments"] = orEmpty(d.inv), orEmpty(d.dn), orEmpty(d.pp)
	g.files["order-history"], g.files["stock-movements"] = orEmpty(d.hist), orEmpty(d.moves)
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

// docOf is an invoice of an order in the reference's detail shape.
func docOf(o map[string]any, code, day string) map[string]any {
	var items []any
	for _, it := range list(o["items"]) {
		im := obj(it)
		di := map[string]any{}
		for _, k := range []string{"additionalField", "amount", "amountUnit", "brand", "code", "displayPrices", "itemId", "itemPrice",
			"itemPriceVatBreakdown", "itemType", "name", "priceRatio", "productGuid", "purchasePrice", "remark", "specificSurchargeParameters",
			"surchargeParameters", "unitPrice", "variantName", "weight", "consumptionTax", "recyclingFee"} {
			di[k] = clone(im[k])
		}
		items = append(items, di)
	}
	vs, _ := strconv.ParseInt(str(o["code"]), 10, 64)
	ts := day + "T09:00:00+0100"
	return map[string]any{
		"code": code, "orderCode": o["code"], "isValid": true, "creationTime": ts, "changeTime": ts, "dueDate": day,
		"varSymbol": vs, "constSymbol": "0308", "specSymbol": nil, "paid": o["paid"], "billingMethod": o["billingMethod"],
		"billingAddress": clone(o["billingAddress"]), "deliveryAddress": clone(o["deliveryAddress"]), "addressesEqual": o["addressesEqual"],
		"customer": customerOf(o), "documentRemark": nil, "eshop": map[string]any{"bankAccount": "2900123456/2010", "iban": nil, "bic": nil, "vatPayer": true},
		"vatPayer": true, "vatMode": o["vatMode"], "items": orEmpty(items), "price": clone(o["price"]), "weight": nil, "completePackageWeight": nil,
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
		"billingAddress": clone(o["billingAddress"]), "deliveryAddress": clone(o["deliveryAddress"]), "addressesEqual": o["addressesEqual"],
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

package orders

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// findItem returns the item with the path's id; kind, when set, must be
// its type (payment and shipping endpoints address billing and shipping
// items).
func findItem(o map[string]any, id string, kind string) (map[string]any, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	for _, it := range items(o) {
		if v, _ := intOf(it["itemId"]); err == nil && v == n && (kind == "" || str(it["itemType"]) == kind) {
			return it, nil
		}
	}
	what := "item"
	if kind != "" {
		what = kind + " item"
	}
	return nil, sandbox.NotFound(id, "Order %s has no %s %s.", str(o["code"]), what, id)
}

// Recompute sets the order's price from its items.
func Recompute(o map[string]any) {
	var t rules.Price
	for _, it := range items(o) {
		ip, _ := it["itemPrice"].(map[string]any)
		g, _ := decimal.NewFromString(str(ip["withVat"]))
		n, _ := decimal.NewFromString(str(ip["withoutVat"]))
		t = t.Add(rules.Both(g, n, decimal.Zero))
	}
	price, _ := o["price"].(map[string]any)
	if price == nil {
		price = map[string]any{}
		o["price"] = price
	}
	price["withVat"], price["withoutVat"], price["vat"], price["toPay"] = rules.Money(t.WithVat), rules.Money(t.WithoutVat), rules.Money(t.Vat), rules.Money(t.WithVat)
}

// orderStatus returns the order's current status definition.
func (sh *Shop) orderStatus(o map[string]any) rules.Status {
	cur, _ := o["status"].(map[string]any)
	id, _ := intOf(cur["id"])
	st, ok := sh.Statuses.Find(int(id))
	if !ok {
		st = rules.Status{ID: int(id), Name: str(cur["name"])}
	}
	return st
}

// addItem prices, checks and appends one item to an order; it returns the
// stored item. kind, when set, forces the item type (payment, shipping).
func (sh *Shop) addItem(o map[string]any, data map[string]any, f rules.Flags, pm, sm map[string]any) (map[string]any, error) {
	it, err := rules.ParseSingleItem(data)
	if err != nil {
		return nil, err
	}
	products, err := sh.lookupProducts([]*rules.Item{it}, f[rules.FlagProducts])
	if err != nil {
		return nil, err
	}
	st, err := sh.Statuses.Get(sh.Statuses.ItemStatus(sh.orderStatus(o), true, it.StatusID), it.Path("statusId"))
	if err != nil {
		return nil, err
	}
	rules.PriceAll([]*rules.Item{it})
	id, err := sh.NextID(itemSeq)
	if err != nil {
		return nil, err
	}
	stockID, _ := intOf(o["stockId"])
	rec := sh.itemRecord(it, id, st, products[it], stockID, pm, sm)
	list := items(o)
	setItems(o, append(list, rec))
	if rules.IsGoods(it.Type) {
		comp, _ := o["completion"].([]any)
		o["completion"] = append(comp, map[string]any{"amount": rec["amount"], "amountCompleted": rec["amountCompleted"], "amountUnit": rec["amountUnit"],
			"code": rec["code"], "itemId": id, "itemType": it.Type, "name": rec["name"], "parentProductSetItemId": nil,
			"productGuid": rec["productGuid"], "variantName": rec["variantName"]})
	}
	if !f[rules.FlagStock] {
		if err := sh.itemStock(o, rec, it.Pricing.Amount); err != nil {
			return nil, err
		}
	}
	Recompute(o)
	return rec, nil
}

// itemStock moves an item's stock by take (positive takes goods out of
// the stock, negative puts them back) and keeps the order's record of
// what it took.
func (sh *Shop) itemStock(o map[string]any, it map[string]any, take decimal.Decimal) error {
	if take.IsZero() || !rules.MovesStock(str(it["itemType"])) || str(it["code"]) == "" || it["_known"] != true {
		return nil
	}
	stockID, _ := intOf(o["stockId"])
	taken, _ := o[stockField].(map[string]any)
	if taken == nil {
		taken = map[string]any{"stockId": stockID, "lines": []any{}}
	}
	stockID, _ = intOf(taken["stockId"])
	lines, _ := taken["lines"].([]any)
	id, _ := intOf(it["itemId"])
	var line map[string]any
	for _, l := range lines {
		if m, ok := l.(map[string]any); ok {
			if n, _ := intOf(m["itemId"]); n == id {
				line = m
			}
		}
	}
	if line == nil {
		if take.IsNegative() {
			return nil // the order never took this item's goods
		}
		line = map[string]any{"code": str(it["code"]), "productGuid": str(it["productGuid"]), "amount": "0.000", "itemId": id}
		lines = append(lines, line)
	}
	cur, _ := decimal.NewFromString(str(line["amount"]))
	if take.IsNegative() && take.Neg().GreaterThan(cur) {
		take = cur.Neg()
	}
	line["amount"] = rules.Amount3(cur.Add(take))
	taken["lines"] = lines
	o[stockField] = taken
	return sh.MoveStock(stockID, str(o["code"]), []StockLine{{Code: str(it["code"]), ProductGUID: str(it["productGuid"]), Delta: take.Neg()}})
}

// changeItem applies a PATCH of one item: texts, status, code (looked
// up), price inputs (re-priced from the undiscounted unit price), amount
// (the stock follows).
func (sh *Shop) changeItem(o, it, data map[string]any, skipGUIDCheck bool) error {
	for _, k := range []string{"name", "remark", "additionalField", "variantName", "brand", "supplierName", "warrantyDescription", "amountUnit"} {
		if v, ok := data[k]; ok {
			it[k] = v
		}
	}
	if v, ok := data["weight"]; ok {
		d, err := decimal.NewFromString(str(v))
		if err != nil {
			return sandbox.Invalid("data.weight", "Field data.weight must be a decimal number.")
		}
		it["weight"] = rules.Amount3(d)
	}
	if v, ok := data["amountCompleted"]; ok && v != nil && v != "" {
		d, err := decimal.NewFromString(str(v))
		if err != nil {
			return sandbox.Invalid("data.amountCompleted", "Field data.amountCompleted must be a decimal number.")
		}
		it["amountCompleted"] = rules.Amount3(d)
	}
	if v, ok := data["statusId"]; ok && v != nil {
		id, err := rules.StatusID(v, "data.statusId")
		if err != nil {
			return err
		}
		st, err := sh.Statuses.Get(*id, "data.statusId")
		if err != nil {
			return err
		}
		it["status"], it["_ownStatus"] = st.Ref(), true
	}
	if t, ok := data["itemType"].(string); ok && t != "" {
		if !rules.IsItemType(t) {
			return sandbox.Invalid("data.itemType", "Field data.itemType: %q is not an order item type.", t)
		}
		it["itemType"] = t
	}
	if err := sh.changeCode(it, data, skipGUIDCheck); err != nil {
		return err
	}
	p := rules.PricingOf(it)
	old := p.Amount
	reprice := false
	for _, k := range []string{"vatRate", "itemPriceWithVat", "itemPriceWithoutVat", "unitPriceWithVat", "unitPriceWithoutVat", "priceRatio", "amount"} {
		if v, ok := data[k]; ok && v != nil && v != "" {
			reprice = true
		}
	}
	if !reprice {
		return nil
	}
	in := map[string]any{"itemType": it["itemType"], "code": it["code"], "vatRate": rules.Money(p.VatRate), "priceRatio": rules.Ratio4(p.Ratio), "amount": rules.Amount3(p.Amount)}
	if p.WithVat != nil {
		in["itemPriceWithVat"] = p.WithVat.String()
	}
	if p.WithoutVat != nil {
		in["itemPriceWithoutVat"] = p.WithoutVat.String()
	}
	gross := data["itemPriceWithVat"] != nil || data["unitPriceWithVat"] != nil
	net := data["itemPriceWithoutVat"] != nil || data["unitPriceWithoutVat"] != nil
	if gross && !net {
		delete(in, "itemPriceWithoutVat")
	}
	if net && !gross {
		delete(in, "itemPriceWithVat")
	}
	for k, v := range data {
		if v != nil && v != "" {
			switch k {
			case "unitPriceWithVat":
				in["itemPriceWithVat"] = v
			case "unitPriceWithoutVat":
				in["itemPriceWithoutVat"] = v
			case "vatRate", "itemPriceWithVat", "itemPriceWithoutVat", "priceRatio", "amount":
				in[k] = v
			}
		}
	}
	parsed, err := rules.ParseSingleItem(in)
	if err != nil {
		return err
	}
	if str(it["itemType"]) == rules.TypeGift || str(it["itemType"]) == rules.TypeDiscountCoupon || str(it["itemType"]) == rules.TypeVolumeDiscount {
		if err := rules.CheckRules([]*rules.Item{parsed}, true); err != nil && sandbox.AsError(err).Instance != "data.items" {
			return err
		}
	}
	rules.PriceAll([]*rules.Item{parsed})
	it["unitPrice"], it["itemPrice"], it["priceRatio"], it["amount"] = parsed.Unit.Wire(), parsed.Total.Wire(), rules.Ratio4(parsed.Pricing.Ratio), rules.Amount3(parsed.Pricing.Amount)
	it["itemPriceVatBreakdown"], it["displayPrices"] = []any{parsed.Total.Wire()}, []any{parsed.Total.Wire()}
	it["_pricing"] = parsed.Pricing.Record()
	if !parsed.Pricing.Amount.Equal(old) {
		if err := sh.itemStock(o, it, parsed.Pricing.Amount.Sub(old)); err != nil {
			return err
		}
		syncCompletion(o, it)
	}
	Recompute(o)
	return nil
}

// changeCode applies a new code or productGuid to an item (rule 3).
func (sh *Shop) changeCode(it, data map[string]any, skipGUIDCheck bool) error {
	_, codeSent := data["code"]
	_, guidSent := data["productGuid"]
	if !codeSent && !guidSent {
		return nil
	}
	code := strings.TrimSpace(str(it["code"]))
	if codeSent {
		code = strings.TrimSpace(str(data["code"]))
	}
	guid := str(it["productGuid"])
	if guidSent {
		guid = str(data["productGuid"])
	} else if codeSent {
		guid = ""
	}
	cat := sh.Catalog()
	if code != "" {
		p, ok, err := cat.ByCode(code)
		if err != nil {
			return err
		}
		if !ok {
			return sandbox.Invalid("data.code", "Field data.code: product code %q does not exist in this e-shop.", code)
		}
		if guid != "" && guid != p.GUID && !skipGUIDCheck {
			return sandbox.Invalid("data.productGuid", "Field data.productGuid: code %q belongs to product %s, not %s (a mismatching code/GUID pair).", code, p.GUID, guid)
		}
		it["code"], it["productGuid"], it["_known"] = code, p.GUID, true
		return nil
	}
	it["code"] = nil
	if guid != "" {
		if _, ok := cat.ByGUID(guid); !ok && !skipGUIDCheck {
			return sandbox.Invalid("data.productGuid", "Field data.productGuid: product %s does not exist in this e-shop.", guid)
		}
	}
	it["productGuid"], it["_known"] = nullIfEmpty(guid), false
	return nil
}

// syncCompletion keeps the completion entry of an item in step.
func syncCompletion(o, it map[string]any) {
	id, _ := intOf(it["itemId"])
	list, _ := o["completion"].([]any)
	for _, c := range list {
		if m, ok := c.(map[string]any); ok {
			if n, _ := intOf(m["itemId"]); n == id {
				m["amount"], m["code"], m["name"] = it["amount"], it["code"], it["name"]
			}
		}
	}
}

// removeItem deletes an item and every list entry pointing at it.
func (sh *Shop) removeItem(o, it map[string]any) error {
	amt, _ := decimal.NewFromString(str(it["amount"]))
	if err := sh.itemStock(o, it, amt.Neg()); err != nil {
		return err
	}
	id, _ := intOf(it["itemId"])
	var kept []map[string]any
	for _, x := range items(o) {
		if n, _ := intOf(x["itemId"]); n != id {
			kept = append(kept, x)
		}
	}
	setItems(o, kept)
	for _, key := range []string{"completion", "paymentMethods", "shippings"} {
		list, _ := o[key].([]any)
		out := []any{}
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				if n, _ := intOf(m["itemId"]); n == id {
					continue
				}
			}
			out = append(out, v)
		}
		o[key] = out
	}
	Recompute(o)
	return nil
}

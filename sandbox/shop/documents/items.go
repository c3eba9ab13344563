package documents

import (
	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// prepareItem prices a document item from the request's unit
// price: price is with VAT unless includingVat is false, priceRatio
// multiplies it, amount counts it; every sum keeps 2 decimal places.
func prepareItem(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	if create {
		for key, def := range map[string]any{"itemType": "product", "amount": "1.000", "priceRatio": "1.0000"} {
			if rec[key] == nil {
				rec[key] = def
			}
		}
	}
	_, hasPrice := orig["price"]
	_, hasRate := orig["vatRate"]
	_, hasAmount := orig["amount"]
	if !create && !hasPrice && !hasRate && !hasAmount {
		return nil
	}
	unit, _ := rec["unitPrice"].(map[string]any)
	rate := decOr(text(orig["vatRate"]), decOr(text(unit["vatRate"]), decimal.NewFromInt(21)))
	incl := true
	if b, ok := orig["includingVat"].(bool); ok {
		incl = b
	}
	var with, without decimal.Decimal
	switch {
	case hasPrice:
		p, err := sandbox.ParseDecimal(text(orig["price"]))
		if err != nil {
			return sandbox.Invalid("data.price", "Field data.price: %v.", err)
		}
		with, without = split(p, rate, incl)
	default:
		with = decOr(text(unit["withVat"]), decimal.Zero)
		without = with.Div(decimal.NewFromInt(1).Add(rate.Div(decimal.NewFromInt(100)))).Round(2)
	}
	amount := decOr(text(rec["amount"]), decimal.NewFromInt(1))
	ratio := decOr(text(rec["priceRatio"]), decimal.NewFromInt(1))
	rs := rate.StringFixed(2)
	rec["unitPrice"] = priceObj(with, without, rs)
	tw := with.Mul(amount).Mul(ratio).Round(2)
	tn := without.Mul(amount).Mul(ratio).Round(2)
	rec["itemPrice"] = priceObj(tw, tn, rs)
	return nil
}

// split gives a unit price with and without VAT from the one the request
// sent.
func split(p, rate decimal.Decimal, includingVat bool) (with, without decimal.Decimal) {
	f := decimal.NewFromInt(1).Add(rate.Div(decimal.NewFromInt(100)))
	if includingVat {
		return p.Round(2), p.Div(f).Round(2)
	}
	return p.Mul(f).Round(2), p.Round(2)
}

func priceObj(with, without decimal.Decimal, rate string) map[string]any {
	return map[string]any{"withVat": with.StringFixed(2), "withoutVat": without.StringFixed(2),
		"vat": with.Sub(without).StringFixed(2), "vatRate": rate}
}

func decOr(s string, def decimal.Decimal) decimal.Decimal {
	if d, err := decimal.NewFromString(s); err == nil {
		return d
	}
	return def
}

// totals sums a document's items into its price.
func totals(c *crud.Ctx, doc map[string]any) {
	items, _ := doc["items"].([]any)
	var with, without decimal.Decimal
	for _, it := range items {
		m, _ := it.(map[string]any)
		ip, _ := m["itemPrice"].(map[string]any)
		with = with.Add(decOr(text(ip["withVat"]), decimal.Zero))
		without = without.Add(decOr(text(ip["withoutVat"]), decimal.Zero))
	}
	price, _ := doc["price"].(map[string]any)
	if price == nil {
		price = map[string]any{}
		doc["price"] = price
	}
	price["withVat"] = with.StringFixed(2)
	price["withoutVat"] = without.StringFixed(2)
	price["vat"] = with.Sub(without).StringFixed(2)
	price["toPay"] = with.StringFixed(2)
}

// text is a request or record field that holds a string, else "" (a
// number sent for a price is not read as one).
func text(v any) string { s, _ := v.(string); return s }

package orders

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// itemRecord builds an order item in the reference's OrderItem shape.
// Texts the request leaves out come from the product when it is known
// (name, variant, brand, EAN, weight, unit, image, flags, supplier,
// warranty, stock location). Sandbox metadata: "_ownStatus" (the item
// came with its own status) and "_known" (the code is a product of the
// e-shop, so it moves stock).
func (sh *Shop) itemRecord(it *rules.Item, id int64, st rules.Status, p *Product, stockID int64, pm, sm map[string]any) map[string]any {
	f := it.Fields
	text := func(key string, fallback any) any {
		if v := strings.TrimSpace(str(f[key])); v != "" {
			return v
		}
		return fallback
	}
	var v gjson.Result
	product := func(field, path string) gjson.Result {
		if p == nil {
			return gjson.Result{}
		}
		return p.Get(field, path)
	}
	if p != nil {
		v = p.Variant
	}
	// The variant's fields in one pass over it (each Get is one).
	vf := fieldsOf(v, "weight", "unit", "ean", "name")
	vWeight, vUnit, vEAN, vName := vf[0], vf[1], vf[2], vf[3]
	name := it.Name
	if name == "" {
		switch {
		case p != nil:
			name = product("name", "").String()
		case it.Type == rules.TypeShipping && sm != nil:
			name = str(sm["name"])
		case it.Type == rules.TypeBilling && pm != nil:
			name = str(pm["name"])
		case it.Code != "":
			name = it.Code
		default:
			name = defaultItemName[it.Type]
		}
	}
	goods := rules.IsGoods(it.Type)
	weight := "0.000"
	if w := str(f["weight"]); w != "" {
		if d, err := decimal.NewFromString(w); err == nil {
			weight = rules.Amount3(d)
		}
	} else if vWeight.Exists() && vWeight.String() != "" {
		weight = vWeight.String()
	}
	var unit, completed any
	if goods {
		unit, completed = value(vUnit), "0.000"
		if d, err := decimal.NewFromString(str(f["amountCompleted"])); err == nil {
			completed = rules.Amount3(d)
		}
	}
	var mainImage, productType, ean any
	flags := []any{}
	var location any
	if p != nil {
		mainImage, productType, ean = p.MainImage(), value(product("type", "")), value(vEAN)
		for _, fl := range product("flags", "").Array() {
			flags = append(flags, map[string]any{"code": fl.Get("code").String(), "title": fl.Get("title").String(), "system": sh.flagSystem(fl.Get("code").String())})
		}
		location = sh.supplyLocation(stockID, it.Code)
	}
	breakdown := make([]any, len(it.Breakdown))
	for i, b := range it.Breakdown {
		breakdown[i] = b.Wire()
	}
	code := any(nil)
	if it.Code != "" {
		code = it.Code
	}
	guid := any(nil)
	switch {
	case p != nil:
		guid = p.GUID
	case it.ProductGUID != "":
		guid = it.ProductGUID
	}
	rec := map[string]any{
		"itemId": id, "itemType": it.Type, "code": code, "productGuid": guid, "name": name,
		"variantName": text("variantName", value(vName)), "brand": text("brand", value(product("brand", "name"))),
		"supplierName": text("supplierName", value(product("supplier", "name"))), "warrantyDescription": text("warrantyDescription", value(product("warranty", "description"))),
		"ean": ean, "productType": productType, "mainImage": mainImage, "productFlags": flags, "stockLocation": location,
		"amount": rules.Amount3(it.Pricing.Amount), "amountCompleted": completed, "amountUnit": text("amountUnit", unit),
		"priceRatio": rules.Ratio4(it.Pricing.Ratio), "unitPrice": it.Unit.Wire(), "itemPrice": it.Total.Wire(),
		"itemPriceVatBreakdown": breakdown, "displayPrices": breakdown,
		"purchasePrice": purchasePrice(f), "recyclingFee": nil, "consumptionTax": nil,
		"remark": f["remark"], "additionalField": f["additionalField"], "weight": weight,
		"status": st.Ref(), "surchargeParameters": []any{}, "specificSurchargeParameters": []any{}, "surchargeParametersTexts": []any{},
		"_ownStatus": it.StatusID != nil, "_known": p != nil, "_pricing": it.Pricing.Record(),
	}
	return rec
}

var defaultItemName = map[string]string{
	rules.TypeShipping: "Shipping", rules.TypeBilling: "Payment", rules.TypeDiscountCoupon: "Discount coupon", rules.TypeVolumeDiscount: "Volume discount",
	rules.TypeGiftCertificate: "Gift certificate", rules.TypeGenericItem: "Item", rules.TypeProductSetItem: "Product set item", rules.TypeDeposit: "Deposit",
}

// fieldsOf finds keys among the members of the object r in one pass:
// the value of each, the first of duplicates as Get finds it (zero when
// absent).
func fieldsOf(r gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	found := 0
	r.ForEach(func(k, val gjson.Result) bool {
		for i, key := range keys {
			if !out[i].Exists() && k.Str == key {
				out[i] = val
				found++
			}
		}
		return found < len(keys)
	})
	return out
}

// value is a gjson result as a JSON value (nil when absent).
func value(r gjson.Result) any {
	if !r.Exists() || r.Type == gjson.Null {
		return nil
	}
	return r.Value()
}

// purchasePrice reads the buying price an item may carry.
func purchasePrice(f map[string]any) any {
	rate, err := decimal.NewFromString(str(f["buyPriceVatRate"]))
	if err != nil {
		rate, err = decimal.NewFromString(str(f["vatRate"]))
		if err != nil {
			return nil
		}
	}
	if g, err := decimal.NewFromString(str(f["buyPriceWithVat"])); err == nil {
		if n, err := decimal.NewFromString(str(f["buyPriceWithoutVat"])); err == nil {
			return rules.Both(g, n, rate).Wire()
		}
		return rules.FromGross(g, rate).Wire()
	}
	if n, err := decimal.NewFromString(str(f["buyPriceWithoutVat"])); err == nil {
		return rules.FromNet(n, rate).Wire()
	}
	return nil
}

// flagSystem tells whether a product flag is one of the system flags.
func (sh *Shop) flagSystem(code string) bool {
	raw, err := sh.Tx.GetShared(sh.ID, "flags", code)
	if err != nil {
		return false
	}
	return sharedGet(raw, "system").Bool()
}

// supplyLocation is where a variant lies in a stock.
func (sh *Shop) supplyLocation(stockID int64, code string) any {
	sid := strconv.FormatInt(stockID, 10)
	raw, err := sh.Tx.GetShared(sh.ID, StocksCollection, sid)
	if err != nil {
		return nil
	}
	if s, ok := sh.supplyIndex(sid, raw).supply(code); ok {
		return value(s.Get("location"))
	}
	return nil
}

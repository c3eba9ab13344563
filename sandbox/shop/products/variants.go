package products

import (
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// variantField maps one field of a product request's variant onto the
// variant record for the fields that name other records or hold them in
// another shape (the reference's request and answer differ there):
// consumptionTaxId and recyclingFeeId become the tax and fee objects,
// measureUnit gets the units' names, stocksLocations become the
// variant's amounts per stock. ok is false for any other field.
func variantField(c *crud.Ctx, v map[string]any, key string, val any, field, product string) (bool, error) {
	switch key {
	case "consumptionTaxId":
		tax, err := refRecord(c, "consumption-taxes", val, field+"."+key, "consumption tax")
		if err != nil || tax == nil {
			v["consumptionTax"] = nil
			return true, err
		}
		v["consumptionTax"] = map[string]any{"id": tax["id"], "name": tax["name"], "price": tax["price"], "currency": tax["currency"]}
	case "recyclingFeeId":
		fee, err := refRecord(c, "recycling-fee-categories", val, field+"."+key, "recycling fee category")
		if err != nil || fee == nil {
			v["recyclingFee"] = nil
			return true, err
		}
		v["recyclingFee"] = map[string]any{"id": fee["id"], "category": fee["category"], "fee": fee["fee"], "currency": fee["currency"], "unit": fee["unit"]}
	case "measureUnit":
		mu, err := measureUnit(c, val, field+".measureUnit")
		if err != nil {
			return true, err
		}
		v["measureUnit"] = mu
	case "stocksLocations":
		return true, stocksLocations(c, v, val, field+".stocksLocations", product)
	default:
		return false, nil
	}
	return true, nil
}

// refRecord finds the record an id of a request names (nil for a null
// id); an unknown id answers 404 naming the field.
func refRecord(c *crud.Ctx, resource string, id any, field, what string) (map[string]any, error) {
	if id == nil {
		return nil, nil
	}
	k, err := c.CollOf(resource)
	if err != nil {
		return nil, err
	}
	_, rec, err := k.Find(crud.IDString(id))
	if err != nil {
		return nil, sandbox.NotFound(field, "Field %s: %s %s does not exist in this e-shop.", field, what, crud.IDString(id))
	}
	return rec, nil
}

// measureUnit is a variant's measure and packaging as the answer shows
// them: the amounts, the unit ids and their names.
func measureUnit(c *crud.Ctx, val any, field string) (any, error) {
	req, ok := val.(map[string]any)
	if !ok {
		return nil, nil
	}
	out := map[string]any{"measureAmount": req["measureAmount"], "measureUnitId": req["measureUnitId"], "measureUnitName": nil,
		"packagingAmount": req["packagingAmount"], "packagingUnitId": req["packagingUnitId"], "packagingUnitName": nil, "measurePrice": nil}
	mu, err := refRecord(c, "measure-units", req["measureUnitId"], field+".measureUnitId", "measure unit")
	if err != nil {
		return nil, err
	}
	if mu != nil {
		out["measureUnitName"] = mu["unitName"]
	}
	pu, err := refRecord(c, "units", req["packagingUnitId"], field+".packagingUnitId", "unit")
	if err != nil {
		return nil, err
	}
	if pu != nil {
		out["packagingUnitName"] = pu["name"]
	}
	return out, nil
}

// stocksLocations records where the variant lies in each stock named
// (and, on create, how much of it is there): the variant's amount per
// stock, kept equal to the stock's own supply of the code.
func stocksLocations(c *crud.Ctx, v map[string]any, val any, field, product string) error {
	list, _ := val.([]any)
	per := asList(v["perStockAmounts"])
	stocks, err := c.CollOf("stocks")
	if err != nil {
		return err
	}
	for i, e := range list {
		req, _ := e.(map[string]any)
		at := field + "[" + strconv.Itoa(i) + "]"
		sid, stock, err := stocks.Find(crud.IDString(req["stockId"]))
		if err != nil {
			return sandbox.NotFound(at+".stockId", "Field %s.stockId: stock %s does not exist in this e-shop.", at, crud.IDString(req["stockId"]))
		}
		var entry map[string]any
		for _, p := range per {
			if m, ok := p.(map[string]any); ok && crud.IDString(m["stockId"]) == sid {
				entry = m
			}
		}
		if entry == nil {
			entry = map[string]any{"stockId": stock["id"], "amount": "0.000", "claim": "0.000", "lastAmountUpdate": nil}
			per = append(per, entry)
		}
		entry["location"] = req["location"]
		if a, ok := req["amount"]; ok && a != nil {
			entry["amount"], entry["lastAmountUpdate"] = a, c.Now()
		}
		if err := supply(c, stocks, sid, stock, v, entry, product); err != nil {
			return err
		}
	}
	v["perStockAmounts"] = per
	return nil
}

// supply writes a variant's amount and location in a stock into the
// stock's supplies, which GET /api/stocks/{stockId}/supplies lists.
func supply(c *crud.Ctx, stocks *crud.Coll, sid string, stock, v, entry map[string]any, product string) error {
	code := crud.IDString(v["code"])
	sup := asList(stock["_supplies"])
	var s map[string]any
	for _, x := range sup {
		if m, ok := x.(map[string]any); ok && crud.IDString(m["code"]) == code {
			s = m
		}
	}
	if s == nil {
		s = map[string]any{"code": code, "claim": "0.000", "productGuid": product, "location": nil}
		sup = append(sup, s)
	}
	s["amount"], s["location"], s["changeTime"] = entry["amount"], entry["location"], c.Now()
	stock["_supplies"] = sup
	return stocks.Save(sid, stock, crud.Synced)
}

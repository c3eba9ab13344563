package products

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// preparePrice puts a price row's flat priceWithVat and priceWithoutVat
// (as PATCH /api/pricelists/{id} names them) into its price object.
func preparePrice(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	for _, f := range []string{"priceWithVat", "priceWithoutVat"} {
		v, ok := orig[f]
		if !ok {
			continue
		}
		price, _ := rec["price"].(map[string]any)
		if price == nil {
			price = map[string]any{}
			rec["price"] = price
		}
		price[f] = v
	}
	return nil
}

// dropPrices removes a deleted product's rows from every price list,
// through the price rows' own delete (a price list keeps no row of a
// product that is gone).
func dropPrices(c *crud.Ctx, _ *crud.Coll, guid string) error {
	lists, err := c.CollOf("pricelists")
	if err != nil {
		return err
	}
	recs, err := lists.All(func(doc []byte) bool { return crud.FieldEquals(doc, "_prices.#._productGuid", guid) })
	if err != nil {
		return err
	}
	for _, list := range recs {
		k, err := c.CollIn(c.Row("pricelists/prices"), crud.IDString(list["id"]))
		if err != nil {
			return err
		}
		for _, el := range k.Elements() {
			m, _ := el.(map[string]any)
			if str(m["_productGuid"]) != guid {
				continue
			}
			if _, err := c.DeleteOne(k, crud.IDString(m["code"])); err != nil {
				return err
			}
		}
		if err := k.Flush(); err != nil {
			return err
		}
	}
	return nil
}

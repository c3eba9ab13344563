package crud

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

func str(v any) string { s, _ := v.(string); return s }

// prepareURLNamed gives a record without an index name one made from its
// name (or title), and a URL on the e-shop made from the index name.
func prepareURLNamed(nameField string) Prepare {
	return func(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
		if str(rec["indexName"]) == "" && k.E().recordNode(k.Row).HasProp("indexName") {
			rec["indexName"] = sandbox.Slug(str(rec[nameField]))
		}
		if str(rec["url"]) == "" && k.E().recordNode(k.Row).HasProp("url") {
			rec["url"] = "{eshop_url}/" + sandbox.Slug(str(rec[nameField])) + "/"
		}
		if p := str(rec["parentGuid"]); p != "" && k.Row.Name == "categories" {
			if _, _, err := k.Find(p); err != nil {
				return sandbox.NotFound("data.parentGuid", "Field data.parentGuid: category %q does not exist in this e-shop.", p)
			}
		}
		return nil
	}
}

// prepareNow stamps a date-time field with the sandbox time when the
// request leaves it out.
func prepareNow(field string) Prepare {
	return func(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
		if create && rec[field] == nil {
			rec[field] = c.Now()
		}
		return nil
	}
}

func prepareBrand(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if str(rec["indexName"]) == "" {
		rec["indexName"] = idString(rec["code"])
	}
	return nil
}

func prepareCustomer(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if create {
		if acc, ok := orig["account"].(map[string]any); ok {
			a := clone(acc).(map[string]any)
			a["guid"] = c.Gen.UUID()
			if a["mainAccount"] == nil {
				a["mainAccount"] = true
			}
			rec["accounts"] = []any{a}
		}
		if rec["priceRatio"] == nil {
			rec["priceRatio"] = "1.0000"
		}
	}
	if str(rec["adminUrl"]) == "" {
		rec["adminUrl"] = "{eshop_url}/admin/customers/" + idString(rec["guid"]) + "/"
	}
	if v, ok := orig["disabledOrders"].(bool); ok && !create {
		if v {
			c.Emit("customer:disableOrders", idString(rec["guid"]))
		} else {
			c.Emit("customer:enableOrders", idString(rec["guid"]))
		}
	}
	return nil
}

func prepareAccount(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if create && rec["mainAccount"] == nil {
		rec["mainAccount"] = len(k.elements()) == 0
	}
	return nil
}

func prepareCustomerGroup(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if create && str(rec["customerGroupCode"]) == "" {
		rec["customerGroupCode"] = strings.ToUpper(strings.ReplaceAll(sandbox.Slug(str(rec["name"])), "-", "_"))
	}
	return nil
}

// prepareGroupCodes turns customerGroupCodes into the customerGroups
// the discount shows.
func prepareGroupCodes(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if codes, ok := orig["customerGroupCodes"].([]any); ok {
		groups, err := c.Coll(c.Row("customer-groups"))
		if err != nil {
			return err
		}
		var out []any
		for i, code := range codes {
			_, g, err := groups.Find(idString(code))
			if err != nil {
				return sandbox.NotFound("data.customerGroupCodes["+strconv.Itoa(i)+"]",
					"Field data.customerGroupCodes[%d]: customer group %q does not exist in this e-shop.", i, idString(code))
			}
			out = append(out, map[string]any{"code": g["customerGroupCode"], "name": g["name"]})
		}
		rec["customerGroups"] = out
	}
	if active, ok := rec["isActive"].(bool); ok && k.Row.Name == "quantity-discounts" {
		if active {
			rec["status"] = "active"
		} else {
			rec["status"] = "inactive"
		}
	}
	if k.E().recordNode(k.Row).HasProp("timeUnlimited") {
		rec["timeUnlimited"] = rec["validTo"] == nil
	}
	return nil
}

// prepareCouponTemplate gives the template's product flags their titles.
func prepareCouponTemplate(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	flags, ok := orig["productFlags"].([]any)
	if !ok {
		return nil
	}
	fk, err := c.Coll(c.Row("flags"))
	if err != nil {
		return err
	}
	var out []any
	for i, f := range flags {
		m, _ := f.(map[string]any)
		_, flag, err := fk.Find(str(m["code"]))
		if err != nil {
			return sandbox.NotFound("data.productFlags["+strconv.Itoa(i)+"]", "Field data.productFlags[%d]: flag %q does not exist in this e-shop.", i, str(m["code"]))
		}
		out = append(out, map[string]any{"code": flag["code"], "title": flag["title"], "condition": m["condition"]})
	}
	rec["productFlags"] = out
	return nil
}

// prepareProductReview names the reviewed product.
func prepareProductReview(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if g := str(orig["productGuid"]); g != "" {
		pk, err := c.Coll(c.Row("products"))
		if err != nil {
			return err
		}
		_, p, err := pk.Find(g)
		if err != nil {
			return sandbox.NotFound("data.productGuid", "Field data.productGuid: product %q does not exist in this e-shop.", g)
		}
		rec["productName"] = p["name"]
	}
	if create {
		if rec["date"] == nil {
			rec["date"] = c.Now()
		}
		if rec["visible"] == nil {
			rec["visible"] = true
		}
	}
	return nil
}

func prepareShippingMethod(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if code := str(orig["shippingMethodCode"]); code != "" {
		rec["shippingCompany"] = map[string]any{"code": code, "id": json.Number("0"), "name": code}
	}
	if logo, ok := orig["logo"].(map[string]any); ok && str(logo["filename"]) != "" {
		rec["logoUrl"] = "{eshop_url}/user/shipping/" + str(logo["filename"])
	}
	if create && rec["visible"] == nil {
		rec["visible"] = false
	}
	return nil
}

// E returns the engine a collection belongs to.
func (k *Coll) E() *Engine { return k.c.E }

package crud

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/products"
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

// prepareParameter turns the request's googleMapping string into the
// answer's {value, description} and gives new values their ids.
func prepareParameter(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if v, ok := orig["googleMapping"]; ok {
		if s, _ := v.(string); s != "" {
			rec["googleMapping"] = map[string]any{"value": s, "description": nil}
		} else {
			rec["googleMapping"] = nil
		}
	}
	if vals, ok := rec["values"].([]any); ok && create {
		for i, v := range vals {
			m, _ := v.(map[string]any)
			if m == nil {
				continue
			}
			if k.Row.Name == "surcharge-parameters" && m["description"] == nil {
				m["description"] = m["name"]
			}
			if str(m["valueIndex"]) == "" {
				label := str(m["name"])
				if label == "" {
					label = str(m["description"])
				}
				m["valueIndex"] = sandbox.Slug(label)
			}
			if m["priority"] == nil {
				m["priority"] = json.Number(strconv.Itoa(i + 1))
			}
			if m["id"] == nil {
				n, err := c.nextValueID(k)
				if err != nil {
					return err
				}
				m["id"] = n
			}
		}
	}
	return nil
}

// prepareSurcharge is prepareParameter plus the surcharge parameter
// rules of the spec's table (products.ApplySurchargeUpdate), on create
// and update alike: a create names the parameter; the defaults (required
// false, includingVat true, the e-shop's currency) hold when a field is
// absent or null; a new name renames the code; the currency must be the
// e-shop's. With a language, the texts and the code went into the
// translation, where they follow the same text rules
// (products.CheckSurchargeTexts), and only the other fields follow the
// rest.
func prepareSurcharge(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if err := prepareParameter(c, k, rec, orig, create); err != nil {
		return err
	}
	if _, named := orig["name"]; create && !named {
		// The code is made from the name; a parameter without one would
		// be stored with an empty name and a made-up code.
		return sandbox.Invalid("name", "Field name is required: a surcharge parameter's code is made from it.")
	}
	data := orig
	if c.Esh.Language != "" && !create {
		texts := map[string]any{}
		data = map[string]any{}
		for f, v := range orig {
			if k.Row.LangField(f) || f == k.Row.IDField {
				texts[f] = v
			} else {
				data[f] = v
			}
		}
		if err := products.CheckSurchargeTexts(texts); err != nil {
			return err
		}
	}
	_, err := products.ApplySurchargeUpdate(rec, data, c.Esh.Meta)
	return err
}

// nextValueID numbers a parameter's values across the e-shop.
func (c *Ctx) nextValueID(k *Coll) (json.Number, error) {
	n, err := k.NextNumber("values.#.id")
	return json.Number(strconv.FormatInt(n, 10)), err
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

// prepareProductLink checks that an alternative or related product
// exists and is not the product itself, and numbers it after the others.
func prepareProductLink(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	g := idString(rec["guid"])
	if g == k.ParentID {
		return sandbox.Invalid("data.guid", "A product cannot be linked to itself.")
	}
	pk, err := c.Coll(c.Row("products"))
	if err != nil {
		return err
	}
	_, p, err := pk.Find(g)
	if err != nil {
		return sandbox.NotFound("data.guid", "Field guid: product %q does not exist in this e-shop.", g)
	}
	if rec["visibility"] == nil {
		rec["visibility"] = p["visibility"]
	}
	if rec["linkType"] == nil {
		rec["linkType"] = "unidirectional"
	}
	if rec["priority"] == nil {
		rec["priority"] = json.Number(strconv.Itoa(len(k.elements()) + 1))
	}
	return nil
}

// variantOwner finds the product holding a variant code.
func (c *Ctx) variantOwner(code, field string) (map[string]any, error) {
	pk, err := c.Coll(c.Row("products"))
	if err != nil {
		return nil, err
	}
	recs, err := pk.All(func(doc []byte) bool { return fieldEquals(doc, "variants.#.code", code) })
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, sandbox.NotFound(field, "Field %s: no product variant has code %q in this e-shop.", field, code)
	}
	return recs[0], nil
}

func prepareGift(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if _, err := c.variantOwner(idString(rec["code"]), "data.giftCode"); err != nil {
		return err
	}
	if rec["priority"] == nil {
		rec["priority"] = json.Number(strconv.Itoa(len(k.elements()) + 1))
	}
	return nil
}

func prepareSetItem(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	p, err := c.variantOwner(idString(rec["code"]), "data.code")
	if err != nil {
		return err
	}
	rec["guid"] = p["guid"]
	if rec["amount"] == nil {
		rec["amount"] = "1.000"
	}
	return nil
}

func prepareRelatedFile(c *Ctx, k *Coll, rec, orig map[string]any, create bool) error {
	if name := str(orig["sourceFileName"]); name != "" {
		rec["url"] = "{eshop_url}/user/related_files/" + name
	}
	if d := str(orig["description"]); d != "" {
		rec["name"] = d
	} else if rec["name"] == nil {
		rec["name"] = orig["sourceFileName"]
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

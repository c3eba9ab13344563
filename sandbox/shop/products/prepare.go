package products

import (
	"encoding/json"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// prepareProduct maps a product request onto the product record: the
// variants (availability and unit ids become objects, codes must be
// unique in the e-shop), flags (the whole list, then flagsManagement's
// additions and removals), filtering and surcharge parameters named by
// code, the index name and URL from the name, and the default category
// from the categories.
func prepareProduct(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
	if create {
		if rec["type"] == nil {
			rec["type"] = "product"
		}
		if rec["visibility"] == nil {
			rec["visibility"] = "visible"
		}
	}
	if str(rec["indexName"]) == "" {
		rec["indexName"] = sandbox.Slug(str(rec["name"]))
	}
	if str(rec["url"]) == "" {
		rec["url"] = "{eshop_url}/" + str(rec["indexName"]) + "/"
	}
	if rec["defaultCategory"] == nil {
		if cats, _ := rec["categories"].([]any); len(cats) > 0 {
			first, _ := cats[0].(map[string]any)
			rec["defaultCategory"] = map[string]any{"guid": first["guid"], "name": first["name"], "visible": true}
		} else {
			rec["defaultCategory"] = map[string]any{"guid": nil, "name": nil, "visible": nil}
		}
	}
	if v, ok := orig["variants"].([]any); ok {
		vars, err := productVariants(c, k, rec, v)
		if err != nil {
			return err
		}
		rec["variants"] = vars
		// The request's variants are the last ones (the others are kept).
		named := map[string]bool{}
		for _, x := range vars[len(vars)-len(v):] {
			named[crud.IDString(x.(map[string]any)["code"])] = true
		}
		variantEvents(c, vars, named)
	}
	if f, ok := orig["flags"].([]any); ok {
		out, err := codeList(c, "flags", "data.flags", f, func(req, found map[string]any) map[string]any {
			return map[string]any{"code": found["code"], "title": found["title"], "dateFrom": req["dateFrom"], "dateTo": req["dateTo"]}
		})
		if err != nil {
			return err
		}
		rec["flags"] = out
	}
	if fm, ok := orig["flagsManagement"].([]any); ok {
		out, err := manageFlags(c, asList(rec["flags"]), fm)
		if err != nil {
			return err
		}
		rec["flags"] = out
	}
	delete(rec, "flagsManagement")
	for _, p := range []struct{ field, res string }{{"filteringParameters", "filtering-parameters"}, {"surchargeParameters", "surcharge-parameters"}} {
		list, ok := orig[p.field].([]any)
		if !ok {
			continue
		}
		out, err := codeList(c, p.res, "data."+p.field, list, pickValues)
		if err != nil {
			return err
		}
		rec[p.field] = out
	}
	return nil
}

// pickValues keeps, of a parameter, the values the request names
// (by valueIndex); no list keeps them all. A surcharge value named as an
// object may set its price and visibility for this product.
func pickValues(req, found map[string]any) map[string]any {
	out := crud.Clone(found).(map[string]any)
	delete(out, "id")
	names, ok := req["values"].([]any)
	if !ok {
		return out
	}
	want := map[string]map[string]any{}
	for _, n := range names {
		m, isObj := n.(map[string]any)
		if isObj {
			n = m["valueIndex"]
		}
		want[crud.IDString(n)] = m
	}
	all, _ := out["values"].([]any)
	var keep []any
	for _, v := range all {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		named, ok := want[crud.IDString(m["valueIndex"])]
		if !ok {
			continue
		}
		for _, k := range []string{"price", "visible"} {
			if x, set := named[k]; set {
				m[k] = x
			}
		}
		keep = append(keep, m)
	}
	out["values"] = keep
	return out
}

// negativeStock turns the request's negativeStockAllowed (true, false or
// null) into the answer's word: "yes", "no", or "default" (the e-shop's
// setting decides).
func negativeStock(v any) any {
	switch v {
	case true:
		return "yes"
	case false:
		return "no"
	case nil:
		return "default"
	}
	return v
}

// codeList resolves a list of {code, ...} entries against a resource.
func codeList(c *crud.Ctx, res, field string, list []any, build func(req, found map[string]any) map[string]any) ([]any, error) {
	k, err := c.Coll(c.Row(res))
	if err != nil {
		return nil, err
	}
	out := make([]any, 0, len(list))
	for i, e := range list {
		m, _ := e.(map[string]any)
		code := crud.IDString(m["code"])
		_, found, err := k.Find(code)
		if err != nil {
			return nil, sandbox.NotFound(field+"["+strconv.Itoa(i)+"]", "Field %s[%d]: %s %q does not exist in this e-shop.", field, i, lowerFirst(crud.Singular(res)), code)
		}
		shown, err := c.Render(found)
		if err != nil {
			return nil, err
		}
		out = append(out, build(m, shown))
	}
	return out, nil
}

// productVariants maps the request's variants onto the record's: a
// variant with a code the product has is merged into it, a new code is
// added, and (a PATCH being a merge) variants the request does not name
// stay; a variant leaves only through DELETE /api/products/code/{code}.
func productVariants(c *crud.Ctx, k *crud.Coll, rec map[string]any, list []any) ([]any, error) {
	old := map[string]map[string]any{}
	if prev, ok := c.Prev()["variants"].([]any); ok {
		for _, v := range prev {
			if m, ok := v.(map[string]any); ok {
				old[crud.IDString(m["code"])] = m
			}
		}
	}
	avail, err := c.Coll(c.Row("availabilities"))
	if err != nil {
		return nil, err
	}
	units, err := c.Coll(c.Row("units"))
	if err != nil {
		return nil, err
	}
	var out []any
	seen := map[string]bool{}
	named := map[string]bool{}
	for _, e := range list {
		if req, ok := e.(map[string]any); ok {
			named[str(req["code"])] = true
		}
	}
	for _, v := range asList(c.Prev()["variants"]) {
		if m, ok := v.(map[string]any); ok && !named[crud.IDString(m["code"])] {
			out = append(out, m)
		}
	}
	for i, e := range list {
		req, _ := e.(map[string]any)
		field := "data.variants[" + strconv.Itoa(i) + "]"
		code := str(req["code"])
		if code == "" {
			n, err := k.NextNumber("variants.#.code")
			if err != nil {
				return nil, err
			}
			code = "SBX-" + strconv.FormatInt(n, 10)
		}
		if seen[code] {
			return nil, sandbox.Conflict(field+".code", "Variant code %q appears twice in the request.", code)
		}
		seen[code] = true
		if owner, err := variantOwner(c, code, field+".code"); err == nil && crud.IDString(owner["guid"]) != crud.IDString(rec["guid"]) {
			return nil, sandbox.Conflict(field+".code", "Variant code %q is already used by product %s.", code, crud.IDString(owner["guid"]))
		}
		v := map[string]any{}
		if o := old[code]; o != nil {
			v = o
		}
		v["code"] = code
		for key, val := range req {
			if done, err := variantField(c, v, key, val, field, crud.IDString(rec["guid"])); done || err != nil {
				if err != nil {
					return nil, err
				}
				continue
			}
			switch key {
			case "availabilityId", "availabilityWhenSoldOutId":
				into := "availability"
				if key == "availabilityWhenSoldOutId" {
					into = "availabilityWhenSoldOut"
				}
				if val == nil {
					v[into] = nil
					continue
				}
				_, a, err := avail.Find(crud.IDString(val))
				if err != nil {
					return nil, sandbox.NotFound(field+"."+key, "Field %s.%s: availability %s does not exist in this e-shop.", field, key, crud.IDString(val))
				}
				v[into] = map[string]any{"id": a["id"], "name": a["name"]}
			case "negativeStockAllowed":
				v[key] = negativeStock(val)
			case "unitId":
				if val == nil {
					v["unit"] = nil
					continue
				}
				_, u, err := units.Find(crud.IDString(val))
				if err != nil {
					return nil, sandbox.NotFound(field+".unitId", "Field %s.unitId: unit %s does not exist in this e-shop.", field, crud.IDString(val))
				}
				v["unit"] = u["name"]
			default:
				v[key] = val
			}
		}
		v["code"] = code
		if v["vatRate"] == nil {
			v["vatRate"] = "21.00"
		}
		if v["includingVat"] == nil {
			v["includingVat"] = true
		}
		if v["visible"] == nil {
			v["visible"] = true
		}
		if v["currencyCode"] == nil {
			v["currencyCode"] = c.Esh.Meta.DefaultCurrency
		}
		if v["negativeStockAllowed"] == nil {
			v["negativeStockAllowed"] = "default"
		}
		if v["amountDecimalPlaces"] == nil {
			v["amountDecimalPlaces"] = json.Number("0")
		}
		out = append(out, v)
	}
	return out, nil
}

// variantEvents emits the beta productVariant events of a variants write
// (spec, Events: the identifier is the variant code): create for a new
// code, update for a code the product had, delete for a code it lost.
// Creates and updates concern only the codes the request named.
func variantEvents(c *crud.Ctx, vars []any, named map[string]bool) {
	before := map[string]bool{}
	for _, v := range asList(c.Prev()["variants"]) {
		if m, ok := v.(map[string]any); ok {
			before[crud.IDString(m["code"])] = true
		}
	}
	now := map[string]bool{}
	for _, v := range vars {
		code := crud.IDString(v.(map[string]any)["code"])
		now[code] = true
		if !named[code] {
			continue
		}
		if before[code] {
			c.Emit("productVariant:update", code)
		} else {
			c.Emit("productVariant:create", code)
		}
	}
	for _, v := range asList(c.Prev()["variants"]) {
		if m, ok := v.(map[string]any); ok && !now[crud.IDString(m["code"])] {
			c.Emit("productVariant:delete", crud.IDString(m["code"]))
		}
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// Actions of a product request's flagsManagement entries.
const (
	flagAdd    = "add"    // set the flag (with its dates), keeping the others
	flagRemove = "remove" // take the flag off, keeping the others
)

// manageFlags applies flagsManagement to a product's flags: each entry
// adds (or re-dates) or removes one flag by code, leaving the others, in
// order. A code no flag has answers 404, another action 422, both naming
// the entry.
func manageFlags(c *crud.Ctx, flags, entries []any) ([]any, error) {
	k, err := c.Coll(c.Row("flags"))
	if err != nil {
		return nil, err
	}
	out := append([]any{}, flags...)
	for i, e := range entries {
		m, _ := e.(map[string]any)
		field := "data.flagsManagement[" + strconv.Itoa(i) + "]"
		code := crud.IDString(m["code"])
		_, found, err := k.Find(code)
		if err != nil {
			return nil, sandbox.NotFound(field+".code", "Field %s.code: flag %q does not exist in this e-shop.", field, code)
		}
		kept := out[:0:0]
		for _, f := range out {
			if fm, ok := f.(map[string]any); !ok || crud.IDString(fm["code"]) != code {
				kept = append(kept, f)
			}
		}
		switch str(m["action"]) {
		case flagAdd:
			out = append(kept, map[string]any{"code": found["code"], "title": found["title"], "dateFrom": m["dateFrom"], "dateTo": m["dateTo"]})
		case flagRemove:
			out = kept
		default:
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, field+".action", "Field %s.action must be %q or %q.", field, flagAdd, flagRemove)
		}
	}
	return out, nil
}

package products

import (
	"encoding/json"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// prepareParameter turns the request's googleMapping string into the
// answer's {value, description} and gives new values their ids.
func prepareParameter(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
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
				n, err := nextValueID(c, k)
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
// rules of the spec's table (ApplySurchargeUpdate), on create
// and update alike: a create names the parameter; the defaults (required
// false, includingVat true, the e-shop's currency) hold when a field is
// absent or null; a new name renames the code; the currency must be the
// e-shop's. With a language, the texts and the code went into the
// translation, where they follow the same text rules
// (CheckSurchargeTexts), and only the other fields follow the
// rest.
func prepareSurcharge(c *crud.Ctx, k *crud.Coll, rec, orig map[string]any, create bool) error {
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
		if err := CheckSurchargeTexts(texts); err != nil {
			return err
		}
	}
	_, err := ApplySurchargeUpdate(rec, data, c.Esh.Meta)
	return err
}

// nextValueID numbers a parameter's values across the e-shop.
func nextValueID(c *crud.Ctx, k *crud.Coll) (json.Number, error) {
	n, err := k.NextNumber("values.#.id")
	return json.Number(strconv.FormatInt(n, 10)), err
}

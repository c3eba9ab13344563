package catalog

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// parameterTypes are the kinds of parameters a parametric category may
// filter by, with the collections holding them.
var parameterTypes = []struct{ typ, coll, code, name string }{
	{"filtering", "filtering-parameters", "code", "name"},
	{"variant", "variant-parameters", "paramIndex", "paramName"},
}

// availableParameters answers GET /api/parametric-categories-available-parameters/{categoryGuid}:
// the e-shop's filtering and variant parameters a parametric category
// can use.
func (h *handlers) availableParameters(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		pc, err := c.CollOf("parametric-categories")
		if err != nil {
			return err
		}
		guid, cat, err := pc.Find(r.Var("categoryGuid"))
		if err != nil {
			return err
		}
		shown, err := c.Render(cat)
		if err != nil {
			return err
		}
		var params []any
		for _, t := range parameterTypes {
			k, err := c.CollOf(t.coll)
			if err != nil {
				return err
			}
			recs, err := k.All(nil)
			if err != nil {
				return err
			}
			for _, rec := range recs {
				p, err := c.Render(rec)
				if err != nil {
					return err
				}
				params = append(params, map[string]any{"parameterCode": p[t.code], "parameterName": p[t.name], "parameterType": t.typ})
			}
		}
		out = c.Answer(map[string]any{"categoryGuid": guid, "categoryName": shown["name"], "parameters": params})
		return nil
	})
	return out, err
}

// defineParametric answers POST /api/parametric-categories-definition:
// the parametric category filters by the named parameters, every value
// of each.
func (h *handlers) defineParametric(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	guid, _ := data["categoryGuid"].(string)
	list, _ := data["parameters"].([]any)
	err = h.e.Update(r, func(c *crud.Ctx) error {
		pc, err := c.CollOf("parametric-categories")
		if err != nil {
			return err
		}
		id, cat, err := pc.Find(guid)
		if err != nil {
			return sandbox.NotFound("data.categoryGuid", "Field data.categoryGuid: parametric category %q does not exist in this e-shop.", guid)
		}
		var out []any
		for i, p := range list {
			m, _ := p.(map[string]any)
			code, _ := m["parameterCode"].(string)
			entries, err := parameterEntries(c, code)
			if err != nil {
				return sandbox.NotFound("data.parameters", "Field data.parameters[%d]: no filtering or variant parameter has code %q.", i, code)
			}
			out = append(out, entries...)
		}
		cat["parameters"] = out
		return pc.Save(id, cat, crud.Edited)
	})
	return nil, err
}

// parameterEntries lists a parameter's values as parametric category
// entries.
func parameterEntries(c *crud.Ctx, code string) ([]any, error) {
	for _, t := range parameterTypes {
		k, err := c.CollOf(t.coll)
		if err != nil {
			return nil, err
		}
		_, rec, err := k.Find(code)
		if err != nil {
			continue
		}
		p, err := c.Render(rec)
		if err != nil {
			return nil, err
		}
		vals, _ := p["values"].([]any)
		var out []any
		for _, v := range vals {
			vm, _ := v.(map[string]any)
			vcode, vname := vm["valueIndex"], vm["name"]
			if t.typ == "variant" {
				vcode, vname = vm["rawValue"], vm["paramValue"]
			}
			out = append(out, map[string]any{"parameterCode": p[t.code], "parameterName": p[t.name], "valueCode": vcode, "valueName": vname})
		}
		return out, nil
	}
	return nil, sandbox.ErrNotFound
}

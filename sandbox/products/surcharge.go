// Package products holds the product-area behaviour the generic table
// cannot express: surcharge parameters, whose code follows their name and
// whose defaults depend on the e-shop.
package products

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// SurchargeCollection is the store collection of surcharge parameters.
const SurchargeCollection = "surcharge-parameters"

// Handlers returns the product-area handlers keyed by operation.
func Handlers(st *store.Store, site *eshop.Site) map[string]api.HandlerFunc {
	h := &handlers{st: st, site: site}
	return map[string]api.HandlerFunc{
		"UpdateSurchargeParameter": h.updateSurcharge,
	}
}

type handlers struct {
	st   *store.Store
	site *eshop.Site
}

// surchargeFields are the fields of data.surchargeParameter, all required
// keys in the response.
var surchargeFields = []string{"id", "code", "name", "displayName", "description", "priority", "required", "currency", "includingVat", "googleMapping"}

// updateSurcharge answers PATCH /api/products/surcharge-parameters/{code}
// with the spec's rules: every field optional; a new name without a code
// regenerates the code from the name; an explicit code must be
// URL-friendly and unused; currency defaults to the e-shop's default and
// must be one of its currencies; required defaults to false and
// includingVat to true; googleMapping is sent as a string and answered as
// {value, description}. After a code change only the new code works.
func (h *handlers) updateSurcharge(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data, _ := body["data"].(map[string]any)
	if data == nil {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Field data: an object with the fields to change is required.")
	}
	code := r.Var("code")
	var out map[string]any
	err = h.st.Update(func(tx *store.Tx) error {
		c, err := eshop.NewContext(tx, r, h.site)
		if err != nil {
			return err
		}
		raw, err := tx.Get(r.Eshop, SurchargeCollection, code)
		if errors.Is(err, sandbox.ErrNotFound) {
			return sandbox.NotFound(code, "Surcharge parameter %q does not exist in this e-shop.", code)
		}
		if err != nil {
			return err
		}
		rec, err := api.DecodeObject(raw)
		if err != nil {
			return err
		}
		newCode, err := applySurcharge(rec, data, c.Meta)
		if err != nil {
			return err
		}
		if newCode != code {
			if tx.Exists(r.Eshop, SurchargeCollection, newCode) {
				return sandbox.Conflict("code", "Surcharge parameter code %q is already used by another parameter.", newCode)
			}
			if err := tx.Delete(r.Eshop, SurchargeCollection, code); err != nil {
				return err
			}
		}
		enc, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if _, err := tx.Put(r.Eshop, SurchargeCollection, newCode, enc); err != nil {
			return err
		}
		shown, err := api.Render(enc, c.View())
		if err != nil {
			return err
		}
		out = make(map[string]any, len(surchargeFields))
		for _, f := range surchargeFields {
			out[f] = shown[f]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"surchargeParameter": out}, nil
}

// applySurcharge merges an update into a stored surcharge parameter and
// returns its (possibly new) code. It is pure so the rules are table-tested.
func applySurcharge(rec, data map[string]any, meta *eshop.Meta) (string, error) {
	for _, f := range []string{"displayName", "description", "priority"} {
		if v, ok := data[f]; ok {
			rec[f] = v
		}
	}
	if v, ok := data["name"]; ok {
		name, _ := v.(string)
		if name == "" {
			return "", sandbox.Invalid("name", "Field name must not be empty.")
		}
		rec["name"] = name
	}
	code, _ := rec["code"].(string)
	if v, ok := data["code"]; ok && v != nil {
		c, _ := v.(string)
		if !ValidCode(c) {
			return "", sandbox.Invalid("code", "Field code %q is not URL-friendly: use lower-case letters, digits and dashes (e.g. %q).", c, Slug(c))
		}
		code = c
	} else if _, named := data["name"]; named {
		code = Slug(rec["name"].(string))
		if code == "" {
			return "", sandbox.Invalid("name", "Field name %q gives no URL-friendly code; send code explicitly.", rec["name"])
		}
	}
	rec["code"] = code
	if v, ok := data["currency"]; ok {
		cur, _ := v.(string)
		if v == nil || cur == "" {
			cur = meta.DefaultCurrency
		}
		if !meta.HasCurrency(cur) {
			return "", sandbox.Invalid("currency", "Currency %q is not a currency of this e-shop (%v).", cur, meta.Currencies)
		}
		rec["currency"] = cur
	}
	if rec["currency"] == nil {
		rec["currency"] = meta.DefaultCurrency
	}
	for f, def := range map[string]bool{"required": false, "includingVat": true} {
		if v, ok := data[f]; ok && v != nil {
			rec[f] = v
		}
		if rec[f] == nil {
			rec[f] = def
		}
	}
	if v, ok := data["googleMapping"]; ok {
		switch s := v.(type) {
		case nil:
			rec["googleMapping"] = nil
		case string:
			if s == "" {
				rec["googleMapping"] = nil
			} else {
				rec["googleMapping"] = map[string]any{"value": s, "description": nil}
			}
		default:
			return "", sandbox.Invalid("googleMapping", "Field googleMapping must be a string or null, not %v.", fmt.Sprint(v))
		}
	}
	return code, nil
}

// Package products holds the product-area rules the generic table cannot
// state. Hooks hands them to the generic write path (sandbox/core/crud):
// how a product request maps onto the product record (variants, flags,
// parameters, addresses), the filtering and surcharge parameters (whose
// surcharge code follows its name and whose defaults depend on the
// e-shop), the products a product links to, and its price rows.
package products

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
)

// ApplySurchargeUpdate applies the spec's rules of PATCH
// /api/products/surcharge-parameters/{code} to a stored parameter, and
// its table's defaults to a new one (POST): every field optional; a new name without a code regenerates the code from the
// name; an explicit code must be URL-friendly; currency defaults to the
// e-shop's default and must be one of its currencies; required defaults
// to false and includingVat to true; googleMapping is sent as a string and
// kept as {value, description}. It returns the (possibly new) code; the
// caller moves the record when it changed (a taken code answers 409).
// It is pure so the rules are table-tested.
func ApplySurchargeUpdate(rec, data map[string]any, meta *eshop.Meta) (string, error) {
	if err := CheckSurchargeTexts(data); err != nil {
		return "", err
	}
	for _, f := range []string{"displayName", "description", "priority"} {
		if v, ok := data[f]; ok {
			rec[f] = v
		}
	}
	if v, ok := data["name"]; ok {
		rec["name"] = v
	}
	code, _ := rec["code"].(string)
	if v, ok := data["code"]; ok && v != nil {
		code = v.(string)
	} else if _, named := data["name"]; named {
		code = sandbox.Slug(rec["name"].(string))
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

// CheckSurchargeTexts applies the surcharge table's rules for the name
// and the code to the fields of a write that has them, in the default
// language or in a translation (PATCH with language): a name must not be
// empty, a code given must be URL-friendly (null leaves it as it is).
func CheckSurchargeTexts(data map[string]any) error {
	if v, ok := data["name"]; ok {
		if name, _ := v.(string); name == "" {
			return sandbox.Invalid("name", "Field name must not be empty.")
		}
	}
	if v, ok := data["code"]; ok && v != nil {
		if c, _ := v.(string); !sandbox.ValidCode(c) {
			return sandbox.Invalid("code", "Field code %q is not URL-friendly: use lower-case letters, digits and dashes (e.g. %q).", c, sandbox.Slug(c))
		}
	}
	return nil
}

package crud

import (
	"errors"
	"slices"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
)

// listExtras fill the list-level fields some lists carry besides their
// items, keyed by operation.
var listExtras = map[string]ListExtra{
	"GetListOfStocks":                 stockDefaults,
	"GetListOfProductsAvailabilities": availabilityDefaults,
	"GetListOfShippingMethods":        shippingDefaults,
}

// stockDefaults names the default stock: the one marked "_default" in the
// fixtures, else the first.
func stockDefaults(c *Ctx, _ []map[string]any) (map[string]any, error) {
	k, err := c.Coll(c.Row("stocks"))
	if err != nil {
		return nil, err
	}
	recs, err := k.All(nil)
	if err != nil || len(recs) == 0 {
		return map[string]any{"defaultStockId": nil}, err
	}
	def := recs[0]["id"]
	for _, r := range recs {
		if b, _ := r["_default"].(bool); b {
			def = r["id"]
			break
		}
	}
	return map[string]any{"defaultStockId": def}, nil
}

// availabilityDefaults reads the default availabilities from the
// "availabilities" settings document.
func availabilityDefaults(c *Ctx, _ []map[string]any) (map[string]any, error) {
	doc, err := c.Setting("availabilities")
	if err != nil {
		return nil, err
	}
	return map[string]any{"defaultAvailabilities": doc}, nil
}

// shippingDefaults names the default retail and wholesale methods (the
// records marked "_default") and the e-shop's wholesale switches.
func shippingDefaults(c *Ctx, _ []map[string]any) (map[string]any, error) {
	k, err := c.Coll(c.Row("shipping-methods"))
	if err != nil {
		return nil, err
	}
	recs, err := k.All(nil)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"defaultRetailMethod": nil, "defaultWholesaleMethod": nil}
	for _, r := range recs {
		if b, _ := r["_default"].(bool); !b {
			continue
		}
		if w, _ := r["wholesale"].(bool); w {
			out["defaultWholesaleMethod"] = r["guid"]
		} else {
			out["defaultRetailMethod"] = r["guid"]
		}
	}
	info, err := c.EshopInfo()
	if err != nil {
		return nil, err
	}
	settings, _ := info["settings"].(map[string]any)
	split, _ := settings["wholesaleSplitActive"].(bool)
	out["wholesaleSplitActive"] = split
	out["wholesaleActive"] = HasModule(info, "wholesale")
	return out, nil
}

// EshopInfo is the e-shop's information (data of GET /api/eshop).
func (c *Ctx) EshopInfo() (map[string]any, error) {
	return c.Esh.Single(c.Tx, c.R.Eshop, "info")
}

// Setting returns a settings document ("_id" in the settings collection),
// rendered; nil when the e-shop has none.
func (c *Ctx) Setting(id string) (map[string]any, error) {
	raw, err := c.Tx.Get(c.R.Eshop, "settings", id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return api.Render(raw, c.Esh.View())
}

// HasModule reports whether the e-shop runs an active module.
func HasModule(info map[string]any, name string) bool {
	mods, _ := info["activeModules"].([]any)
	return slices.ContainsFunc(mods, func(m any) bool {
		mm, _ := m.(map[string]any)
		return mm["name"] == name
	})
}

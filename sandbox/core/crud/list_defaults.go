package crud

// ListDefaults adds the list-level fields some lists answer besides their
// items (defaultStockId, defaultAvailabilities, ...); the hook table
// binds one to a List operation.
type ListDefaults func(c *Ctx, items []map[string]any) (map[string]any, error)

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

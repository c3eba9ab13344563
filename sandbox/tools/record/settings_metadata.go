package record

// The files and metadata the generic tables do not cover: each reads the
// endpoint the sandbox serves the file through.

// settings records the settings documents (settings.json), each under the
// _id its endpoint answers, plus the default availabilities.
func (rec *recorder) settings() error {
	var docs []map[string]any
	for _, op := range rec.plan.Settings {
		d, err := rec.r.data(rec.plan.Paths[op.Operation])
		if err != nil {
			if rec.skip(rowSettings+" ("+op.Fixed+")", err) {
				continue
			}
			return err
		}
		d["_id"] = op.Fixed
		docs = append(docs, d)
	}
	d, err := rec.r.data("/api/products/availabilities")
	switch {
	case err == nil:
		if def, ok := d["defaultAvailabilities"].(map[string]any); ok {
			def["_id"] = "availabilities"
			docs = append(docs, def)
		}
	case !rec.skip(rowSettings+" (availabilities)", err):
		return err
	}
	rec.put(rowSettings, docs, false)
	return nil
}

// paymentMethods records GET /api/payment-methods, marking the default
// retail and wholesale methods.
func (rec *recorder) paymentMethods() error {
	d, err := rec.r.data("/api/payment-methods")
	if err != nil {
		if rec.skip(rowPaymentMethods, err) {
			return nil
		}
		return err
	}
	items, err := itemsOf(d, "paymentMethods", "/api/payment-methods")
	if err != nil {
		return err
	}
	recs := objects(items)
	markDefaults(recs, "guid", d["defaultRetailMethod"], d["defaultWholesaleMethod"])
	truncated := len(recs) > rec.opt.Max
	if truncated {
		recs = recs[:rec.opt.Max]
	}
	rec.put(rowPaymentMethods, recs, truncated)
	return nil
}

// orderHistory records the history of every recorded order, each entry
// with its order's code.
func (rec *recorder) orderHistory() error {
	orders := rec.files["orders"]
	per := make([][]map[string]any, len(orders))
	err := each(len(orders), func(i int) error {
		code := str(orders[i]["code"])
		path := fill("/api/orders/{code}/history", map[string]string{"code": code})
		d, err := rec.r.data(path)
		if err != nil {
			return err
		}
		items, err := itemsOf(d, "orderHistory", path)
		if err != nil {
			return err
		}
		for _, h := range objects(items) {
			h["orderCode"] = code
			per[i] = append(per[i], h)
		}
		return nil
	})
	if err != nil {
		if rec.skip(rowOrderHistory, err) {
			return nil
		}
		return err
	}
	recs, cut := flattenCut(per, rec.opt.Max)
	rec.put(rowOrderHistory, recs, cut)
	return nil
}

// stockMovements records the movements of every recorded stock, each with
// its stock's id.
func (rec *recorder) stockMovements() error {
	stocks := rec.files["stocks"]
	per := make([][]map[string]any, len(stocks))
	truncated := false
	err := each(len(stocks), func(i int) error {
		id := str(stocks[i]["id"])
		items, more, err := rec.r.list(fill("/api/stocks/{stockId}/movements", map[string]string{"stockId": id}), "movements", true, rec.opt.Max)
		if err != nil {
			return err
		}
		if more {
			rec.mu.Lock()
			truncated = true
			rec.mu.Unlock()
		}
		for _, m := range objects(items) {
			m["_stockId"] = stocks[i]["id"]
			per[i] = append(per[i], m)
		}
		return nil
	})
	if err != nil {
		if rec.skip(rowStockMovements, err) {
			return nil
		}
		return err
	}
	recs, cut := flattenCut(per, rec.opt.Max)
	rec.put(rowStockMovements, recs, truncated || cut)
	return nil
}

// children fills each parent record's metadata array (a price list's
// _prices, a stock's _supplies, a mailing list's _emails) from its list
// endpoint, at most Max entries a parent.
func (rec *recorder) children() error {
	for _, ch := range rec.plan.Children {
		parents := rec.files[ch.Parent]
		if len(parents) == 0 {
			continue
		}
		prow, _ := rec.reg.Resource(ch.Parent)
		guids := rec.productOfCode()
		err := each(len(parents), func(i int) error {
			id := str(parents[i][prow.IDField])
			items, _, err := rec.r.list(fill(ch.Path, map[string]string{ch.Var: id}), ch.List.Key, ch.List.Paged(), rec.opt.Max)
			if err != nil {
				return err
			}
			out := objects(items)
			if ch.Row.Parent.Field == "_prices" {
				for _, p := range out {
					if g, ok := guids[str(p["code"])]; ok {
						p["_productGuid"] = g
					}
				}
			}
			arr := make([]any, len(out))
			for j, o := range out {
				arr[j] = o
			}
			rec.mu.Lock()
			parents[i][ch.Row.Parent.Field] = arr
			rec.mu.Unlock()
			return nil
		})
		if err != nil && !rec.skip(ch.Parent+" ("+ch.Row.Parent.Field+")", err) {
			return err
		}
	}
	return nil
}

// productOfCode maps every recorded variant code to its product's guid
// (a price list's rows name the code; the sandbox filters them by guid).
func (rec *recorder) productOfCode() map[string]any {
	out := map[string]any{}
	for _, p := range rec.files["products"] {
		if c := str(p["code"]); c != "" {
			out[c] = p["guid"]
		}
		vs, _ := p["variants"].([]any)
		for _, v := range objects(vs) {
			if c := str(v["code"]); c != "" {
				out[c] = p["guid"]
			}
		}
	}
	return out
}

// carriers reads each recorded carrier's detail (its addresses and bank
// accounts) into its record, and keeps its default address as the
// _address the sandbox puts on the shipments it creates.
func (rec *recorder) carriers() error {
	carriers := rec.files["carriers"]
	err := each(len(carriers), func(i int) error {
		c := carriers[i]
		path := fill("/api/shipments/carriers/{code}/{type}", map[string]string{"code": str(c["code"]), "type": str(c["type"])})
		d, err := rec.r.data(path)
		if err != nil {
			if gone(err) {
				return nil
			}
			return err
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, k := range []string{"addresses", "bankAccounts"} {
			if v, ok := d[k]; ok {
				c[k] = v
			}
		}
		addrs, _ := d["addresses"].([]any)
		for _, a := range objects(addrs) {
			if a["isDefault"] == true || c["_address"] == nil {
				c["_address"] = a
			}
		}
		return nil
	})
	if err != nil && !rec.skip("carriers (addresses)", err) {
		return err
	}
	return nil
}

// defaults marks the default stock and the default shipping methods,
// which their lists name.
func (rec *recorder) defaults() error {
	for _, s := range []struct {
		file, path, idField string
		keys                []string
	}{
		{"stocks", "/api/stocks", "id", []string{"defaultStockId"}},
		{"shipping-methods", "/api/shipping-methods", "guid", []string{"defaultRetailMethod", "defaultWholesaleMethod"}},
	} {
		if len(rec.files[s.file]) == 0 {
			continue
		}
		d, err := rec.r.data(s.path)
		if err != nil {
			if rec.skip(s.file+" (defaults)", err) {
				continue
			}
			return err
		}
		var ids []any
		for _, k := range s.keys {
			ids = append(ids, d[k])
		}
		markDefaults(rec.files[s.file], s.idField, ids...)
	}
	return nil
}

// markDefaults sets _default on the records whose id is one of ids.
func markDefaults(recs []map[string]any, idField string, ids ...any) {
	for _, r := range recs {
		for _, id := range ids {
			if id != nil && str(id) != "" && str(r[idField]) == str(id) {
				r["_default"] = true
			}
		}
	}
}

// objects keeps the object items of a list.
func objects(items []any) []map[string]any {
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// flattenCut joins per-parent records in parent order, at most max;
// cut says some were left out.
func flattenCut(per [][]map[string]any, max int) ([]map[string]any, bool) {
	var out []map[string]any
	for _, p := range per {
		for _, r := range p {
			if len(out) == max {
				return out, true
			}
			out = append(out, r)
		}
	}
	return out, false
}

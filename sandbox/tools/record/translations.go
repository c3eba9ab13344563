package record

import (
	"reflect"
	"strings"
)

// listed is a table's list as the recording read it in the default
// language: the list items and, at the same index, the record kept (nil
// where it vanished before its detail was read).
type listed struct {
	items []any
	recs  []map[string]any
}

// languages are the e-shop's languages besides its default, when its
// foreign-languages module is active (without it, language changes
// nothing).
func (rec *recorder) languages() []string {
	info := rec.singles["eshop"]
	active := false
	mods, _ := info["activeModules"].([]any)
	for _, m := range mods {
		if mm, _ := m.(map[string]any); str(mm["name"]) == "foreignLanguages" {
			active = true
		}
	}
	if !active {
		return nil
	}
	var out []string
	langs, _ := info["languages"].([]any)
	for _, l := range langs {
		lm, _ := l.(map[string]any)
		if code := str(lm["code"]); code != "" && lm["isDefault"] != true {
			out = append(out, code)
		}
	}
	return out
}

// translations reads, in each further language of the e-shop, every
// recorded table whose records hold a text a language version may hold
// (registry.Resource.LangField), the order statuses and the payment
// methods, and keeps what the upstream answers differently from the
// default language as the record's _translations.<language>: the overlay
// the sandbox applies when a call selects that language.
func (rec *recorder) translations() error {
	langs := rec.languages()
	for _, t := range rec.plan.Tables {
		got := rec.lists[t.Row.Name]
		if got == nil || !hasLangField(t, got.recs) {
			continue
		}
		for _, lang := range langs {
			if err := rec.translate(t, got, lang); err != nil {
				if rec.skip(t.Row.Name+" (language "+lang+")", err) {
					continue
				}
				return err
			}
		}
	}
	for _, lang := range langs {
		if err := rec.translateStatuses(lang); err != nil {
			return err
		}
		if err := rec.translatePaymentMethods(lang); err != nil {
			return err
		}
	}
	return nil
}

// translateStatuses reads the order statuses in a language: their names
// differ, the rest is the same document.
func (rec *recorder) translateStatuses(lang string) error {
	d := rec.singles["order-statuses"]
	if d == nil {
		return nil
	}
	v, err := rec.r.data(withQuery("/api/orders/statuses", "language", lang))
	if err != nil {
		if rec.skip("order-statuses (language "+lang+")", err) {
			return nil
		}
		return err
	}
	setTranslation(d, lang, translation(d, v))
	return nil
}

// translatePaymentMethods reads the payment methods in a language; each
// recorded method is matched by its guid.
func (rec *recorder) translatePaymentMethods(lang string) error {
	recs := rec.files[rowPaymentMethods]
	if len(recs) == 0 {
		return nil
	}
	path := withQuery("/api/payment-methods", "language", lang)
	d, err := rec.r.data(path)
	if err != nil {
		if rec.skip(rowPaymentMethods+" (language "+lang+")", err) {
			return nil
		}
		return err
	}
	items, err := itemsOf(d, "paymentMethods", path)
	if err != nil {
		return err
	}
	byGUID := map[string]map[string]any{}
	for _, it := range objects(items) {
		byGUID[str(it["guid"])] = it
	}
	for _, r := range recs {
		if v := byGUID[str(r["guid"])]; v != nil && str(r["guid"]) != "" {
			setTranslation(r, lang, translation(r, v))
		}
	}
	return nil
}

// setTranslation keeps a record's language version (nothing when tr,
// what the language changes, is nil).
func setTranslation(r map[string]any, lang string, tr any) {
	m, _ := tr.(map[string]any)
	if m == nil {
		return
	}
	trs, _ := r["_translations"].(map[string]any)
	if trs == nil {
		trs = map[string]any{}
		r["_translations"] = trs
	}
	trs[lang] = m
}

func hasLangField(t table, recs []map[string]any) bool {
	for _, r := range recs {
		for k := range r {
			if t.Row.LangField(k) {
				return true
			}
		}
	}
	return false
}

// translate reads one table in one language: its list, and each record's
// detail through the identifier the list gives in that language (a
// parameter's code may be translated). A record is matched by its place
// in the list, and for a row whose identifier is not translated also by
// that identifier, so a list that changed between the reads translates
// nothing wrongly.
func (rec *recorder) translate(t table, got *listed, lang string) error {
	listInclude := ""
	if t.Detail == nil {
		listInclude = t.Include
	}
	items, _, err := rec.r.list(t.ListPath, t.List.Key, t.List.Paged(), rec.opt.Max, "include", listInclude, "language", lang)
	if err != nil {
		return err
	}
	n := min(len(items), len(got.items))
	return each(n, func(i int) error {
		r := got.recs[i]
		item, _ := items[i].(map[string]any)
		def, _ := got.items[i].(map[string]any)
		if r == nil || item == nil || def == nil {
			return nil
		}
		id := idOf(t.Row, item)
		if id == "" || !t.Row.LangID && id != idOf(t.Row, def) {
			return nil
		}
		version := item
		if t.Detail != nil {
			path := withQuery(fill(t.DetailPath, map[string]string{t.Detail.Var: id}), "include", t.Include, "language", lang)
			d, err := rec.r.data(path)
			if err != nil {
				if gone(err) {
					return nil
				}
				return err
			}
			if version = detailRecord(d, t.Detail.Key, t.Row.IDField, id); version == nil {
				return nil
			}
			version = fillFrom(version, item)
		}
		setTranslation(r, lang, translation(r, version))
		return nil
	})
}

// translation is what a language version of a value changes: for an
// object the fields that differ, for a list of the same length the
// elements that differ (nil where one does not, as the sandbox's overlay
// merges lists element by element), else the version itself when it
// differs; nil when nothing does.
func translation(def, version any) any {
	switch v := version.(type) {
	case map[string]any:
		d, ok := def.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		for k, x := range v {
			if strings.HasPrefix(k, "_") {
				continue
			}
			if t := translation(d[k], x); t != nil {
				out[k] = t
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		d, ok := def.([]any)
		if !ok || len(d) != len(v) {
			if reflect.DeepEqual(def, version) {
				return nil
			}
			return v
		}
		out := make([]any, len(v))
		changed := false
		for i := range v {
			if out[i] = translation(d[i], v[i]); out[i] != nil {
				changed = true
			}
		}
		if !changed {
			return nil
		}
		return out
	}
	if reflect.DeepEqual(def, version) {
		return nil
	}
	return version
}

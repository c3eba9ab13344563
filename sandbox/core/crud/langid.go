package crud

import (
	"github.com/tidwall/gjson"
)

// The identifiers of some records (surcharge, filtering and variant
// parameters and their values) are given in the selected language
// variant (spec, common query parameters, rule 3). A record's identifier
// in a language is its translation's when the translation holds one, and
// its default one otherwise; with a language selected, only that
// identifier names the record, so a default-language code that was
// translated no longer finds it.

// langScoped reports whether the collection's identifiers are read in
// the request's language: the row says so and a language is selected.
func (k *Coll) langScoped() bool {
	return k.Row.LangID && k.c.Esh.Language != ""
}

// docID is a stored top-level record's identifier in the selected
// language.
func (k *Coll) docID(doc []byte) string {
	if k.langScoped() {
		v := gjson.GetBytes(doc, "_translations."+k.c.Esh.Language+"."+k.Row.IDField)
		if s := v.String(); v.Exists() && s != "" {
			return s
		}
	}
	return gjson.GetBytes(doc, k.Row.IDField).String()
}

// elemID is the identifier, in the selected language, of the embedded
// record at index i of its parent's list: an element's translation is
// the entry at the same index of the parent's translated list.
func (k *Coll) elemID(i int, m map[string]any) string {
	if k.langScoped() {
		if tm, _ := k.elemTranslations(false)[i].(map[string]any); tm != nil {
			if s := idString(tm[k.Row.IDField]); s != "" {
				return s
			}
		}
	}
	return idString(m[k.Row.IDField])
}

// elemTranslations is the parent's translated list of the elements in
// the selected language, index-aligned with the elements (nil entries
// where an element has no translation). With grow, a missing or short
// list is made and padded so the language overlay, which merges lists of
// equal length element by element, keeps applying.
func (k *Coll) elemTranslations(grow bool) []any {
	lang, field := k.c.Esh.Language, k.Row.Parent.Field
	if !grow {
		trs, _ := k.Parent["_translations"].(map[string]any)
		tr, _ := trs[lang].(map[string]any)
		list, _ := tr[field].([]any)
		if len(list) != len(k.elements()) {
			return make([]any, len(k.elements()))
		}
		return list
	}
	tr := translation(k.Parent, lang)
	list, _ := tr[field].([]any)
	n := len(k.elements())
	for len(list) < n {
		list = append(list, nil)
	}
	list = list[:n]
	tr[field] = list
	k.dirty = true
	return list
}

// translationOf is where a PATCH with language writes the record's
// texts: a top-level record's own translation, or for an embedded record
// the entry at its index in the parent's translated list.
func (k *Coll) translationOf(rec map[string]any, lang string) map[string]any {
	if k.Row.Parent == nil {
		return translation(rec, lang)
	}
	i := k.position(idString(rec[k.Row.IDField]))
	if i < 0 {
		return translation(rec, lang)
	}
	list := k.elemTranslations(true)
	tm, _ := list[i].(map[string]any)
	if tm == nil {
		tm = map[string]any{}
		list[i] = tm
	}
	return tm
}

// ownerInLanguage returns the canonical id of the record whose
// identifier in the selected language is id, if any: a translated
// identifier must be unique within its language as a default one is
// within the default.
func (k *Coll) ownerInLanguage(id string) (string, bool, error) {
	if k.Row.Parent != nil {
		for i, el := range k.elements() {
			if m, ok := el.(map[string]any); ok && k.elemID(i, m) == id {
				return idString(m[k.Row.IDField]), true, nil
			}
		}
		return "", false, nil
	}
	var owner string
	err := k.c.Tx.Scan(k.c.R.Eshop, k.Row.Name, func(rid string, doc []byte) bool {
		if k.docID(doc) == id {
			owner = rid
			return false
		}
		return true
	})
	return owner, owner != "", err
}

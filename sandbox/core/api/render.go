package api

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// View says how a stored record becomes a response object.
type View struct {
	Language string          // language variant to apply ("" = the default texts)
	Sections []string        // the record's include sections
	Include  map[string]bool // sections the client asked for; the others are null
	Fields   []string        // when set, only these top-level fields are kept (list items)
	BaseURL  string          // replaces {base_url}
	EshopURL string          // replaces {eshop_url}
}

// Render applies a View to a stored JSON document: placeholders are
// filled in, the language overlay applied, sandbox metadata (keys starting
// with "_") removed, sections not asked for set to null, and the fields
// projected.
func Render(doc []byte, v View) (map[string]any, error) {
	doc = Placeholders(doc, v.BaseURL, v.EshopURL)
	m, err := DecodeObject(doc)
	if err != nil {
		return nil, err
	}
	return Shape(m, v), nil
}

// Shape applies the non-byte parts of a View to a decoded document.
func Shape(m map[string]any, v View) map[string]any {
	if v.Language != "" {
		if tr, ok := m["_translations"].(map[string]any); ok {
			if over, ok := tr[v.Language].(map[string]any); ok {
				overlay(m, over)
			}
		}
	}
	StripMeta(m)
	for _, s := range v.Sections {
		if !v.Include[s] {
			m[s] = nil
		}
	}
	if v.Fields != nil {
		out := make(map[string]any, len(v.Fields))
		for _, f := range v.Fields {
			out[f] = m[f]
		}
		return out
	}
	return m
}

// Placeholders fills {base_url} and {eshop_url} in a stored document.
func Placeholders(doc []byte, base, eshop string) []byte {
	if bytes.IndexByte(doc, '{') < 0 || !bytes.Contains(doc, []byte("_url}")) {
		return doc
	}
	doc = bytes.ReplaceAll(doc, []byte("{eshop_url}"), []byte(jsonEscape(eshop)))
	return bytes.ReplaceAll(doc, []byte("{base_url}"), []byte(jsonEscape(base)))
}

func jsonEscape(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// DecodeObject parses a stored document, keeping numbers exact.
func DecodeObject(doc []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// overlay deep-merges a language variant's texts into the record.
func overlay(dst, src map[string]any) {
	for k, sv := range src {
		if sm, ok := sv.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				overlay(dm, sm)
				continue
			}
		}
		if sl, ok := sv.([]any); ok {
			if dl, ok := dst[k].([]any); ok && len(dl) == len(sl) {
				for i := range sl {
					sm, ok1 := sl[i].(map[string]any)
					dm, ok2 := dl[i].(map[string]any)
					if ok1 && ok2 {
						overlay(dm, sm)
					} else if sl[i] != nil {
						dl[i] = sl[i]
					}
				}
				continue
			}
		}
		dst[k] = sv
	}
}

// StripMeta removes sandbox metadata keys (starting with "_") at every
// depth, so they never reach a client.
func StripMeta(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if strings.HasPrefix(k, "_") {
				delete(t, k)
				continue
			}
			StripMeta(c)
		}
	case []any:
		for _, c := range t {
			StripMeta(c)
		}
	}
}

// Paginator is the list metadata the spec's paging rules describe.
type Paginator struct {
	TotalCount   int `json:"totalCount"`
	Page         int `json:"page"`
	PageCount    int `json:"pageCount"`
	ItemsOnPage  int `json:"itemsOnPage"`
	ItemsPerPage int `json:"itemsPerPage"`
}

// NewPaginator computes the paginator of one page.
func NewPaginator(total, page, perPage, onPage int) Paginator {
	pages := 0
	if perPage > 0 {
		pages = (total + perPage - 1) / perPage
	}
	return Paginator{TotalCount: total, Page: page, PageCount: pages, ItemsOnPage: onPage, ItemsPerPage: perPage}
}

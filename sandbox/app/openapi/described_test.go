package openapi_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// TestControlFieldsDescribed: every field of every answer and body in the
// control document has a description (from a doc tag, a Go comment via
// fielddocs.go, api.Doc for an ad-hoc answer, or the scenario schema).
func TestControlFieldsDescribed(t *testing.T) {
	raw := controlDocument(t)
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	miss := map[string]bool{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			if p, ok := x["properties"].(map[string]any); ok {
				for k, f := range p {
					if m, ok := f.(map[string]any); ok && m["description"] == nil {
						miss[path+"."+k] = true
					}
				}
			}
			for k, y := range x {
				walk(path+"/"+k, y)
			}
		case []any:
			for _, y := range x {
				walk(path, y)
			}
		}
	}
	walk("", doc)
	var keys []string
	for k := range miss {
		k = strings.ReplaceAll(k, "/properties/", ".")
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		t.Errorf("%d fields without a description:\n%s", len(keys), strings.Join(keys, "\n"))
	}
}

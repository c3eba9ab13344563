package orders

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/tidwall/gjson"
)

// TestEdits splices values into stored documents and checks the result
// against the same change made on the decoded document.
func TestEdits(t *testing.T) {
	const product = `{"_seq":3,"name":"Tent \u010cesk\u00fd","variants":[{"code":"A","stock":"5.000","perStockAmounts":[{"stockId":1,"amount":"5.000"}]},{"code":"B","perStockAmounts":[]},{ }],"tail":true}`
	tests := []struct {
		name string
		doc  string
		edit func(e *edits) error
		want func(m map[string]any)
	}{
		{"replace a value", product, func(e *edits) error {
			return e.set(gjson.GetBytes(e.doc, "variants.0"), "stock", "4.000")
		}, func(m map[string]any) { variant(m, 0)["stock"] = "4.000" }},
		{"add a key to an object", product, func(e *edits) error {
			return e.set(gjson.GetBytes(e.doc, "variants.1"), "stock", "1.000")
		}, func(m map[string]any) { variant(m, 1)["stock"] = "1.000" }},
		{"add a key to an empty object", product, func(e *edits) error {
			return e.set(gjson.GetBytes(e.doc, "variants.2"), "code", "C")
		}, func(m map[string]any) { variant(m, 2)["code"] = "C" }},
		{"append to an array", product, func(e *edits) error {
			return e.append(gjson.GetBytes(e.doc, "variants.0.perStockAmounts"), []any{map[string]any{"stockId": 2}})
		}, func(m map[string]any) {
			v := variant(m, 0)
			v["perStockAmounts"] = append(v["perStockAmounts"].([]any), map[string]any{"stockId": json.Number("2")})
		}},
		{"append to an empty array", product, func(e *edits) error {
			return e.append(gjson.GetBytes(e.doc, "variants.1.perStockAmounts"), []any{"x", "y"})
		}, func(m map[string]any) { variant(m, 1)["perStockAmounts"] = []any{"x", "y"} }},
		{"several edits, given in any order", product, func(e *edits) error {
			if err := e.set(e.root(), "tail", false); err != nil {
				return err
			}
			for _, v := range gjson.GetBytes(e.doc, "variants").Array() {
				if err := e.set(v, "seen", true); err != nil {
					return err
				}
			}
			return e.replace(gjson.GetBytes(e.doc, "name"), "Tent")
		}, func(m map[string]any) {
			m["tail"], m["name"] = false, "Tent"
			for i := range 3 {
				variant(m, i)["seen"] = true
			}
		}},
		{"add to the root", `{}`, func(e *edits) error { return e.set(e.root(), "_supplies", []any{}) },
			func(m map[string]any) { m["_supplies"] = []any{} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &edits{doc: []byte(tc.doc)}
			if err := tc.edit(e); err != nil {
				t.Fatal(err)
			}
			got := e.result()
			want := decodeAny(t, []byte(tc.doc))
			tc.want(want)
			if g := decodeAny(t, got); !reflect.DeepEqual(g, want) {
				t.Errorf("got %s\nwant %v", got, want)
			}
			if string(e.doc) != tc.doc {
				t.Errorf("the stored document changed: %s", e.doc)
			}
		})
	}
}

// TestEditsRefuseForeignPlaces: a place not read from the document is
// refused, never spliced at a wrong offset.
func TestEditsRefuseForeignPlaces(t *testing.T) {
	e := &edits{doc: []byte(`{"a":{"b":1},"c":[1]}`)}
	other := gjson.Parse(`{"x":{"b":2}}`).Get("x")
	if err := e.set(other, "b", 3); !errors.Is(err, errNotLocated) {
		t.Errorf("set on a foreign object: %v", err)
	}
	if err := e.replace(gjson.Parse(`[1]`), 2); !errors.Is(err, errNotLocated) {
		t.Errorf("replace of a foreign value: %v", err)
	}
	if err := e.append(gjson.GetBytes(e.doc, "a"), []any{1}); !errors.Is(err, errNotLocated) {
		t.Errorf("append to an object: %v", err)
	}
	if len(e.list) != 0 {
		t.Errorf("refused edits were kept: %v", e.list)
	}
}

func variant(m map[string]any, i int) map[string]any {
	return m["variants"].([]any)[i].(map[string]any)
}

func decodeAny(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	m, err := api.DecodeObject(doc)
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	return m
}

package fidelity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func shapeOf(t *testing.T, s string) Shape {
	t.Helper()
	v, err := decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return ShapeOf(v)
}

func TestCompareShapes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		up, sb    string
		diffs     []Difference
		noteParts []string
	}{
		{
			name: "same shape, other values",
			up:   `{"data":{"orders":[{"code":"1","price":"10.00","paid":true}]}}`,
			sb:   `{"data":{"orders":[{"code":"2","price":"99.00","paid":false},{"code":"3","price":"1.00","paid":true}]}}`,
		},
		{
			name:  "a field the sandbox misses, one it adds",
			up:    `{"data":{"orders":[{"code":"1","newField":{"a":1}}]}}`,
			sb:    `{"data":{"orders":[{"code":"1","legacy":true}]}}`,
			diffs: []Difference{{Kind: Extra, Path: "data.orders[].legacy", Sandbox: "boolean"}, {Kind: Missing, Path: "data.orders[].newField", Upstream: "object"}},
		},
		{
			name:  "another type",
			up:    `{"data":{"weight":"2.500","ids":[1,2]}}`,
			sb:    `{"data":{"weight":2.5,"ids":["1"]}}`,
			diffs: []Difference{{Kind: Type, Path: "data.ids[]", Upstream: "number", Sandbox: "string"}, {Kind: Type, Path: "data.weight", Upstream: "string", Sandbox: "number"}},
		},
		{
			name:      "null on one side is a note, not a difference",
			up:        `{"data":{"remark":"hello","phone":null}}`,
			sb:        `{"data":{"remark":null,"phone":null}}`,
			noteParts: []string{"data.remark: upstream string, sandbox null"},
		},
		{
			name:      "nothing is judged under an empty list or a null object",
			up:        `{"data":{"items":[{"code":"a","extra":1}],"address":{"street":"x"}}}`,
			sb:        `{"data":{"items":[],"address":null}}`,
			noteParts: []string{"data.address: upstream object, sandbox null"},
		},
		{
			name:  "a nullable field with values on both sides compares its non-null types",
			up:    `{"data":[{"v":null},{"v":"a"}]}`,
			sb:    `{"data":[{"v":3},{"v":null}]}`,
			diffs: []Difference{{Kind: Type, Path: "data[].v", Upstream: "string", Sandbox: "number"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs, notes := CompareShapes(shapeOf(t, tc.up), shapeOf(t, tc.sb))
			if !reflect.DeepEqual(diffs, tc.diffs) {
				got, _ := json.Marshal(diffs)
				want, _ := json.Marshal(tc.diffs)
				t.Errorf("differences\n got %s\nwant %s", got, want)
			}
			joined := strings.Join(notes, "\n")
			for _, n := range tc.noteParts {
				if !strings.Contains(joined, n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
			if len(tc.noteParts) == 0 && len(notes) > 0 {
				t.Errorf("unexpected notes %q", notes)
			}
		})
	}
}

package registry

import (
	"testing"
)

func TestFilters(t *testing.T) {
	doc := []byte(`{"visibility":"visible","code":"2025000010","creationTime":"2025-03-01T10:00:00+0100",
		"categories":[{"guid":"c1"},{"guid":"c2"}],"variants":[{"code":"A-1"},{"code":"A-2"}]}`)
	tests := []struct {
		name   string
		f      Filter
		value  string
		match  bool
		badArg bool
	}{
		{"equal hit", Filter{"visibility", "visibility", Equal}, "visible", true, false},
		{"equal miss", Filter{"visibility", "visibility", Equal}, "hidden", false, false},
		{"one of", Filter{"orderCodes", "code", OneOf}, "1, 2025000010", true, false},
		{"contains", Filter{"categoryGuid", "categories.#.guid", Contains}, "c2", true, false},
		{"contains miss", Filter{"categoryGuid", "categories.#.guid", Contains}, "c3", false, false},
		{"any of", Filter{"productCodes", "variants.#.code", AnyOf}, "X,A-2", true, false},
		{"time from", Filter{"creationTimeFrom", "creationTime", TimeFrom}, "2025-03-01T09:00:00+0000", true, false},
		{"time from after", Filter{"creationTimeFrom", "creationTime", TimeFrom}, "2025-03-01T09:00:01+0000", false, false},
		{"time to", Filter{"creationTimeTo", "creationTime", TimeTo}, "2025-03-01T10:00:00+0100", true, false},
		{"bad time", Filter{"creationTimeTo", "creationTime", TimeTo}, "yesterday", false, true},
		{"code from numeric", Filter{"codeFrom", "code", From}, "999", true, false},
		{"code to numeric", Filter{"codeTo", "code", To}, "999", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Compile([]Filter{tc.f}, func(q string) string {
				if q == tc.f.Query {
					return tc.value
				}
				return ""
			})
			if tc.badArg {
				if err == nil {
					t.Fatal("want error")
				}
				return
			}
			if err != nil || m == nil {
				t.Fatalf("compile: %v", err)
			}
			if got := m(doc); got != tc.match {
				t.Fatalf("match = %v, want %v", got, tc.match)
			}
		})
	}
	if m, err := Compile([]Filter{{"a", "a", Equal}}, func(string) string { return "" }); m != nil || err != nil {
		t.Fatal("no values should give no matcher")
	}
}

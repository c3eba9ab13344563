package tui

import "testing"

// TestQuerySyntax checks the filter language: text, negation, regular
// expressions (case-insensitive), every term required, and a bad
// expression matched as text rather than hiding every row.
func TestQuerySyntax(t *testing.T) {
	row := "POST /api/orders 201 CreateOrder 0000-0021 private  1001"
	tests := []struct {
		query string
		want  bool
		bad   string
	}{
		{"", true, ""},
		{"orders", true, ""},
		{"ORDERS", true, ""},
		{"brands", false, ""},
		{"!brands", true, ""},
		{"!orders", false, ""},
		{"orders 201", true, ""},
		{"orders 404", false, ""},
		{"~^post\\s/api/orders$", false, ""}, // the row goes on after the path
		{"~^post\\s/api/orders\\b", true, ""},
		{"!~^GET", true, ""},
		{"~^GET", false, ""},
		{"~20[01]", true, ""},
		{"~(", false, "~("}, // not an expression: looked for as the text "~("
		{"!", false, ""},    // a lone "!" is the text "!"
	}
	for _, tc := range tests {
		q := parseQuery(tc.query)
		if got := q.matchString(row); got != tc.want || q.bad != tc.bad {
			t.Errorf("%q: match %v bad %q, want %v %q", tc.query, got, q.bad, tc.want, tc.bad)
		}
	}
	if got := parseQuery("note !secret").lineMatches([]string{"a", `"note": 1`, "secret note", "x"}); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("lines %v: a negated term does not mark lines", got)
	}
	if !parseQuery("b !c").matchAny([]byte("a"), []byte("b")) || parseQuery("b !c").matchAny([]byte("b"), []byte("c")) {
		t.Fatal("matchAny reads the parts as one text")
	}
}

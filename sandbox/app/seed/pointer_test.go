package seed

import (
	"slices"
	"strings"
	"testing"
)

func TestOffsetOf(t *testing.T) {
	raw := []byte("{\n  \"a\": 1,\n  \"b\": {\n    \"c\": [10,\n      {\"d\": \"x\"}]\n  },\n  \"e\": null\n}")
	tests := map[string]int{
		"/a":       2,
		"/b":       3,
		"/b/c":     4,
		"/b/c/0":   4,
		"/b/c/1":   5,
		"/b/c/1/d": 5,
		"/e":       7,
	}
	for ptr, line := range tests {
		off := offsetOf(raw, ptr)
		if off < 0 {
			t.Errorf("%s: not found", ptr)
			continue
		}
		if got := lineAt(raw, off); got != line {
			t.Errorf("%s: line %d, want %d", ptr, got, line)
		}
	}
	if offsetOf(raw, "/zzz") != -1 || offsetOf(raw, "/b/c/5") != -1 {
		t.Error("missing pointer found")
	}
}

func TestSplitters(t *testing.T) {
	tests := []struct {
		in      string
		records []string
		lines   bool // in the line layout
	}{
		{"[\n{\"a\":1},\n{\"b\":\"x,]}\\\"\"}\n]\n", []string{`{"a":1}`, `{"b":"x,]}\""}`}, true},
		{"[\n{\"a\":[1,{\"c\":2}]}\n]\n", []string{`{"a":[1,{"c":2}]}`}, true},
		{"[{\"a\":1}, {\"b\":2}]", []string{`{"a":1}`, `{"b":2}`}, false},
		{"[\n  {\n \"a\": 1\n  }\n]", []string{"{\n \"a\": 1\n  }"}, false},
		{"[\n{\"a\":1},\n{\"b\":2},\n]\n", nil, false}, // a trailing comma is no layout
		{"[1, \"s\", null]", []string{"1", `"s"`, "null"}, false},
		{"[]", nil, false},
	}
	for _, tc := range tests {
		spans, ok := splitArray([]byte(tc.in))
		if tc.records != nil {
			var got []string
			for _, sp := range spans {
				got = append(got, tc.in[sp.start:sp.end])
			}
			if !ok || strings.Join(got, "|") != strings.Join(tc.records, "|") {
				t.Errorf("splitArray(%q) = %q %v, want %q", tc.in, got, ok, tc.records)
			}
		}
		lines, lok := splitLines([]byte(tc.in))
		if lok != tc.lines {
			t.Errorf("splitLines(%q) ok = %v, want %v", tc.in, lok, tc.lines)
		}
		if lok && !slices.Equal(lines, spans) {
			t.Errorf("splitLines(%q) = %v, splitArray %v", tc.in, lines, spans)
		}
	}
}

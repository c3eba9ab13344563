package rules

import (
	"encoding/json"
	"testing"
)

// TestValues reads decoded JSON the way the rules need it: text of
// strings and numbers, integers of numbers, status ids of both forms.
func TestValues(t *testing.T) {
	for _, tc := range []struct {
		v    any
		text string
		n    int64
		isN  bool
	}{
		{"abc", "abc", 0, false},
		{json.Number("12"), "12", 12, true},
		{json.Number("1.5"), "1.5", 0, false},
		{float64(3), "", 3, true},
		{int64(-4), "", -4, true},
		{true, "", 0, false},
		{nil, "", 0, false},
	} {
		if got := Text(tc.v); got != tc.text {
			t.Errorf("Text(%#v) = %q, want %q", tc.v, got, tc.text)
		}
		if n, ok := Int(tc.v); ok != tc.isN || n != tc.n {
			t.Errorf("Int(%#v) = %d, %v; want %d, %v", tc.v, n, ok, tc.n, tc.isN)
		}
	}
	for _, tc := range []struct {
		v    any
		want int
		ok   bool
	}{{json.Number("-2"), -2, true}, {" -2 ", -2, true}, {"7", 7, true}, {"x", 0, false}, {true, 0, false}} {
		id, err := StatusID(tc.v, "data.statusId")
		if (err == nil) != tc.ok || (tc.ok && *id != tc.want) {
			t.Errorf("StatusID(%#v) = %v, %v", tc.v, id, err)
		}
	}
	if id, err := StatusID(nil, "data.statusId"); id != nil || err != nil {
		t.Errorf("StatusID(nil) = %v, %v", id, err)
	}
	if NullIfEmpty("") != nil || NullIfEmpty("a") != "a" {
		t.Error("NullIfEmpty")
	}
}

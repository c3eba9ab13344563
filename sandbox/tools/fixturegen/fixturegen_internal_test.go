package fixturegen

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
)

// idFirst moves a compact record's identifier field to the front: what
// the generator wrote before it encoded records itself, and the reference
// appendRecord is held to.
func idFirst(rec []byte, field string) []byte {
	v := gjson.GetBytes(rec, field)
	key := `"` + field + `":`
	if field == "" || !v.Exists() || v.Index <= len(key)+1 {
		return rec
	}
	start, end := v.Index-len(key), v.Index+len(v.Raw)
	if string(rec[start:v.Index]) != key {
		return rec
	}
	// Drop the field and the comma on one side of it.
	if rec[end] == ',' {
		end++
	} else {
		start--
	}
	out := make([]byte, 0, len(rec)+1)
	out = append(out, '{')
	out = append(out, key...)
	out = append(out, v.Raw...)
	out = append(out, ',')
	out = append(out, rec[1:start]...)
	out = append(out, rec[end:]...)
	return out
}

// reference encodes v as encoding/json does (no HTML escaping), with the
// identifier moved first.
func reference(t testing.TB, v any, field string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(idFirst(bytes.TrimSuffix(b.Bytes(), []byte("\n")), field))
}

func TestIDFirst(t *testing.T) {
	tests := []struct{ in, field, want string }{
		{`{"a":1,"guid":"x","z":[1]}`, "guid", `{"guid":"x","a":1,"z":[1]}`},
		{`{"a":1,"b":{"guid":"in"},"guid":"x"}`, "guid", `{"guid":"x","a":1,"b":{"guid":"in"}}`},
		{`{"guid":"x","a":1}`, "guid", `{"guid":"x","a":1}`},
		{`{"a":1}`, "guid", `{"a":1}`},
		{`{"a":1,"id":7}`, "id", `{"id":7,"a":1}`},
		{`{"a":1,"id":7}`, "", `{"a":1,"id":7}`},
	}
	for _, tc := range tests {
		got := string(idFirst([]byte(tc.in), tc.field))
		if got != tc.want {
			t.Errorf("idFirst(%s, %q) = %s, want %s", tc.in, tc.field, got, tc.want)
		}
		var a, b any
		if json.Unmarshal([]byte(got), &a) != nil || json.Unmarshal([]byte(tc.in), &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("idFirst(%s) changed the record: %s", tc.in, got)
		}
		// appendRecord writes the same.
		dec := json.NewDecoder(strings.NewReader(tc.in))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		enc, err := appendRecord(nil, m, tc.field)
		if err != nil || string(enc) != tc.want {
			t.Errorf("appendRecord(%s, %q) = %s, %v, want %s", tc.in, tc.field, enc, err, tc.want)
		}
	}
}

// TestAppendRecordIsEncodingJSON: every record of the default fixture
// set, and values with every escape, encode byte for byte as
// encoding/json and idFirst write them.
func TestAppendRecordIsEncodingJSON(t *testing.T) {
	odd := map[string]any{
		"id": json.Number("12"), "s": "a\"b\\c\n\r\t\b\f\x01<>&\u2028\u2029 žluťoučký \xff", "n": nil, "t": true, "f": false,
		"i": 7, "i64": int64(-9), "fl": 1.5, "big": 1e21, "small": 1e-7, "num": json.Number("-0.50"), "empty": map[string]any{},
		"list": []any{}, "nilList": []any(nil), "nilMap": map[string]any(nil), "nested": []any{map[string]any{"b": 1, "a": []any{"x", nil}}},
		"raw": json.RawMessage(`{"z":1,"a":[2]}`), "ints": []int{1, 2},
	}
	for _, field := range []string{"id", "s", "", "missing"} {
		got, err := appendRecord(nil, odd, field)
		if want := reference(t, odd, field); err != nil || string(got) != want {
			t.Errorf("field %q:\n got %s %v\nwant %s", field, got, err, want)
		}
	}
	entries, err := fixtures.FS.ReadDir("eshops/1001")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".json")
		raw, err := fixtures.FS.ReadFile("eshops/1001/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		for _, r := range records(v) {
			got, err := appendRecord(nil, r, idFields[name])
			if want := reference(t, r, idFields[name]); err != nil || string(got) != want {
				t.Fatalf("%s:\n got %s %v\nwant %s", name, got, err, want)
			}
		}
	}
}

// TestAppendOrdered: a record encoded in its template's key order is the
// record appendRecord writes, whether keys were dropped from it or added
// to it (then it is sorted as any other).
func TestAppendOrdered(t *testing.T) {
	keys := []string{"a", "guid", "m", "z"}
	for _, m := range []map[string]any{
		{"a": 1, "guid": "x", "m": []any{ordered{map[string]any{"q": 1, "p": 2}, []string{"p", "q"}}}, "z": nil},
		{"guid": "x", "z": true},
		{"a": 1, "b": 2, "guid": "x"},
		{"a": 1},
		{},
	} {
		for _, field := range []string{"guid", ""} {
			got, err := appendOrdered(nil, m, field, keys)
			want, werr := appendRecord(nil, m, field)
			if err != nil || werr != nil || string(got) != string(want) {
				t.Errorf("appendOrdered(%v, %q) = %s %v, want %s %v", m, field, got, err, want, werr)
			}
		}
	}
}

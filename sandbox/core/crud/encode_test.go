package crud

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// stdEncode is what Encode must write: encoding/json's Encoder without
// HTML escaping, as the envelope encodes.
func stdEncode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func sameEncoding(t *testing.T, name string, v any) {
	t.Helper()
	got, gotErr := Encode(v)
	want, wantErr := stdEncode(v)
	if (gotErr != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Errorf("%s:\n got %s (%v)\nwant %s (%v)", name, got, gotErr, want, wantErr)
	}
}

// TestEncodeMatchesEncodingJSON: every record of the default fixtures, as
// the store decodes it, and the values at the edges of the encoding
// (escapes, invalid UTF-8, float formats, numbers, other Go types)
// encode byte for byte as encoding/json encodes them.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	files, err := fs.Glob(fixtures.FS, "eshops/*/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		raw, err := fs.ReadFile(fixtures.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := api.DecodeJSON(raw)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		sameEncoding(t, f, v)
	}
	var every strings.Builder
	for c := range 256 {
		every.WriteByte(byte(c))
	}
	n := 7
	values := map[string]any{
		"every byte":       every.String(),
		"separators":       "a\u2028b\u2029c",
		"invalid utf-8":    "ok\xff\xfe\xc3",
		"html":             "<b>&amp;</b>",
		"floats":           []any{0.0, math.Copysign(0, -1), 1.5, 1e-7, 1e-6, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64, -2.5e-9},
		"ints":             []any{0, -1, int64(math.MaxInt64), int64(math.MinInt64)},
		"numbers":          []any{json.Number("0"), json.Number("-0.5e+10"), json.Number("12345678901234567890.125"), json.Number("")},
		"bad number":       json.Number("01"),
		"not a float":      math.NaN(),
		"nil map and list": map[string]any{"m": map[string]any(nil), "l": []any(nil)},
		"other types":      map[string]any{"p": &n, "s": []string{"x"}, "ms": []map[string]any{{"b": 1, "a": json.Number("2")}}, "f32": float32(0.1)},
		"keys":             map[string]any{"b": 1, "a\n": 2, "": 3, "Z": 4, "_x": 5, "ž": 6},
	}
	for name, v := range values {
		sameEncoding(t, name, v)
	}
}

// FuzzEncode: any JSON document, decoded as the store decodes records,
// and any text encode as encoding/json encodes them.
func FuzzEncode(f *testing.F) {
	f.Add([]byte(`{"a":[1,"x",{"b":null}],"c":true}`))
	f.Add([]byte(`"\u2028\ud800"`))
	f.Add([]byte("\"\xff\x00\""))
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameEncoding(t, "text", string(doc))
		if v, err := api.DecodeJSON(doc); err == nil {
			sameEncoding(t, "document", v)
		}
	})
}

// TestEncodeKeyOrdersOfManySets encodes maps of the same size with
// overlapping key sets, and each again, as encoding/json does: the kept
// key orders (looked up by a hash of the set) never give one set's order
// to another.
func TestEncodeKeyOrdersOfManySets(t *testing.T) {
	var maps []map[string]any
	for shift := range 12 {
		m := map[string]any{}
		for i := range 10 {
			m["k"+strconv.Itoa(i+shift)] = i
		}
		maps = append(maps, m)
	}
	// A set equal to another but for one key, and maps over the cap of
	// the small ones.
	odd := map[string]any{"k0": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "zz": 9}
	maps = append(maps, odd, map[string]any{"b": 1, "a": 2})
	for round := range 2 {
		for i, m := range maps {
			got, err := Encode(m)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(m)
			if string(got) != string(want) {
				t.Fatalf("round %d, map %d: %s, want %s", round, i, got, want)
			}
		}
	}
}

// TestEncodeKeyOrderCollision: a kept order of another set under the same
// hash (a collision, forced here) is noticed and the map sorted anew.
func TestEncodeKeyOrderCollision(t *testing.T) {
	m := map[string]any{}
	for i := range 9 {
		m["c"+strconv.Itoa(i)] = i
	}
	h := uint64(len(m)) * 0x9e3779b97f4a7c15
	for k := range m {
		h ^= maphash.String(keySeed, k)
	}
	other := []string{"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"}
	prev, had := keyOrders.Load(h)
	keyOrders.Store(h, other)
	defer func() {
		if had {
			keyOrders.Store(h, prev)
		} else {
			keyOrders.Delete(h)
		}
	}()
	got, err := Encode(map[string]any{"x": m})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(map[string]any{"x": m})
	if string(got) != string(want) {
		t.Fatalf("%s, want %s", got, want)
	}
}

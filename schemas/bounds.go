package schemas

import (
	"bytes"
	"encoding/json"
)

// Numeric bounds the service's own storage imposes on every number it
// takes: integers fit 64 bits, other numbers are finite doubles. JSON has
// no limits, so without them 1e309 or 2^64 would pass the schema and be
// stored as null or as an integer the service could never hold.
const (
	maxInt64  = "9223372036854775807"
	minInt64  = "-9223372036854775808"
	maxDouble = "1.7976931348623157e308"
	minDouble = "-1.7976931348623157e308"
)

// withBounds adds minimum and maximum to every schema object typed integer
// or number that has none, so a request whose number cannot be held answers
// 422 schema-mismatch naming the field. Documents that are not JSON objects
// are returned unchanged.
func withBounds(raw []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return raw
	}
	if !bound(doc) {
		return raw
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return raw
	}
	return out
}

// bound walks a schema document; it reports whether it changed anything.
func bound(v any) bool {
	changed := false
	switch t := v.(type) {
	case map[string]any:
		lo, hi := "", ""
		switch {
		case hasType(t["type"], "integer"):
			lo, hi = minInt64, maxInt64
		case hasType(t["type"], "number"):
			lo, hi = minDouble, maxDouble
		}
		if hi != "" {
			if _, ok := t["maximum"]; !ok {
				t["maximum"], changed = json.Number(hi), true
			}
			if _, ok := t["minimum"]; !ok {
				t["minimum"], changed = json.Number(lo), true
			}
		}
		for k, c := range t {
			if k == "enum" || k == "const" || k == "examples" || k == "default" {
				continue // values, not schemas
			}
			changed = bound(c) || changed
		}
	case []any:
		for _, c := range t {
			changed = bound(c) || changed
		}
	}
	return changed
}

// hasType reports whether a "type" keyword names the type.
func hasType(v any, name string) bool {
	switch t := v.(type) {
	case string:
		return t == name
	case []any:
		for _, x := range t {
			if x == name {
				return true
			}
		}
	}
	return false
}

package shape

import (
	"encoding/json"
	"strings"
)

// Normalize undoes the client SDK's request encodings (reference README,
// "Encoding quirks") before a body is stored: an integer value object
// sent as a digit string becomes the integer, and "" sent for a value
// object that holds null becomes null. n is the request node of the
// value (Request(op) for the body's data); maps and slices are rewritten
// in place and returned.
func Normalize(v any, n Node) any {
	if !n.Valid() || v == nil {
		return v
	}
	if s, ok := v.(string); ok {
		if s == "" && acceptsEmptyAsNull(n) {
			return nil
		}
		if enc, _ := n.m["x-sdk-request-encoding"].(string); enc == "string" {
			if s == "" {
				return nil
			}
			if isInteger(s) {
				return json.Number(strings.TrimSpace(s))
			}
		}
		return s
	}
	r := n.Resolve()
	switch val := v.(type) {
	case map[string]any:
		for k, x := range val {
			val[k] = Normalize(x, r.Prop(k))
		}
		return val
	case []any:
		it := r.Items()
		for i, x := range val {
			val[i] = Normalize(x, it)
		}
		return val
	}
	return v
}

// acceptsEmptyAsNull reports whether the request schema widened the field
// with a {"const": ""} branch (the SDK's null).
func acceptsEmptyAsNull(n Node) bool {
	branches, _ := n.m["anyOf"].([]any)
	for _, b := range branches {
		if bm, _ := b.(map[string]any); bm != nil {
			if c, ok := bm["const"]; ok && c == "" {
				return true
			}
		}
	}
	return false
}

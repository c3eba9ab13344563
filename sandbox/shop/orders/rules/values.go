package rules

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Text reads a decoded JSON value as text: a string as it is, a number
// (json.Number) as written, anything else as "". Request fields and
// stored records are read with it, so a field of the wrong type counts as
// absent where the rules say "required".
func Text(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	}
	return ""
}

// Int reads a decoded JSON integer (json.Number, or a Go number of a
// record built in memory); ok is false for anything else.
func Int(v any) (n int64, ok bool) {
	switch t := v.(type) {
	case json.Number:
		n, err := t.Int64()
		return n, err == nil
	case float64:
		return int64(t), true
	case int:
		return int64(t), true
	case int64:
		return t, true
	}
	return 0, false
}

// NullIfEmpty is the stored value of an optional text: null when empty.
func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// StatusID reads a status id given as an integer or as a string of
// digits (the spec allows both); nil when absent, a 400 naming path when
// it is neither.
func StatusID(v any, path string) (*int, error) {
	if v == nil {
		return nil, nil
	}
	s := strings.TrimSpace(Text(v))
	n, err := strconv.Atoi(s)
	if err != nil {
		return nil, sandbox.Invalid(path, "Field %s must be an order status id (an integer), not %s.", path, quote(v))
	}
	return &n, nil
}

// quote shows a sent value in a message, cut to 40 bytes.
func quote(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

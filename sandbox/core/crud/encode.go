package crud

import (
	"bytes"
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Encode writes a record as compact JSON without HTML escaping, keeping
// json.Number values exact: byte for byte what encoding/json's Encoder
// with SetEscapeHTML(false) writes (keys sorted, the same escapes), which
// the envelope writes too.
//
// It is the one encoder of registry records (Writer.Save): records are
// decoded JSON (maps, lists, strings, json.Number), which an order writes
// by the dozen inside its transaction; encoding them through reflection
// was the largest single cost left of an order. These types are encoded
// here directly; any other value goes to encoding/json.
func Encode(v any) ([]byte, error) {
	return appendJSON(make([]byte, 0, 1024), v)
}

// appendJSON appends the encoding of v to b.
func appendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, t), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case json.Number:
		if t == "" || !validNumber(string(t)) {
			return appendOther(b, v) // encoding/json's zero value and error
		}
		return append(b, t...), nil
	case int:
		return strconv.AppendInt(b, int64(t), 10), nil
	case int64:
		return strconv.AppendInt(b, t, 10), nil
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return appendOther(b, v)
		}
		return appendFloat(b, t), nil
	case map[string]any:
		if t == nil {
			return append(b, "null"...), nil
		}
		start := len(b)
		keys := sortedKeys(t)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			x, ok := t[k]
			if !ok { // a known set's hash, another set: sort this one
				return appendMap(b[:start], t, sortKeys(t))
			}
			b = append(appendString(b, k), ':')
			if b, err = appendJSON(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		if t == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range t {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return appendOther(b, v)
}

// keyOrders keeps the sorted keys of the key sets records are made of,
// by a hash of the set: most maps an order writes have one of a few
// dozen shapes (an order, an item, a price), and sorting their keys was
// a fifteenth of an order's time inside the write transaction. A set is
// looked up by the XOR of its keys' hashes and its size; a hit is
// checked key by key, so a collision only means a sort. Small maps are
// sorted as they come, and at most maxKeyOrders sets are kept.
var (
	keyOrders    sync.Map // uint64 -> []string
	keyOrdersLen atomic.Int32
	keySeed      = maphash.MakeSeed()
)

const (
	minKeyOrder  = 8
	maxKeyOrders = 4096
)

// sortedKeys are the keys of m in order: those of a kept set of the same
// hash and size (shared, never changed; the caller checks that each is a
// key of m), else m's own keys sorted.
func sortedKeys(m map[string]any) []string {
	if len(m) < minKeyOrder {
		return sortKeys(m)
	}
	h := uint64(len(m)) * 0x9e3779b97f4a7c15
	for k := range m {
		h ^= maphash.String(keySeed, k)
	}
	if v, ok := keyOrders.Load(h); ok {
		if keys := v.([]string); len(keys) == len(m) {
			return keys
		}
	}
	keys := sortKeys(m)
	if keyOrdersLen.Load() < maxKeyOrders {
		if _, loaded := keyOrders.LoadOrStore(h, keys); !loaded {
			keyOrdersLen.Add(1)
		}
	}
	return keys
}

// sortKeys are m's keys, sorted.
func sortKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendMap appends m with its keys in the order given.
func appendMap(b []byte, m map[string]any, keys []string) ([]byte, error) {
	b = append(b, '{')
	var err error
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		if b, err = appendJSON(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendOther encodes any other value with encoding/json.
func appendOther(b []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// appendFloat formats a finite float like encoding/json: the shortest
// representation, exponent form below 1e-6 and from 1e21 on.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9, as encoding/json writes it
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// AppendString appends a JSON string as Encode writes it (for writers of
// records outside crud, such as the fixture generator).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// ValidNumber reports whether s is a JSON number literal, as Encode
// checks a json.Number.
func ValidNumber(s string) bool { return validNumber(s) }

// appendString writes a JSON string the way encoding/json does without
// HTML escaping: quotes, backslashes and control characters escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

// validNumber reports whether s is a JSON number literal (what
// encoding/json accepts as a json.Number).
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}

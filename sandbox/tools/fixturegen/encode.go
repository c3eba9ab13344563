package fixturegen

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// The generated records are decoded JSON (maps, lists, strings,
// json.Number) and are encoded here without reflection, into buffers the
// generating worker reuses: byte for byte what encoding/json's Encoder
// with SetEscapeHTML(false) writes (keys sorted), followed by idFirst,
// which encoding through encoding/json spent most of the generation on.
// Any other value goes to crud.Encode (and from there to encoding/json).

// rawList is a JSON array whose elements are already encoded, in parts
// (a price list's prices, made by the product workers chunk by chunk):
// every element is followed by a comma, the last one's dropped.
type rawList [][]byte

// appendRecord appends the compact encoding of a record with its
// identifier field first (see idFirst), keys otherwise sorted.
func appendRecord(b []byte, m map[string]any, idField string) ([]byte, error) {
	id, hasID := m[idField]
	if idField == "" || !hasID {
		return appendValue(b, m)
	}
	b = append(b, '{')
	b = appendString(b, idField)
	b = append(b, ':')
	b, err := appendValue(b, id)
	if err != nil {
		return nil, err
	}
	return appendFields(b, m, idField, true)
}

// ordered is a record whose keys are, at most, keys (sorted): the keys
// of the template it was made of, which spares sorting them again for
// every record.
type ordered struct {
	m    map[string]any
	keys []string
}

// appendOrdered is appendRecord for a record whose keys are, at most,
// keys (sorted); a record with a key outside them is encoded as any other.
func appendOrdered(b []byte, m map[string]any, idField string, keys []string) ([]byte, error) {
	start := len(b)
	b = append(b, '{')
	n := 0
	if id, ok := m[idField]; ok && idField != "" {
		b = append(appendString(b, idField), ':')
		var err error
		if b, err = appendValue(b, id); err != nil {
			return nil, err
		}
		n++
	}
	for _, k := range keys {
		v, ok := m[k]
		if !ok || (k == idField && idField != "") {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(appendString(b, k), ':')
		var err error
		if b, err = appendValue(b, v); err != nil {
			return nil, err
		}
	}
	if n != len(m) {
		return appendRecord(b[:start], m, idField)
	}
	return append(b, '}'), nil
}

// appendValue appends the compact encoding of v.
func appendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, t), nil
	case bool:
		return strconv.AppendBool(b, t), nil
	case json.Number:
		if !validNumber(string(t)) {
			return appendOther(b, v)
		}
		return append(b, t...), nil
	case int:
		return strconv.AppendInt(b, int64(t), 10), nil
	case int64:
		return strconv.AppendInt(b, t, 10), nil
	case json.RawMessage:
		// Only the generator's own encodings: already compact.
		if t == nil {
			return append(b, "null"...), nil
		}
		return append(b, t...), nil
	case rawList:
		n := 2
		for _, part := range t {
			n += len(part)
		}
		b = append(slices.Grow(b, n), '[')
		start := len(b)
		for _, part := range t {
			b = append(b, part...)
		}
		if len(b) > start && b[len(b)-1] == ',' {
			b = b[:len(b)-1]
		}
		return append(b, ']'), nil
	case map[string]any:
		if t == nil {
			return append(b, "null"...), nil
		}
		return appendFields(append(b, '{'), t, "", false)
	case ordered:
		if t.m == nil {
			return append(b, "null"...), nil
		}
		return appendOrdered(b, t.m, "", t.keys)
	case []any:
		if t == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range t {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return appendOther(b, v)
}

// appendFields appends the fields of m but skip in key order and the
// closing brace; comma says a field was written before them.
func appendFields(b []byte, m map[string]any, skip string, comma bool) ([]byte, error) {
	var arr [64]string
	keys := arr[:0]
	for k := range m {
		if k != skip || skip == "" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var err error
	for _, k := range keys {
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(appendString(b, k), ':')
		if b, err = appendValue(b, m[k]); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendOther encodes any other value with crud.Encode.
func appendOther(b []byte, v any) ([]byte, error) {
	out, err := crud.Encode(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// validNumber and appendString are crud's: the generated files hold what
// crud writes, byte for byte.
func validNumber(s string) bool { return crud.ValidNumber(s) }

func appendString(b []byte, s string) []byte { return crud.AppendString(b, s) }

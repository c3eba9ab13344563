package openapi

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// AnswerSchema is the JSON Schema (2020-12) of what v marshals to with
// encoding/json, drawn by reflection: a struct is an object of its JSON
// fields (embedded structs' fields inlined), each required unless it is
// omitempty or omitzero, a nil-able one (pointer, slice, map) also
// null; a field's `doc` tag, or else its Go doc comment (fieldDocs), is
// its description and its `enum` tag
// (a|b|c) its enum. A map[string]any value (an ad-hoc answer) is an
// object of its keys, each described by its own value. Types that
// marshal themselves (json.RawMessage, any) accept anything, except
// time.Time, a date-time string.
func AnswerSchema(v any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		props := map[string]any{}
		var req []any
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if d, ok := m[k].(api.Described); ok {
				sch := AnswerSchema(d.Value)
				sch["description"] = d.Text
				props[k] = sch
			} else {
				props[k] = AnswerSchema(m[k])
			}
			req = append(req, k)
		}
		out := map[string]any{"type": "object", "properties": props}
		if len(req) > 0 {
			out["required"] = req
		}
		return out
	}
	if _, ok := v.(api.NoData); ok {
		return map[string]any{"type": "null", "description": "Nothing: the call answers no data."}
	}
	if v == nil {
		return map[string]any{}
	}
	return typeSchema(reflect.TypeOf(v), map[reflect.Type]bool{})
}

var (
	timeType      = reflect.TypeOf(time.Time{})
	rawType       = reflect.TypeOf(json.RawMessage(nil))
	marshalerType = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textType      = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

func nullable(s map[string]any) map[string]any {
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
	case nil:
		// accepts anything already
	}
	return s
}

func typeSchema(t reflect.Type, seen map[reflect.Type]bool) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == rawType, t.Kind() == reflect.Interface:
		return map[string]any{}
	case t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType):
		return map[string]any{}
	case t.Implements(textType) || reflect.PointerTo(t).Implements(textType):
		return map[string]any{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(typeSchema(t.Elem(), seen))
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": []any{"string", "null"}, "contentEncoding": "base64"}
		}
		return map[string]any{"type": []any{"array", "null"}, "items": typeSchema(t.Elem(), seen)}
	case reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem(), seen)}
	case reflect.Map:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": typeSchema(t.Elem(), seen)}
	case reflect.Struct:
		if seen[t] {
			return map[string]any{"type": "object"}
		}
		seen[t] = true
		defer delete(seen, t)
		props := map[string]any{}
		var req []any
		structFields(t, seen, props, &req)
		out := map[string]any{"type": "object", "properties": props}
		if len(req) > 0 {
			out["required"] = req
		}
		return out
	}
	return map[string]any{}
}

func structFields(t reflect.Type, seen map[reflect.Type]bool, props map[string]any, req *[]any) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				structFields(ft, seen, props, req)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		s := typeSchema(f.Type, seen)
		if strings.Contains(opts, "string") {
			s = map[string]any{"type": "string"}
		}
		if d := f.Tag.Get("doc"); d != "" {
			s["description"] = d
		} else if d := fieldDocs[strings.TrimPrefix(t.PkgPath(), "github.com/eshop-sandbox/sandbox/")+"."+t.Name()+"."+f.Name]; d != "" {
			s["description"] = d
		}
		if e := f.Tag.Get("enum"); e != "" {
			var list []any
			for _, v := range strings.Split(e, "|") {
				list = append(list, v)
			}
			if t, ok := s["type"].([]any); ok && len(t) == 2 && t[1] == "null" {
				list = append(list, nil)
			}
			s["enum"] = list
		}
		props[name] = s
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			*req = append(*req, name)
		}
	}
}

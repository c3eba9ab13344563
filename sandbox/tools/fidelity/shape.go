package fidelity

import (
	"encoding/json"
	"sort"
	"strings"
)

// Shape is the structure of a JSON answer, without its values: every
// field path ("data.orders[].code"; "[]" stands for any element of an
// array) with the JSON types seen there across all elements.
type Shape map[string]map[string]bool

// JSON type names as a report shows them.
const (
	tString  = "string"
	tNumber  = "number"
	tBool    = "boolean"
	tObject  = "object"
	tArray   = "array"
	tNull    = "null"
	elemStep = "[]"
)

// ShapeOf reads the shape of a decoded JSON value (map[string]any,
// []any, json.Number or float64, string, bool, nil).
func ShapeOf(v any) Shape {
	s := Shape{}
	s.add("", v)
	return s
}

func (s Shape) add(path string, v any) {
	t := typeOf(v)
	if s[path] == nil {
		s[path] = map[string]bool{}
	}
	s[path][t] = true
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			s.add(join(path, k), c)
		}
	case []any:
		for _, c := range x {
			s.add(path+elemStep, c)
		}
	}
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return tNull
	case string:
		return tString
	case bool:
		return tBool
	case json.Number, float64, int, int64:
		return tNumber
	case map[string]any:
		return tObject
	case []any:
		return tArray
	}
	return "unknown"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// parent is the path holding p and whether p is a field of it (false: an
// element of an array).
func parent(p string) (string, bool) {
	if strings.HasSuffix(p, elemStep) {
		return strings.TrimSuffix(p, elemStep), false
	}
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return "", true
	}
	return p[:i], true
}

// Difference kinds: what the sandbox answers unlike the upstream.
const (
	Missing = "missing" // a field the upstream answers and the sandbox does not
	Extra   = "extra"   // a field the sandbox answers and the upstream does not
	Type    = "type"    // a field of another JSON type
	Status  = "status"  // another HTTP status
)

// Difference is one way the sandbox's answer differs from the upstream's.
type Difference struct {
	Kind     string `json:"kind"`
	Path     string `json:"path,omitempty"`
	Upstream string `json:"upstream,omitempty"` // the upstream's types (or status)
	Sandbox  string `json:"sandbox,omitempty"`
}

// CompareShapes lists how the sandbox's shape differs from the upstream's.
// Only what the data cannot explain counts:
//   - a field is missing (or extra) only where the other side has its
//     object: fields under an array that is empty, or an object that is
//     null, on one side are not judged;
//   - a type differs only between non-null types: a field that is null
//     in every record on one side and a string on the other is a note,
//     not a difference (the records differ, not the service).
//
// notes lists those null-against-a-type fields.
func CompareShapes(up, sb Shape) (diffs []Difference, notes []string) {
	paths := make([]string, 0, len(up)+len(sb))
	for p := range up {
		paths = append(paths, p)
	}
	for p := range sb {
		if up[p] == nil {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		u, s := up[p], sb[p]
		switch {
		case s == nil:
			if judged(sb, p) {
				diffs = append(diffs, Difference{Kind: Missing, Path: p, Upstream: types(u)})
			}
		case u == nil:
			if judged(up, p) {
				diffs = append(diffs, Difference{Kind: Extra, Path: p, Sandbox: types(s)})
			}
		default:
			tu, ts := types(nonNull(u)), types(nonNull(s))
			switch {
			case tu == ts:
			case tu == "" || ts == "":
				notes = append(notes, p+": upstream "+types(u)+", sandbox "+types(s))
			default:
				diffs = append(diffs, Difference{Kind: Type, Path: p, Upstream: tu, Sandbox: ts})
			}
		}
	}
	return diffs, notes
}

// judged reports whether a field absent from side should be there: its
// parent object is on that side.
func judged(side Shape, p string) bool {
	par, field := parent(p)
	return field && side[par][tObject]
}

func nonNull(t map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range t {
		if k != tNull {
			out[k] = true
		}
	}
	return out
}

func types(t map[string]bool) string {
	out := make([]string, 0, len(t))
	for k := range t {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, "|")
}

package orders

import (
	"strings"
)

func copyMap(v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, x := range m {
		out[k] = x
	}
	return out
}

// shape returns m with exactly keys (missing ones null).
func shape(m map[string]any, keys []string) map[string]any {
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if m != nil {
			out[k] = m[k]
		} else {
			out[k] = nil
		}
	}
	return out
}

func shapeOrNil(m map[string]any, keys []string) any {
	if m == nil {
		return nil
	}
	return shape(m, keys)
}

func ref(m map[string]any) map[string]any {
	return map[string]any{"guid": m["guid"], "name": m["name"]}
}

func refOrNil(m map[string]any) any {
	if m == nil {
		return nil
	}
	return ref(m)
}

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

func joinAny(l []any) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = str(v)
	}
	return strings.Join(s, ", ")
}

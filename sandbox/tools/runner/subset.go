package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// normalize turns a YAML-decoded value into what encoding/json would
// produce (float64 numbers, map[string]any), so it compares with a
// decoded JSON body.
func normalize(v any) any {
	raw, err := scenario.BodyJSON(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(raw, &out) != nil {
		return v
	}
	return out
}

// subset reports "" when got contains want: every key of a wanted object
// with a matching value (recursively), arrays element by element with the
// same length, scalars equal. Otherwise it says where they differ.
func subset(want, got any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %s", label(at), compact(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: missing", label(join(at, k)))
			}
			if d := subset(w[k], gv, join(at, k)); d != "" {
				return d
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Sprintf("%s: expected a list, got %s", label(at), compact(got))
		}
		if len(g) != len(w) {
			return fmt.Sprintf("%s: expected %d items, got %d", label(at), len(w), len(g))
		}
		for i := range w {
			if d := subset(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if fmt.Sprint(want) != fmt.Sprint(got) || (want == nil) != (got == nil) {
		return fmt.Sprintf("%s: expected %s, got %s", label(at), compact(want), compact(got))
	}
	return ""
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

func label(at string) string {
	if at == "" {
		return "body"
	}
	return at
}

// compact renders a value as one line of JSON.
func compact(v any) string {
	if v == nil {
		return "null"
	}
	raw, err := scenario.BodyJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(string(raw), 200)
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func jsonMarshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSpace(b.Bytes()), err
}

// errorText is the first error of an envelope, or the start of the body.
func errorText(raw []byte) string {
	var env struct {
		Errors []struct {
			ErrorCode string `json:"errorCode"`
			Message   string `json:"message"`
		} `json:"errors"`
	}
	if json.Unmarshal(raw, &env) == nil && len(env.Errors) > 0 {
		return env.Errors[0].ErrorCode + ": " + env.Errors[0].Message
	}
	return clip(string(raw), 200)
}

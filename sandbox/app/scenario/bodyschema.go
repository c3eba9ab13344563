package scenario

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// faultBodySchema is the JSON Schema of POST /_sandbox/faults for the
// control plane's OpenAPI: the scenario schema's fault, with its
// references inlined (the document has no $defs of its own) and the name
// optional (a fault without one is named after its id).
var faultBodySchema = sync.OnceValue(func() map[string]any {
	raw, err := schemas.FS.ReadFile(SchemaFile)
	if err != nil {
		return map[string]any{"type": "object"}
	}
	var doc map[string]any
	if json.Unmarshal(raw, &doc) != nil {
		return map[string]any{"type": "object"}
	}
	defs, _ := doc["$defs"].(map[string]any)
	fault, _ := inlineRefs(defs["fault"], defs, 0).(map[string]any)
	if fault == nil {
		return map[string]any{"type": "object"}
	}
	delete(fault, "required")
	fault["description"] = "One fault in the scenario file's syntax: when (match, trigger) and exactly one action; latency may accompany a call action. " +
		"Without a name it is named after its id."
	fault["examples"] = []any{map[string]any{
		"name":    "slow-down",
		"match":   map[string]any{"operation": "GetOrderDetail", "addon": "example-addon", "times": 1},
		"respond": map[string]any{"status": 429, "retryAfter": "1s"},
	}}
	return fault
})

// inlineRefs copies a schema value with every "#/$defs/x" reference
// replaced by the definition (depth-bounded; the scenario schema has no
// cycles).
func inlineRefs(v any, defs map[string]any, depth int) any {
	if depth > 16 {
		return map[string]any{}
	}
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
			def := inlineRefs(defs[strings.TrimPrefix(ref, "#/$defs/")], defs, depth+1)
			m, _ := def.(map[string]any)
			out := map[string]any{}
			for k, x := range m {
				out[k] = x
			}
			for k, x := range t { // siblings of $ref (a description) win
				if k != "$ref" {
					out[k] = inlineRefs(x, defs, depth+1)
				}
			}
			return out
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = inlineRefs(x, defs, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = inlineRefs(x, defs, depth+1)
		}
		return out
	}
	return v
}

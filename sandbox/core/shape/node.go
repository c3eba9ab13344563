// Package shape reads the generated JSON Schemas as data, so the generic
// handlers can build answers in the reference's exact shape: it finds the
// node of data.<key> of an operation's response, fills the keys a schema
// requires with canonical defaults, repairs values to the canonical form
// (decimal places, integers sent as strings), keeps only the properties
// the reference lists, and undoes the client SDK's request encodings. The
// schemas stay the single source of truth; no Go struct duplicates them.
package shape

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// Node is one schema object (a JSON Schema fragment as decoded JSON). The
// zero Node means "no schema": every operation on it is permissive.
type Node struct {
	m map[string]any
}

// set is the lazily loaded raw schema tree.
type set struct {
	once  sync.Once
	err   error
	defs  map[string]any
	files map[string]map[string]any // endpoint schema files by path
	index map[string]schemas.Endpoint
}

var raw set

func (s *set) load() error {
	s.once.Do(func() {
		s.files = map[string]map[string]any{}
		s.index = map[string]schemas.Endpoint{}
		b, err := fs.ReadFile(schemas.FS, "defs.json")
		if err != nil {
			s.err = err
			return
		}
		var d struct {
			Defs map[string]any `json:"$defs"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			s.err = fmt.Errorf("shape: defs.json: %w", err)
			return
		}
		s.defs = d.Defs
		cat, err := schemas.LoadCatalogue()
		if err != nil {
			s.err = err
			return
		}
		for _, e := range cat.Endpoints {
			s.index[e.Operation] = e
			for _, f := range []string{e.Request, e.Response} {
				if f == "" {
					continue
				}
				b, err := fs.ReadFile(schemas.FS, f)
				if err != nil {
					s.err = err
					return
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					s.err = fmt.Errorf("shape: %s: %w", f, err)
					return
				}
				s.files[f] = m
			}
		}
	})
	return s.err
}

// Load parses the embedded schemas once; later calls are free. Callers
// that cannot return an error at use time call it at start-up.
func Load() error { return raw.load() }

func mustLoad() {
	if err := raw.load(); err != nil {
		panic(err)
	}
}

// Response returns the node of the response's data for an operation
// (resolved), or the zero Node when the operation has no JSON response.
func Response(operation string) Node {
	mustLoad()
	e, ok := raw.index[operation]
	if !ok || e.Response == "" {
		return Node{}
	}
	return Node{raw.files[e.Response]}.Prop("data")
}

// Request returns the node of the request body's data for an operation,
// unresolved (so the SDK-encoding markers stay visible), or the zero Node.
func Request(operation string) Node {
	mustLoad()
	e, ok := raw.index[operation]
	if !ok || e.Request == "" {
		return Node{}
	}
	props, _ := raw.files[e.Request]["properties"].(map[string]any)
	m, _ := props["data"].(map[string]any)
	return Node{m}
}

// RequestBody returns the node of an operation's whole request body (for
// the few bodies without data), or the zero Node.
func RequestBody(operation string) Node {
	mustLoad()
	e, ok := raw.index[operation]
	if !ok || e.Request == "" {
		return Node{}
	}
	return Node{raw.files[e.Request]}
}

// Def returns a shared entity of defs.json by name.
func Def(name string) Node {
	mustLoad()
	m, _ := raw.defs[name].(map[string]any)
	return Node{m}
}

// Valid reports whether the node holds a schema.
func (n Node) Valid() bool { return n.m != nil }

// Raw exposes the schema object (read-only by convention), for the
// OpenAPI generator.
func (n Node) Raw() map[string]any { return n.m }

// deref follows one $ref.
func deref(m map[string]any) map[string]any {
	ref, ok := m["$ref"].(string)
	if !ok {
		return nil
	}
	i := strings.LastIndex(ref, "/")
	d, _ := raw.defs[ref[i+1:]].(map[string]any)
	return d
}

// Resolve follows $ref and picks the non-null branch of anyOf, so callers
// see the object, array or scalar schema itself.
func (n Node) Resolve() Node {
	m := n.m
	for i := 0; i < 32 && m != nil; i++ {
		if d := deref(m); d != nil {
			m = d
			continue
		}
		if branches, ok := m["anyOf"].([]any); ok {
			var next map[string]any
			for _, b := range branches {
				bm, _ := b.(map[string]any)
				if bm == nil || isNullOnly(bm) || bm["const"] == "" {
					continue
				}
				next = bm
				break
			}
			if next == nil {
				return Node{}
			}
			m = next
			continue
		}
		return Node{m}
	}
	return Node{m}
}

func isNullOnly(m map[string]any) bool {
	switch t := m["type"].(type) {
	case string:
		return t == "null"
	case []any:
		return len(t) == 1 && t[0] == "null"
	}
	return false
}

// Nullable reports whether null is accepted (by type or an anyOf branch).
func (n Node) Nullable() bool {
	m := n.m
	for i := 0; i < 32 && m != nil; i++ {
		if hasType(m, "null") {
			return true
		}
		if branches, ok := m["anyOf"].([]any); ok {
			for _, b := range branches {
				if bm, _ := b.(map[string]any); bm != nil && (isNullOnly(bm) || Node{bm}.Nullable()) {
					return true
				}
			}
			return false
		}
		if d := deref(m); d != nil {
			m = d
			continue
		}
		return false
	}
	return false
}

func hasType(m map[string]any, t string) bool {
	switch v := m["type"].(type) {
	case string:
		return v == t
	case []any:
		for _, x := range v {
			if x == t {
				return true
			}
		}
	}
	return false
}

// Types lists the JSON types the (resolved) node accepts, "null" excluded;
// an untyped node with properties is an object.
func (n Node) Types() []string {
	r := n.Resolve()
	var out []string
	switch v := r.m["type"].(type) {
	case string:
		if v != "null" {
			out = append(out, v)
		}
	case []any:
		for _, x := range v {
			if s, _ := x.(string); s != "" && s != "null" {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		if _, ok := r.m["properties"]; ok {
			out = []string{"object"}
		} else if _, ok := r.m["items"]; ok {
			out = []string{"array"}
		}
	}
	return out
}

// Is reports whether the node accepts the JSON type t.
func (n Node) Is(t string) bool {
	for _, x := range n.Types() {
		if x == t {
			return true
		}
	}
	return false
}

// Prop returns the (resolved) node of a property, or the zero Node.
func (n Node) Prop(name string) Node {
	r := n.Resolve()
	props, _ := r.m["properties"].(map[string]any)
	m, _ := props[name].(map[string]any)
	return Node{m}
}

// HasProp reports whether the node declares a property.
func (n Node) HasProp(name string) bool {
	props, _ := n.Resolve().m["properties"].(map[string]any)
	_, ok := props[name]
	return ok
}

// Props lists the declared property names (unsorted).
func (n Node) Props() []string {
	props, _ := n.Resolve().m["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	return out
}

// Declares reports whether the node lists its properties (a closed
// shape); free-form objects keep whatever they hold.
func (n Node) Declares() bool {
	_, ok := n.Resolve().m["properties"]
	return ok
}

// Required lists the required property names.
func (n Node) Required() []string {
	req, _ := n.Resolve().m["required"].([]any)
	out := make([]string, 0, len(req))
	for _, r := range req {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Items returns the node of an array's items.
func (n Node) Items() Node {
	m, _ := n.Resolve().m["items"].(map[string]any)
	return Node{m}
}

// Path walks properties and array items: "data", "coupons", "[]".
func (n Node) Path(steps ...string) Node {
	for _, s := range steps {
		if s == "[]" {
			n = n.Items()
		} else {
			n = n.Prop(s)
		}
	}
	return n
}

// str returns a string keyword of the resolved node.
func (n Node) str(k string) string {
	s, _ := n.Resolve().m[k].(string)
	return s
}

// ValueObject names the SDK value object of a field ("" when none).
func (n Node) ValueObject() string {
	if s, _ := n.m["x-value-object"].(string); s != "" {
		return s
	}
	return n.str("x-value-object")
}

// Enum lists the allowed values (null excluded), nil when unrestricted.
func (n Node) Enum() []any {
	e, _ := n.Resolve().m["enum"].([]any)
	var out []any
	for _, v := range e {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

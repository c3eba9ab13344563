package conformance

import (
	"encoding/json"
	"io/fs"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// snode is one JSON Schema object of the reference as plain data. The
// write suite reads the schemas itself, independently of the sandbox's
// shape package, so the checks do not share code with what they check.
type snode map[string]any

// rawSchemas holds the endpoint schema files and the shared $defs.
type rawSchemas struct {
	files map[string]snode // by path in schemas.FS ("endpoints/CreateBrand.request.json")
	defs  map[string]snode
}

var (
	rawOnce sync.Once
	rawSet  *rawSchemas
	rawErr  error
)

// loadRaw reads every schema file of schemas.FS once.
func loadRaw() (*rawSchemas, error) {
	rawOnce.Do(func() {
		rs := &rawSchemas{files: map[string]snode{}, defs: map[string]snode{}}
		rawErr = fs.WalkDir(schemas.FS, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			raw, err := fs.ReadFile(schemas.FS, p)
			if err != nil {
				return err
			}
			var n snode
			if err := json.Unmarshal(raw, &n); err != nil {
				return err
			}
			rs.files[p] = n
			return nil
		})
		if rawErr != nil {
			return
		}
		if defs, ok := rs.files["defs.json"]["$defs"].(map[string]any); ok {
			for k, v := range defs {
				if m, ok := v.(map[string]any); ok {
					rs.defs[k] = m
				}
			}
		}
		rawSet = rs
	})
	return rawSet, rawErr
}

// resolve follows $ref (into defs.json) until a node without one.
func (rs *rawSchemas) resolve(n snode) snode {
	for i := 0; n != nil && i < 32; i++ {
		ref, ok := n["$ref"].(string)
		if !ok {
			return n
		}
		_, frag, _ := strings.Cut(ref, "#/$defs/")
		frag = strings.NewReplacer("~1", "/", "~0", "~").Replace(frag)
		n = rs.defs[frag]
	}
	return n
}

// props are a node's declared properties.
func (n snode) props() map[string]snode {
	out := map[string]snode{}
	if m, ok := n["properties"].(map[string]any); ok {
		for k, v := range m {
			if s, ok := v.(map[string]any); ok {
				out[k] = s
			}
		}
	}
	return out
}

// branches are the anyOf/oneOf alternatives of a node (none: nil).
func (n snode) branches() []snode {
	for _, key := range []string{"anyOf", "oneOf"} {
		if list, ok := n[key].([]any); ok {
			out := make([]snode, 0, len(list))
			for _, b := range list {
				if m, ok := b.(map[string]any); ok {
					out = append(out, m)
				}
			}
			return out
		}
	}
	return nil
}

// types lists the node's "type" names.
func (n snode) types() []string {
	switch t := n["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// is reports whether the node's type includes name.
func (n snode) is(name string) bool {
	for _, t := range n.types() {
		if t == name {
			return true
		}
	}
	return false
}

// nullOnly is a branch that only allows null (or the SDK's "" encoding).
func (n snode) nullOnly() bool {
	if c, ok := n["const"]; ok {
		return c == nil || c == ""
	}
	ts := n.types()
	return len(ts) == 1 && ts[0] == "null"
}

// items is an array node's item schema.
func (n snode) items() snode {
	m, _ := n["items"].(map[string]any)
	return m
}

// str is a string keyword of the node.
func (n snode) str(key string) string {
	s, _ := n[key].(string)
	return s
}

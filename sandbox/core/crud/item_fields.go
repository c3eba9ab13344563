package crud

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// shapes reads property names out of the raw response schemas, so list
// items are projected onto exactly the fields the reference lists for
// them.
type shapes struct {
	once sync.Once
	defs map[string]any
	err  error
}

var schemaShapes shapes

func (s *shapes) load() error {
	s.once.Do(func() {
		raw, err := fs.ReadFile(schemas.FS, "defs.json")
		if err != nil {
			s.err = err
			return
		}
		var doc struct {
			Defs map[string]any `json:"$defs"`
		}
		s.err = json.Unmarshal(raw, &doc)
		s.defs = doc.Defs
	})
	return s.err
}

// resolve follows $ref and the non-null branch of anyOf.
func (s *shapes) resolve(node map[string]any) map[string]any {
	for i := 0; i < 16 && node != nil; i++ {
		if ref, ok := node["$ref"].(string); ok {
			name := ref[strings.LastIndex(ref, "/")+1:]
			next, _ := s.defs[name].(map[string]any)
			node = next
			continue
		}
		if branches, ok := node["anyOf"].([]any); ok {
			var next map[string]any
			for _, b := range branches {
				if bm, ok := b.(map[string]any); ok && bm["type"] != "null" {
					next = bm
					break
				}
			}
			node = next
			continue
		}
		return node
	}
	return node
}

// ItemFields returns the property names of the items of data.<key> in an
// operation's response schema.
func ItemFields(operation, key string) ([]string, error) {
	s := &schemaShapes
	if err := s.load(); err != nil {
		return nil, err
	}
	raw, err := fs.ReadFile(schemas.FS, "endpoints/"+operation+".response.json")
	if err != nil {
		return nil, fmt.Errorf("no response schema for %s: %w", operation, err)
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, err
	}
	node := s.resolve(root)
	for _, step := range []string{"data", key} {
		props, _ := node["properties"].(map[string]any)
		child, _ := props[step].(map[string]any)
		node = s.resolve(child)
		if node == nil {
			return nil, fmt.Errorf("%s: response schema has no data.%s", operation, key)
		}
	}
	items, _ := node["items"].(map[string]any)
	node = s.resolve(items)
	props, _ := node["properties"].(map[string]any)
	if len(props) == 0 {
		return nil, fmt.Errorf("%s: data.%s items have no properties", operation, key)
	}
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

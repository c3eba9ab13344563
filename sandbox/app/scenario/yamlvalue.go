package scenario

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// locator remembers which YAML node produced each JSON-pointer location of
// the generic value, so schema errors (which name a location) can be shown
// with a line and a column.
type locator struct {
	values map[string]*yaml.Node // location -> value node
	keys   map[string]*yaml.Node // location of a property -> its key node
	budget int                   // values left to convert; below 0 the conversion stopped (see MaxValues)
	depth  int                   // nesting of the value being converted
	deep   *yaml.Node            // the first node nested deeper than MaxDepth, where the conversion stopped
}

// toValue converts a YAML node into the generic JSON value the schema
// validator understands (maps, slices, strings, bools, json.Number, nil),
// recording positions as it goes.
func (l *locator) toValue(n *yaml.Node, at string) any {
	if l.values == nil {
		l.values, l.keys = map[string]*yaml.Node{}, map[string]*yaml.Node{}
	}
	if l.budget--; l.budget < 0 || l.deep != nil {
		return nil
	}
	if l.depth >= MaxDepth {
		l.deep = n
		return nil
	}
	l.depth++
	defer func() { l.depth-- }()
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return l.toValue(n.Content[0], at)
	case yaml.AliasNode:
		return l.toValue(n.Alias, at)
	}
	l.values[at] = n
	switch n.Kind {
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			loc := at + "/" + escapePointer(k.Value)
			l.keys[loc] = k
			m[k.Value] = l.toValue(v, loc)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = l.toValue(c, at+"/"+strconv.Itoa(i))
		}
		return s
	}
	return scalar(n)
}

// scalar converts a scalar by its resolved tag, the way the YAML decoder
// will see it.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		var u uint64
		if n.Decode(&u) == nil {
			return json.Number(strconv.FormatUint(u, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return n.Value
}

// escapePointer escapes a JSON-pointer token (RFC 6901).
func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// node returns the node at a location, or the closest ancestor that has
// one (the root at worst).
func (l *locator) node(at string) *yaml.Node {
	for {
		if n, ok := l.values[at]; ok {
			return n
		}
		i := strings.LastIndex(at, "/")
		if i < 0 {
			return l.values[""]
		}
		at = at[:i]
	}
}

// key returns the key node of property name inside the object at a
// location, or nil.
func (l *locator) key(at, name string) *yaml.Node {
	return l.keys[at+"/"+escapePointer(name)]
}

// toString renders a YAML map key.
func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

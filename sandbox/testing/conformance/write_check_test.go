package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// missingProps walks an answer along its response schema and lists every
// property a schema object declares that the answer's object lacks
// (present as null is fine: the reference writes absent sections as
// null). Where the schema offers several object shapes (anyOf), the one
// that declares most of the value's keys is the one checked.
func (rs *rawSchemas) missingProps(n snode, v any, path string, depth int) []string {
	if n == nil || depth > 40 || v == nil {
		return nil
	}
	n = rs.resolve(n)
	if bs := n.branches(); len(bs) > 0 {
		n = rs.best(bs, v)
		if n == nil {
			return nil
		}
	}
	switch val := v.(type) {
	case map[string]any:
		props := n.props()
		var out []string
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, ok := val[k]
			if !ok {
				out = append(out, join(path, k))
				continue
			}
			out = append(out, rs.missingProps(props[k], x, join(path, k), depth+1)...)
		}
		return out
	case []any:
		it := n.items()
		var out []string
		for i, x := range val {
			out = append(out, rs.missingProps(it, x, path+"["+strconv.Itoa(i)+"]", depth+1)...)
		}
		return out
	}
	return nil
}

// best picks the alternative that fits a value: for an object the branch
// declaring most of its keys, else the first that is not null-only.
func (rs *rawSchemas) best(bs []snode, v any) snode {
	obj, isObj := v.(map[string]any)
	var best snode
	score := -1
	for _, b := range bs {
		b = rs.resolve(b)
		if b.nullOnly() {
			continue
		}
		if sub := b.branches(); len(sub) > 0 {
			b = rs.best(sub, v)
			if b == nil {
				continue
			}
		}
		if !isObj {
			if _, isArr := v.([]any); isArr == b.is("array") {
				return b
			}
			continue
		}
		s := 0
		for k := range b.props() {
			if _, ok := obj[k]; ok {
				s++
			}
		}
		if s > score {
			best, score = b, s
		}
	}
	return best
}

// comparison is what the read-back showed of the fields sent.
type comparison struct {
	equal   []string // fields whose read-back value is the one sent
	differ  []string // fields read back with another value: "path: sent x, read y"
	absent  []string // fields the read-back does not show
	changed []string // equal fields whose value before the write was another
}

// compare matches the sent value with the read-back record: objects key
// by key, a list of objects item by item (each sent item against the
// record's item that matches it best), a list of scalars as a set, and
// scalars by value (numbers and decimal strings as decimals).
func compare(sent, got, before any, path string, c *comparison) {
	switch s := sent.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.differ = append(c.differ, fmt.Sprintf("%s: sent an object, read %s", label(path), show(got)))
			return
		}
		b, _ := before.(map[string]any)
		keys := make([]string, 0, len(s))
		for k := range s {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			x, ok := g[k]
			if !ok {
				c.absent = append(c.absent, label(join(path, k)))
				continue
			}
			compare(s[k], x, b[k], join(path, k), c)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			if got == nil {
				c.absent = append(c.absent, label(path))
				return
			}
			c.differ = append(c.differ, fmt.Sprintf("%s: sent a list, read %s", label(path), show(got)))
			return
		}
		for i, item := range s {
			p := join(path, strconv.Itoa(i))
			if _, isObj := item.(map[string]any); isObj {
				var bestC comparison
				bestScore := -1 << 30
				for _, cand := range g {
					var cc comparison
					compare(item, cand, nil, p, &cc)
					if sc := len(cc.equal)*2 - len(cc.differ)*3; sc > bestScore {
						bestC, bestScore = cc, sc
					}
				}
				if bestScore == -1<<30 {
					c.absent = append(c.absent, label(p))
					continue
				}
				c.equal = append(c.equal, bestC.equal...)
				c.differ = append(c.differ, bestC.differ...)
				c.absent = append(c.absent, bestC.absent...)
				continue
			}
			found := false
			for _, cand := range g {
				if same(item, cand) || holds(cand, item) {
					found = true
					break
				}
			}
			if found {
				c.equal = append(c.equal, label(p))
			} else {
				c.differ = append(c.differ, fmt.Sprintf("%s: sent %s, the list read back holds no such value", label(p), show(item)))
			}
		}
	default:
		if same(sent, got) {
			c.equal = append(c.equal, label(path))
			if before != nil && !same(sent, before) || before == nil && got != nil {
				c.changed = append(c.changed, label(path))
			}
			return
		}
		c.differ = append(c.differ, fmt.Sprintf("%s: sent %s, read %s", label(path), show(sent), show(got)))
	}
}

// same compares two scalars: numbers and numeric strings as decimals,
// the rest by their JSON text.
func same(a, b any) bool {
	if da, ok := number(a); ok {
		if db, ok := number(b); ok {
			return da.Equal(db)
		}
	}
	return show(a) == show(b)
}

func number(v any) (decimal.Decimal, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		return decimal.NewFromFloat(x), true
	case string:
		s = x
	default:
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

func show(v any) string {
	raw, _ := json.Marshal(v)
	s := string(raw)
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// filterDiffer removes the differences the entry accepts by design and
// returns them apart.
func filterDiffer(differ []string, accepted map[string]string) (left, ok []string) {
	for _, d := range differ {
		p, _, _ := strings.Cut(d, ":")
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "data."), "data")
		if why, yes := accepted[rel]; yes {
			ok = append(ok, fmt.Sprintf("%s (%s)", p, why))
			continue
		}
		left = append(left, d)
	}
	return left, ok
}

// holds reports whether a read-back object has a field with the value: a
// list of identifiers sent comes back as a list of the objects they name
// (filtering parameter values by valueIndex).
func holds(obj, v any) bool {
	m, ok := obj.(map[string]any)
	if !ok {
		return false
	}
	for _, x := range m {
		if _, nested := x.(map[string]any); !nested && same(x, v) {
			return true
		}
	}
	return false
}

// Package system serves the interface's self-description: the endpoint
// catalogue with its rights groups (GET /api/system/endpoints) built from
// the reference's 328 endpoints.
package system

import (
	"sort"
	"strings"
	"unicode"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// Catalogue is the reference's endpoint list with numbered rights groups.
type Catalogue struct {
	Endpoints []schemas.Endpoint
	groups    map[string]int
	byOp      map[string]*schemas.Endpoint
	byPath    map[string]*schemas.Endpoint
}

// NewCatalogue numbers the groups in alphabetical order (stable ids) and
// indexes the endpoints.
func NewCatalogue(c *schemas.Catalogue) *Catalogue {
	cat := &Catalogue{Endpoints: c.Endpoints, groups: map[string]int{}, byOp: map[string]*schemas.Endpoint{}, byPath: map[string]*schemas.Endpoint{}}
	var names []string
	for i := range c.Endpoints {
		e := &c.Endpoints[i]
		if _, ok := cat.groups[e.Group]; !ok {
			cat.groups[e.Group] = 0
			names = append(names, e.Group)
		}
		cat.byOp[e.Operation] = e
		cat.byPath[e.Method+" "+e.Path] = e
	}
	sort.Strings(names)
	for i, n := range names {
		cat.groups[n] = i + 1
	}
	return cat
}

// GroupID is the numeric id of an endpoint group.
func (c *Catalogue) GroupID(name string) int { return c.groups[name] }

// HasGroup reports whether a rights group exists.
func (c *Catalogue) HasGroup(name string) bool { _, ok := c.groups[name]; return ok }

// Groups returns the group names in id order.
func (c *Catalogue) Groups() []string {
	out := make([]string, len(c.groups))
	for n, id := range c.groups {
		out[id-1] = n
	}
	return out
}

// Endpoint finds an endpoint by operation name.
func (c *Catalogue) Endpoint(op string) (*schemas.Endpoint, bool) {
	e, ok := c.byOp[op]
	return e, ok
}

// Resolve accepts an operation name or "METHOD /path" and returns the
// Operations lists every operation of the catalogue once, in catalogue
// order: what an add-on asking for "all" endpoints is granted.
func (c *Catalogue) Operations() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range c.Endpoints {
		if !seen[e.Operation] {
			seen[e.Operation] = true
			out = append(out, e.Operation)
		}
	}
	return out
}

// operation name.
func (c *Catalogue) Resolve(s string) (string, bool) {
	if e, ok := c.byOp[s]; ok {
		return e.Operation, true
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		if e, ok := c.byPath[strings.ToUpper(s[:i])+" "+strings.TrimSpace(s[i+1:])]; ok {
			return e.Operation, true
		}
	}
	return "", false
}

// Identifier is the endpoint identifier shown in the endpoint list: the
// operation name in lower camel case, e.g. getListOfOrders.
func Identifier(op string) string {
	if op == "" {
		return op
	}
	r := []rune(op)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

// Words turns CamelCase into a sentence: "GetListOfOrders" -> "Get list of orders".
func Words(s string) string {
	var b strings.Builder
	r := []rune(s)
	for i, c := range r {
		if i > 0 && unicode.IsUpper(c) && (unicode.IsLower(r[i-1]) || (i+1 < len(r) && unicode.IsLower(r[i+1]))) {
			b.WriteByte(' ')
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

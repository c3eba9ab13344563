package api

import (
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gorilla/mux"
)

// entry is one method and path a route answers at: its own, or an alias.
type entry struct {
	order  int
	method string
	path   string
	route  *Route
	when   func(body []byte) bool // alias decided by the body; nil: always
}

// matcher finds the route of a request. Most paths are matched by
// comparing segments (segments.go), without gorilla/mux's regular
// expressions, which took most of a read's time with the reference's
// hundreds of routes tried one by one; the router takes the rest. Both
// keep one order (most specific path first; first match wins).
type matcher struct {
	fast    *segments
	entries []*entry

	mu      sync.Mutex
	router  *mux.Router // the router's share, built on first need (see routerFor)
	byRoute map[*mux.Route]*entry
}

func newMatcher() *matcher { return &matcher{fast: newSegments()} }

// routerFor returns the router holding the entries the segment table
// leaves to it: those from the first one it cannot hold on. Compiling a
// router route costs regular expressions, so only those are compiled, and
// only once a request needs them (with every route within one segment, as
// the reference's are, never).
func (m *matcher) routerFor() (*mux.Router, map[*mux.Route]*entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.router == nil {
		m.router, m.byRoute = buildRouter(m.entries[min(m.fast.firstOther, len(m.entries)):])
	}
	return m.router, m.byRoute
}

// buildRouter registers entries in a gorilla/mux router, in order.
func buildRouter(es []*entry) (*mux.Router, map[*mux.Route]*entry) {
	r := mux.NewRouter()
	// Unclean paths (// or dot segments) must not be cleaned and
	// redirected: they answer 404 in the envelope (see clean).
	r.SkipClean(true)
	by := map[*mux.Route]*entry{}
	for _, e := range es {
		by[r.NewRoute().Path(e.path).Methods(e.method).Name(e.route.Operation)] = e
	}
	return r, by
}

// add registers routes (with their aliases) in the matching order: segment
// by segment, literals before variables; at one method and path, an alias
// decided by the body before the plain route.
func (m *matcher) add(routes []*Route) {
	var es []*entry
	for _, rt := range routes {
		es = append(es, &entry{method: rt.Method, path: rt.Path, route: rt})
		for _, a := range rt.Aliases {
			es = append(es, &entry{method: a.Method, path: a.Path, route: rt, when: a.When})
		}
	}
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.path == b.path {
			return a.when != nil && b.when == nil
		}
		return moreSpecific(a.path, b.path)
	})
	for _, e := range es {
		e.order = len(m.entries)
		m.entries = append(m.entries, e)
		m.fast.add(e)
	}
	m.mu.Lock()
	m.router, m.byRoute = nil, nil // rebuilt for the new entries on first need
	m.mu.Unlock()
}

// moreSpecific orders paths so that, segment by segment, literals come
// before variables; ties keep the longer path first.
func moreSpecific(a, b string) bool {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		av, bv := strings.HasPrefix(as[i], "{"), strings.HasPrefix(bs[i], "{")
		if av != bv {
			return !av
		}
		if as[i] != bs[i] {
			return as[i] < bs[i]
		}
	}
	return len(as) > len(bs)
}

// match returns the entries a request may take, best first, and the path
// variables: one entry, or several at one method and path when aliases
// decided by the body come before the plain route (the last one, taken
// when none of them wants the body). Nothing matches an unclean path.
func (m *matcher) match(r *http.Request) ([]*entry, map[string]string) {
	if !clean(r.URL.Path) {
		return nil, nil
	}
	if es, vars, ok := m.fast.match(r); ok {
		return es, vars
	}
	router, byRoute := m.routerFor()
	var rm mux.RouteMatch
	if !router.Match(r, &rm) || rm.Route == nil || rm.MatchErr != nil {
		return nil, nil
	}
	first := byRoute[rm.Route]
	if first == nil {
		return nil, nil
	}
	es := []*entry{first}
	for i := first.order + 1; first.when != nil && i < len(m.entries); i++ {
		e := m.entries[i]
		if e.method == first.method && e.path == first.path {
			es = append(es, e)
			if e.when == nil {
				break
			}
		}
	}
	return es, rm.Vars
}

// clean reports whether a path is free of empty and dot segments. A
// trailing slash is allowed (the control plane's index is /_sandbox/).
func clean(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	rest := strings.TrimSuffix(p[1:], "/")
	if rest == "" {
		return true
	}
	for rest != "" {
		s, after, more := strings.Cut(rest, "/")
		if s == "" || s == "." || s == ".." || more && after == "" {
			return false
		}
		rest = after
	}
	return true
}

// splitPath cuts p at every slash as strings.Split does, into buf's
// array when it is large enough: matching a request then allocates
// nothing for its segments.
func splitPath(buf []string, p string) []string {
	segs := buf[:0]
	for {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return append(segs, p)
		}
		segs = append(segs, p[:i])
		p = p[i+1:]
	}
}

// segments matches request paths by segment, without the router. It only
// knows routes whose variables match within one segment (the default
// pattern, or digits and letters such as [0-9]+), keeps the router's order
// (first match wins), and gives up (the router decides) on no match and
// when an entry it does not know comes earlier in the order.
type segments struct {
	// byKey holds the entries by segment count and first two segments
	// ("3 api products"); an entry whose second segment is a variable
	// is under "3 api *". Each list keeps the matching order, and a
	// request looks at its own two lists only, merged by order, rather
	// than at every route of its length.
	byKey map[segKey][]segEntry
	// firstOther is the order of the first entry with a pattern that may
	// span segments; entries from there on are the router's.
	firstOther int
}

// segKey is the index key of a path's segments: their count and the
// first two ("*" for a variable second segment).
type segKey struct {
	count         int
	first, second string
}

type segEntry struct {
	*entry
	alone    []*entry         // the entry alone: a match's usual answer, made once
	segs     []string         // literal segments, "" where a variable is
	vars     []string         // variable names by segment ("" for literals)
	patterns []*regexp.Regexp // custom variable patterns by segment (nil: any segment)
	hasVars  bool
}

func newSegments() *segments {
	return &segments{byKey: map[segKey][]segEntry{}, firstOther: int(^uint(0) >> 1)}
}

func (f *segments) add(e *entry) {
	segs := strings.Split(strings.TrimPrefix(e.path, "/"), "/")
	se := segEntry{entry: e, alone: []*entry{e}, segs: make([]string, len(segs)), vars: make([]string, len(segs))}
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			name := s[1 : len(s)-1]
			if n, pat, ok := strings.Cut(name, ":"); ok {
				// A pattern of digits, letters, ranges and repeats
				// stays within one segment; anything else may not.
				re, err := regexp.Compile("^(?:" + pat + ")$")
				if err != nil || strings.Trim(pat, "[]-+*?09azAZ_") != "" {
					f.firstOther = min(f.firstOther, e.order)
					return
				}
				if se.patterns == nil {
					se.patterns = make([]*regexp.Regexp, len(segs))
				}
				name, se.patterns[i] = n, re
			}
			se.vars[i], se.hasVars = name, true
			continue
		}
		if strings.ContainsAny(s, "{}") || !strings.HasPrefix(e.path, "/") || (s == "" && i < len(segs)-1) {
			f.firstOther = min(f.firstOther, e.order)
			return
		}
		se.segs[i] = s
	}
	if se.vars[0] != "" { // a variable first segment: no such route; the router takes it
		f.firstOther = min(f.firstOther, e.order)
		return
	}
	second := "*"
	if len(segs) > 1 && se.vars[1] == "" {
		second = segs[1]
	}
	key := segKey{len(segs), segs[0], second}
	f.byKey[key] = append(f.byKey[key], se)
}

// match returns the entries and path variables the router would choose,
// or ok false when the router must decide.
func (f *segments) match(r *http.Request) (es []*entry, vars map[string]string, ok bool) {
	p := r.URL.Path
	if len(p) < 1 || p[0] != '/' {
		return nil, nil, false
	}
	var buf [8]string
	segs := splitPath(buf[:], p[1:])
	second := ""
	if len(segs) > 1 {
		second = segs[1]
	}
	lit, wild := f.byKey[segKey{len(segs), segs[0], second}], f.byKey[segKey{len(segs), segs[0], "*"}]
	if second == "*" { // a literal "*" segment: only the variable list applies
		lit = nil
	}
	for i, j := 0, 0; i < len(lit) || j < len(wild); {
		var c *segEntry // the next candidate in matching order
		if j >= len(wild) || (i < len(lit) && lit[i].order < wild[j].order) {
			c = &lit[i]
			i++
		} else {
			c = &wild[j]
			j++
		}
		if c.order > f.firstOther {
			return nil, nil, false
		}
		if c.method != r.Method || (len(es) > 0 && c.path != es[0].path) || !c.matches(segs) {
			continue
		}
		if c.hasVars {
			vars = make(map[string]string, 2)
			for j, name := range c.vars {
				if name != "" {
					vars[name] = segs[j]
				}
			}
		}
		if c.when == nil && len(es) == 0 {
			return c.alone, vars, true // shared: callers only read it
		}
		es = append(es, c.entry)
		if c.when == nil {
			return es, vars, true
		}
		// An alias decided by the body: the plain route at the same
		// method and path follows it in the order.
	}
	if len(es) > 0 {
		return es, vars, true
	}
	return nil, nil, false
}

func (c *segEntry) matches(segs []string) bool {
	for j, lit := range c.segs {
		if c.vars[j] == "" && lit != segs[j] || c.vars[j] != "" && segs[j] == "" {
			return false
		}
	}
	for j, re := range c.patterns {
		if re != nil && !re.MatchString(segs[j]) {
			return false
		}
	}
	return true
}

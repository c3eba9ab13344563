package api

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/gorilla/mux"
)

// fastRoutes finds the route of a request by comparing path segments,
// without gorilla/mux's regular expressions, which took most of a read's
// time with the reference's hundreds of routes tried one by one. It
// gives the same answer as the router or none at all: it only knows
// routes whose variables match within one segment (the default pattern,
// or a pattern of digits and letters such as [0-9]+),
// keeps the router's registration order (first match wins), and gives up
// (the router decides) on unclean paths, on no match, and when a route
// it does not know comes earlier in the order.
type fastRoutes struct {
	bySegments map[int][]fastRoute
	// firstOther is the order of the first route with a custom pattern
	// (which may span segments); routes from there on are the router's.
	firstOther int
}

type fastRoute struct {
	order    int
	method   string
	segs     []string         // literal segments, "" where a variable is
	vars     []string         // variable names by segment ("" for literals)
	patterns []*regexp.Regexp // custom variable patterns by segment (nil: any segment)
	route    *Route
	handler  http.Handler
	hasVars  bool
}

func newFastRoutes() *fastRoutes {
	return &fastRoutes{bySegments: map[int][]fastRoute{}, firstOther: int(^uint(0) >> 1)}
}

// add registers the route at the given position of the router's order.
func (f *fastRoutes) add(order int, rt *Route, h http.Handler) {
	segs := strings.Split(strings.TrimPrefix(rt.Path, "/"), "/")
	fr := fastRoute{order: order, method: rt.Method, route: rt, handler: h,
		segs: make([]string, len(segs)), vars: make([]string, len(segs))}
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			name := s[1 : len(s)-1]
			if n, pat, ok := strings.Cut(name, ":"); ok {
				// A pattern of digits, letters, ranges and repeats
				// stays within one segment; anything else may not.
				re, err := regexp.Compile("^(?:" + pat + ")$")
				if err != nil || strings.Trim(pat, "[]-+*?09azAZ_") != "" {
					f.firstOther = min(f.firstOther, order)
					return
				}
				if fr.patterns == nil {
					fr.patterns = make([]*regexp.Regexp, len(segs))
				}
				name, fr.patterns[i] = n, re
			}
			fr.vars[i], fr.hasVars = name, true
			continue
		}
		if s == "" || strings.ContainsAny(s, "{}") || !strings.HasPrefix(rt.Path, "/") {
			f.firstOther = min(f.firstOther, order)
			return
		}
		fr.segs[i] = s
	}
	f.bySegments[len(segs)] = append(f.bySegments[len(segs)], fr)
}

// match returns the route and path variables the router would choose, or
// ok false when the router must decide.
func (f *fastRoutes) match(r *http.Request) (fr *fastRoute, vars map[string]string, ok bool) {
	p := r.URL.Path
	if len(p) < 2 || p[0] != '/' || strings.Contains(p, "//") || strings.Contains(p, "/.") || strings.HasSuffix(p, "/") {
		return nil, nil, false
	}
	segs := strings.Split(p[1:], "/")
	cands := f.bySegments[len(segs)]
	for i := range cands {
		c := &cands[i]
		if c.order > f.firstOther {
			return nil, nil, false
		}
		if c.method != r.Method || !c.matches(segs) {
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
		return c, vars, true
	}
	return nil, nil, false
}

func (c *fastRoute) matches(segs []string) bool {
	for j, lit := range c.segs {
		if c.vars[j] == "" && lit != segs[j] {
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

// dispatch serves a request through the fast table when it knows the
// route, else through the router.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) {
	if fr, vars, ok := s.fast.match(r); ok {
		if vars != nil {
			r = mux.SetURLVars(r, vars)
		}
		fr.handler.ServeHTTP(w, r)
		return
	}
	s.router.ServeHTTP(w, r)
}

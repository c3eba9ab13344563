package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/mux"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestFastRoutesAgreeWithRouter registers every reference endpoint plus
// control-plane style routes with custom patterns, then checks, for many
// request paths, that the fast table picks the route the router picks, or
// leaves the request to it, and never disagrees.
func TestFastRoutesAgreeWithRouter(t *testing.T) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(Options{})
	var routes []Route
	seen := map[string]bool{}
	for _, e := range cat.Endpoints {
		if seen[e.Operation] {
			continue
		}
		seen[e.Operation] = true
		routes = append(routes, Route{Operation: e.Operation, Method: e.Method, Path: e.Path, Handler: func(*Request) (any, error) { return nil, nil }})
	}
	routes = append(routes,
		Route{Operation: "c.status", Method: http.MethodPut, Path: "/_sandbox/eshops/{eshopId:[0-9]+}/order-statuses/{statusId:-?[0-9]+}"},
		Route{Operation: "c.addons", Method: http.MethodGet, Path: "/_sandbox/eshops/{eshopId:[0-9]+}/addons"},
		Route{Operation: "z.any", Method: http.MethodGet, Path: "/zz/files/{path:.*}"}, // sorts last: routes before it stay fast
		Route{Operation: "e.token", Method: http.MethodPost, Path: "/eshops/{eshopId:[0-9]+}/action/ApiOAuthServer/token"},
	)
	if err := s.HandleRoutes(routes); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range cat.Endpoints {
		for _, v := range []string{"123", "00000000-0000-4000-8000-000000000000", "statuses", "changes", "x"} {
			paths = append(paths, e.Method+" "+fillVars(e.Path, v))
		}
	}
	paths = append(paths,
		"PUT /_sandbox/eshops/1001/order-statuses/-3", "PUT /_sandbox/eshops/abc/order-statuses/1", "GET /_sandbox/eshops/1001/addons",
		"GET /zz/files/a/b/c", "POST /eshops/1001/action/ApiOAuthServer/token", "POST /eshops/x/action/ApiOAuthServer/token",
		"GET /api/products/", "GET /api//products", "GET /api/./products", "GET /", "DELETE /api/products", "GET /api/nowhere/at/all")
	router, _ := buildRouter(s.match.entries) // every route in the router, for comparison
	fast := 0
	for _, mp := range paths {
		method, path, _ := strings.Cut(mp, " ")
		r := httptest.NewRequest(method, "http://sandbox"+path, nil)
		var m mux.RouteMatch
		want := ""
		var wantVars map[string]string
		if router.Match(r, &m) && m.Route != nil && m.MatchErr == nil {
			want, wantVars = m.Route.GetName(), m.Vars
		}
		es, vars, ok := s.match.fast.match(r)
		if !ok {
			continue // left to the router: always right
		}
		fast++
		if got := es[0].route.Operation; got != want {
			t.Errorf("%s: fast table picks %s, the router %q", mp, got, want)
			continue
		}
		for k, v := range wantVars {
			if vars[k] != v {
				t.Errorf("%s: variable %s is %q, the router says %q", mp, k, vars[k], v)
			}
		}
	}
	if fast < len(cat.Endpoints) {
		t.Errorf("the fast table answered only %d of %d requests", fast, len(paths))
	}
}

func fillVars(path, v string) string {
	for {
		i := strings.IndexByte(path, '{')
		if i < 0 {
			return path
		}
		j := strings.IndexByte(path[i:], '}')
		path = path[:i] + v + path[i+j+1:]
	}
}

// TestRouterTakesWhatSegmentsCannot: a route whose variable spans
// segments is matched by gorilla/mux, built on first need with the routes
// from it on, and a route the segment table holds still wins before it.
func TestRouterTakesWhatSegmentsCannot(t *testing.T) {
	m := newMatcher()
	m.add([]*Route{
		{Operation: "files.any", Method: "GET", Path: "/zz/files/{path:.*}"},
		{Operation: "files.one", Method: "GET", Path: "/zz/files/one"},
		{Operation: "orders", Method: "GET", Path: "/api/orders"},
	})
	if m.router != nil {
		t.Fatal("the router was built before any request needed it")
	}
	for path, want := range map[string]string{"/zz/files/a/b/c": "files.any", "/zz/files/one": "files.one", "/api/orders": "orders", "/api/nothing": ""} {
		es, vars := m.match(httptest.NewRequest("GET", "http://127.0.0.1"+path, nil))
		got := ""
		if len(es) > 0 {
			got = es[0].route.Operation
		}
		if got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
		if want == "files.any" && vars["path"] != "a/b/c" {
			t.Errorf("%s: vars %v", path, vars)
		}
	}
}

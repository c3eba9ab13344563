package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"

	"github.com/gorilla/mux"
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/auth"
)

// HandlerFunc is what behaviour packages write: it returns the envelope's
// data (or a *Result, *Raw) or an error, never touching the ResponseWriter.
type HandlerFunc func(r *Request) (any, error)

// Authenticator resolves the token headers of a request to a principal.
type Authenticator interface {
	Authenticate(r *http.Request) (*auth.Principal, error)
}

// Options configure a Server.
type Options struct {
	Headers sandbox.Headers
	IDs     *sandbox.IDs
	Log     *slog.Logger
	Auth    Authenticator
	// Observe, when set, wraps the whole handler (traffic recorder, limits).
	Observe func(http.Handler) http.Handler
	// RequestSchema returns the compiled request schema of an operation,
	// nil when it has none.
	RequestSchema func(operation string) *jsonschema.Schema
}

// Server is the HTTP side of the sandbox.
type Server struct {
	router  *mux.Router
	api     *mux.Router
	headers sandbox.Headers
	ids     *sandbox.IDs
	log     *slog.Logger
	auth    Authenticator
	handler http.Handler
	routes  map[string]*Route
	fast    *fastRoutes
	order   int // routes registered so far (the router's order)

	requestSchema func(operation string) *jsonschema.Schema
}

// NewServer builds an empty server; add routes with Handle and mount other
// handlers (control plane, e-shop pages) with Mount.
func NewServer(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.IDs == nil {
		opts.IDs = sandbox.NewIDs(0)
	}
	s := &Server{router: mux.NewRouter(), headers: opts.Headers, ids: opts.IDs, log: opts.Log, auth: opts.Auth, routes: map[string]*Route{}, fast: newFastRoutes(), requestSchema: opts.RequestSchema}
	s.router.NotFoundHandler = http.HandlerFunc(s.notFound)
	s.router.MethodNotAllowedHandler = http.HandlerFunc(s.notFound)
	var h http.Handler = http.HandlerFunc(s.dispatch)
	if opts.Observe != nil {
		h = opts.Observe(h)
	}
	s.handler = s.requestID(s.recoverer(h))
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Headers returns the brand-bearing header names in use.
func (s *Server) Headers() sandbox.Headers { return s.headers }

// Mount serves a plain handler under a path prefix (control plane, pages).
func (s *Server) Mount(prefix string, h http.Handler) {
	s.fast.firstOther = min(s.fast.firstOther, s.order) // the router's from here on
	s.order++
	s.router.PathPrefix(prefix).Handler(h)
}

// HandleRoutes registers API routes, most specific paths first: in
// gorilla/mux the first match wins, so /api/orders/statuses must come
// before /api/orders/{code}.
func (s *Server) HandleRoutes(routes []Route) error {
	sorted := make([]Route, len(routes))
	copy(sorted, routes)
	sort.SliceStable(sorted, func(i, j int) bool { return moreSpecific(sorted[i].Path, sorted[j].Path) })
	for i := range sorted {
		rt := sorted[i]
		if _, dup := s.routes[rt.Operation]; dup {
			return fmt.Errorf("route %s registered twice", rt.Operation)
		}
		s.routes[rt.Operation] = &rt
		h := s.endpoint(&rt)
		s.router.Handle(rt.Path, h).Methods(rt.Method).Name(rt.Operation)
		s.fast.add(s.order, &rt, h)
		s.order++
	}
	return nil
}

// Route returns a registered route by operation name.
func (s *Server) Route(operation string) (*Route, bool) {
	r, ok := s.routes[operation]
	return r, ok
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

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.writeError(w, r, sandbox.Errorf(sandbox.KindNotFound, sandbox.CodeNotFound, "unknown",
		"No endpoint %s %s. GET /api/system/endpoints lists the endpoints.", r.Method, r.URL.Path))
}

type ctxKey int

const (
	keyRequestID ctxKey = iota
)

// RequestIDOf returns the request id assigned by the server.
func RequestIDOf(r *http.Request) string {
	if id, ok := r.Context().Value(keyRequestID).(string); ok {
		return id
	}
	return ""
}

// MaxHeaderBytes caps the request headers (names, values, request line);
// larger ones answer 400 with an error envelope.
const MaxHeaderBytes = 64 << 10

// requestID gives every request a UUID-shaped id, in X-Request-ID and in
// the envelope's metadata. It also refuses oversized headers, so that
// they get an envelope too (with the id) rather than net/http's bare 431.
func (s *Server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := s.ids.UUID()
		SetExact(w.Header(), "X-Request-ID", id)
		r = r.WithContext(context.WithValue(r.Context(), keyRequestID, id))
		if n := headerBytes(r); n > MaxHeaderBytes {
			s.writeError(w, r, sandbox.Invalid("headers", "The request headers are %d bytes; the sandbox accepts at most %d. Send the token and the usual headers only.", n, MaxHeaderBytes))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// headerBytes is the size of a request's headers and request line.
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Host)
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// recoverer turns a panic into a logged 500 envelope instead of a dropped
// connection.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.writeError(w, r, &sandbox.Error{Kind: sandbox.KindInternal, Code: sandbox.CodeInternal, Instance: "unknown",
					Message: "Internal server error. The sandbox logged the details with the request id.", Err: fmt.Errorf("panic: %v", v)})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// Operation names the route a request would take ("" when none), so tests
// and the traffic recorder can label calls without re-implementing
// routing.
func (s *Server) Operation(r *http.Request) string {
	if fr, _, ok := s.fast.match(r); ok {
		return fr.route.Operation
	}
	var m mux.RouteMatch
	if s.router.Match(r, &m) && m.Route != nil && m.MatchErr == nil {
		return m.Route.GetName()
	}
	return ""
}

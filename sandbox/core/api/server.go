package api

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

// Authenticator resolves a token to its caller (sandbox/core/auth implements it).
type Authenticator interface {
	Identify(token string, private bool) auth.Identity
}

// ModuleGate refuses a call whose e-shop lacks the module its endpoint
// needs (sandbox/core/eshop implements it): nil, or the 403 to answer.
type ModuleGate interface {
	RequireModule(eshop int, module, operation string) error
}

// Options configure a Server.
type Options struct {
	Headers sandbox.Headers
	IDs     *sandbox.IDs
	Log     *slog.Logger
	Auth    Authenticator
	// Modules checks the e-shop's modules for routes that need one; nil
	// lets every call through.
	Modules ModuleGate
	// Decorators wrap the pipeline at their stages (traffic tap,
	// limits, scripted faults); at one stage, earlier ones wrap later ones.
	Decorators []Decorator
	// RequestSchema returns the compiled request schema of an operation,
	// nil when it has none.
	RequestSchema func(operation string) *jsonschema.Schema
	// Hosts says which Host names the sandbox answers to; nil allows the
	// loopback names only.
	Hosts *Hosts
	// BodyTimeout bounds how long a request body may take to arrive once
	// its headers have; 0 means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// Clock dates every answer (the Date header), so that Date and the
	// Retry-After of a full rate bucket come from one clock and their
	// difference is the wait, however far the sandbox clock was moved.
	// nil leaves Date to net/http (the wall clock).
	Clock *sandbox.Clock
}

// Server is the HTTP side of the sandbox: one pipeline every request takes.
//
//	request id, Date (sandbox clock), header size, recover
//	resolve: route (operation, path variables, area) and token headers -> Call in the context
//	host check                          (Hosts)
//	StageObserve decorators             (traffic tap)
//	cross-site guard of the control plane
//	StageAdmit decorators               (connection counts, rate bucket, maintenance)
//	read the body                       (MaxBodyBytes, BodyTimeout)
//	StageProcess decorators             (write lock, deprecation headers, scripted faults)
//	endpoint                            (content type, token, rights and modules, handler, envelope)
type Server struct {
	match       *matcher
	headers     sandbox.Headers
	ids         *sandbox.IDs
	log         *slog.Logger
	auth        Authenticator
	modules     ModuleGate
	hosts       *Hosts
	bodyTimeout time.Duration
	clock       *sandbox.Clock
	dates       dateCache
	chain       http.Handler
	steps       []Step
	routes      map[string]*Route

	requestSchema func(operation string) *jsonschema.Schema
}

// DefaultBodyTimeout is how long a request body may take to arrive.
const DefaultBodyTimeout = 30 * time.Second

// NewServer builds an empty server; add routes with HandleRoutes.
func NewServer(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.IDs == nil {
		opts.IDs = sandbox.NewIDs(0)
	}
	if opts.Hosts == nil {
		opts.Hosts = &Hosts{}
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	s := &Server{match: newMatcher(), headers: opts.Headers, ids: opts.IDs, log: opts.Log, auth: opts.Auth, modules: opts.Modules,
		hosts: opts.Hosts, bodyTimeout: opts.BodyTimeout, clock: opts.Clock, routes: map[string]*Route{}, requestSchema: opts.RequestSchema}
	s.chain = s.pipeline(opts.Decorators)
	return s
}

// ServeHTTP implements http.Handler: it resolves the call once, then runs
// the pipeline.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := &Call{RequestID: s.ids.UUID(), srv: s}
	SetExactValues(w.Header(), "X-Request-ID", c.HeaderValue(c.RequestID))
	if s.clock != nil {
		w.Header()["Date"] = c.HeaderValue(s.dates.format(s.clock.Now()))
	}
	r = WithCall(r, c)
	defer s.recoverPanic(w, r)
	if n := headerBytes(r); n > MaxHeaderBytes {
		s.writeError(w, r, sandbox.Invalid("headers", "The request headers are %d bytes; the sandbox accepts at most %d. Send the token and the usual headers only.", n, MaxHeaderBytes))
		return
	}
	s.resolve(c, r)
	// A call answered before its body was read (refused at admission, say)
	// closes its connection: the rest of a body nobody wants, perhaps
	// stalled, must not hold the connection, nor delay the answer while
	// net/http tries to discard it. readBody lifts this once it has read
	// the body.
	unread := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	if unread {
		w.Header().Set("Connection", "close")
	}
	s.chain.ServeHTTP(w, r)
	if unread && !c.bodyRead {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
}

// resolve fills the call's route, variables, area and token headers.
func (s *Server) resolve(c *Call, r *http.Request) {
	c.entries, c.Vars = s.match.match(r)
	c.Path = r.URL.Path
	if len(c.entries) > 0 {
		c.Area = c.entries[0].route.Area()
	} else {
		c.Area = AreaOf(r.URL.Path)
	}
	c.token, c.private, c.tokenErr = auth.TokenOf(r.Header, s.headers)
}

// Headers returns the brand-bearing header names in use.
func (s *Server) Headers() sandbox.Headers { return s.headers }

// Hosts returns the Host names the server answers to.
func (s *Server) Hosts() *Hosts { return s.hosts }

// HandleRoutes registers routes. Two routes with one operation name are a
// programming error reported at start.
func (s *Server) HandleRoutes(routes []Route) error {
	added := make([]*Route, 0, len(routes))
	for i := range routes {
		rt := routes[i]
		rt.template = rt.Template()
		if _, dup := s.routes[rt.Operation]; dup {
			return fmt.Errorf("route %s registered twice", rt.Operation)
		}
		s.routes[rt.Operation] = &rt
		added = append(added, &rt)
	}
	s.match.add(added)
	return nil
}

// Route returns a registered route by operation name.
func (s *Server) Route(operation string) (*Route, bool) {
	r, ok := s.routes[operation]
	return r, ok
}

// Operation names the route a request with this body would take ("" when
// none), so tests can label calls without re-implementing routing.
func (s *Server) Operation(r *http.Request, body []byte) string {
	c := &Call{srv: s, body: body, bodyRead: true}
	c.entries, c.Vars = s.match.match(r)
	return c.Operation()
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	hint := "GET /api/system/endpoints lists the endpoints."
	if AreaOf(r.URL.Path) == AreaControl {
		hint = "GET " + ControlPrefix + "/ lists the control routes."
	}
	s.writeError(w, r, sandbox.Errorf(sandbox.KindNotFound, sandbox.CodeNotFound, "unknown",
		"No endpoint %s %s. %s", r.Method, truncate(r.URL.Path, 200), hint))
}

// RequestIDOf returns the request id assigned by the server.
func RequestIDOf(r *http.Request) string {
	if c := CallOf(r); c != nil {
		return c.RequestID
	}
	return ""
}

// MaxHeaderBytes caps the request headers (names, values, request line);
// larger ones answer 400 with an error envelope.
const MaxHeaderBytes = 64 << 10

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

// recoverPanic turns a panic into a logged 500 envelope instead of a
// dropped connection.
func (s *Server) recoverPanic(w http.ResponseWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	s.writeError(w, r, &sandbox.Error{Kind: sandbox.KindInternal, Code: sandbox.CodeInternal, Instance: "unknown",
		Message: "Internal server error. The sandbox logged the details with the request id.", Err: fmt.Errorf("panic: %v", v)})
}

var errNoAuthenticator = sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token", "No authenticator configured.")

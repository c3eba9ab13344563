package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

// Call is one request as the server resolved it before anything else ran:
// its route (operation, path variables, area) and its caller's token. The
// server resolves it once and keeps it in the request's context; the
// traffic tap, the limits, the scripted faults, the deprecation
// headers and the endpoint all read it from there (CallOf) instead of
// routing or looking the token up again.
type Call struct {
	// RequestID is the UUID-shaped id of the request (X-Request-ID and the
	// envelope's metadata).
	RequestID string
	// Area is the part of the sandbox the request is for.
	Area Area
	// Vars are the route's path variables (its path parameters).
	Vars map[string]string
	// Path is the request's URL path as the server routed it, without
	// the query: what a fault's or an expectation's path pattern is
	// matched against. Nobody after the pipeline cuts it up to learn the
	// route; they read Operation, Template and Vars.
	Path string

	// Eshop, TokenKind and Fault are what the pipeline learned about the
	// call for those who observe it (traffic rows, the terminal UI): the
	// e-shop and kind of a caller who passed authentication (or whom a
	// fault acted for), and the scripted fault applied.
	Eshop     int
	TokenKind string
	Fault     string

	srv     *Server
	entries []*entry // candidates, best first (see matcher.match)
	chosen  *entry   // decided candidate

	token    string // the token sent ("" for none)
	private  bool   // sent in the private header
	tokenErr error  // missing, duplicated or conflicting token headers

	identified bool
	identity   auth.Identity

	body     []byte
	bodyRead bool
	shared   []byte // immutable bytes the answer writes (a cached rendering)
	// carrier is the one write that holds shared at sharedAt, between the
	// envelope's head and tail (a pooled buffer, reused after the write).
	carrier  []byte
	sharedAt int

	// values backs the header values the pipeline sets on every answer
	// (request id, date, bucket filling, content type and length) and
	// the Host the traffic record adds to the request's headers: each
	// is a one-element slice of it rather than an allocation of its own.
	values  [6]string
	nvalues int
}

// HeaderValue returns v as a header's list of values: a one-element
// slice of the call's own room while that lasts (its capacity is one, so
// an Add elsewhere copies instead of writing into its neighbour). Setting
// an answer's usual headers then allocates nothing. A nil call allocates.
func (c *Call) HeaderValue(v string) []string {
	if c == nil || c.nvalues == len(c.values) {
		return []string{v}
	}
	i := c.nvalues
	c.nvalues++
	c.values[i] = v
	return c.values[i : i+1 : i+1]
}

// markShared notes that the write carrier holds the immutable bytes
// shared at offset at.
func (c *Call) markShared(carrier, shared []byte, at int) {
	c.carrier, c.shared, c.sharedAt = carrier, shared, at
}

// SplitShared splits a write of the answer that carries immutable (cached)
// bytes into the bytes before them, those bytes, which an observer may
// keep without copying, and the bytes after them; ok is false for any
// other write (whose bytes the writer may reuse). A nil call shares
// nothing.
func (c *Call) SplitShared(p []byte) (before, shared, after []byte, ok bool) {
	if c == nil || len(p) == 0 || len(c.carrier) != len(p) || &p[0] != &c.carrier[0] {
		return nil, nil, nil, false
	}
	end := c.sharedAt + len(c.shared)
	return p[:c.sharedAt], c.shared, p[end:], true
}

type callKey struct{}

// CallOf returns the resolved call of a request (nil outside the server).
func CallOf(r *http.Request) *Call {
	c, _ := r.Context().Value(callKey{}).(*Call)
	return c
}

// WithCall attaches a call to a request; the server does it once for every
// request, tests may do it for middleware they run alone.
func WithCall(r *http.Request, c *Call) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), callKey{}, c))
}

// Route is the route the request takes, nil when none matches. Where an
// alias decided by the body shares the method and path with another route
// (a PUT sent as POST), the body decides once it has been read; before
// that the plain route is reported.
func (c *Call) Route() *Route {
	if c.chosen != nil {
		return c.chosen.route
	}
	switch len(c.entries) {
	case 0:
		return nil
	case 1:
		c.chosen = c.entries[0]
		return c.chosen.route
	}
	if !c.bodyRead {
		return c.entries[len(c.entries)-1].route
	}
	for _, e := range c.entries {
		if e.when == nil || e.when(c.body) {
			c.chosen = e
			break
		}
	}
	return c.chosen.route
}

// Operation names the route's operation ("" when no route matches).
func (c *Call) Operation() string {
	if rt := c.Route(); rt != nil {
		return rt.Operation
	}
	return ""
}

// Template is the path template of the route the request takes, as
// people write it ("/api/orders/{code}"): the route's own, also for a call
// on one of its aliases, which share its operation. "" when no route
// matches.
func (c *Call) Template() string {
	if rt := c.Route(); rt != nil {
		if rt.template != "" {
			return rt.template
		}
		return rt.Template()
	}
	return ""
}

// Token is the token the request carries ("" for none) and whether it came
// in the private header. With conflicting token headers it is the first.
func (c *Call) Token() (tok string, private bool) { return c.token, c.private }

// TokenHeaderKind is the kind of token the request's header claims
// (auth.KindPrivate or auth.KindAddon; "" without a token).
func (c *Call) TokenHeaderKind() string {
	switch {
	case c.token == "":
		return ""
	case c.private:
		return auth.KindPrivate
	}
	return auth.KindAddon
}

// TokenHeader names the header the token came in (the add-on access
// header or the private one, with the server's header word); "" without
// a token.
func (c *Call) TokenHeader() string {
	switch {
	case c.token == "" || c.srv == nil:
		return ""
	case c.private:
		return c.srv.headers.PrivateToken
	}
	return c.srv.headers.AccessToken
}

// Addon is the add-on the call's token was issued to, whether or not the
// token may call now ("" for a private or unknown token, or none).
func (c *Call) Addon() string {
	if c.token == "" {
		return ""
	}
	if t := c.Identity().Token; t != nil {
		return t.Addon
	}
	return ""
}

// Identity resolves the caller's token once per request: the stored record
// (even when expired) and the principal, or why it may not call.
func (c *Call) Identity() auth.Identity {
	if c.identified {
		return c.identity
	}
	c.identified = true
	switch {
	case c.tokenErr != nil:
		c.identity = auth.Identity{Err: c.tokenErr}
	case c.srv == nil || c.srv.auth == nil:
		c.identity = auth.Identity{Err: errNoAuthenticator}
	default:
		c.identity = c.srv.auth.Identify(c.token, c.private)
	}
	return c.identity
}

// Reidentify forgets the resolved identity, for a step that changed the
// token (a scripted fault expiring it) before the endpoint runs.
func (c *Call) Reidentify() { c.identified = false }

// EshopID is the e-shop a call acts on: from the path of an e-shop page or
// control route ({eshopId}), else from its token, valid or not (0 when
// neither tells).
func (c *Call) EshopID() int {
	if v, ok := c.Vars["eshopId"]; ok {
		id, _ := strconv.Atoi(v)
		return id
	}
	if c.token == "" {
		return 0
	}
	return c.Identity().Eshop()
}

// Caller is the e-shop and token kind an observer shows for the call:
// what the endpoint (or a fault) recorded, else what the token sent says
// about its caller when the sandbox knows it, whether or not it could
// call (expired, in the other access mode's header, without the rights,
// or refused before the token was checked, for a bad Content-Type). 0
// and "" when no known token was sent.
func (c *Call) Caller() (eshop int, kind string) {
	eshop, kind = c.Eshop, c.TokenKind
	if (eshop != 0 && kind != "") || c.token == "" {
		return eshop, kind
	}
	if t := c.Identity().Token; t != nil {
		if eshop == 0 {
			eshop = t.EshopID
		}
		if kind == "" {
			kind = t.Kind
		}
	}
	return eshop, kind
}

// Body is the request body, read once before processing started (nil
// before that, and for requests without one).
func (c *Call) Body() []byte { return c.body }

// BodyRead reports whether the body has been read.
func (c *Call) BodyRead() bool { return c.bodyRead }

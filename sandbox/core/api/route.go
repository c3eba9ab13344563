package api

import (
	"net/http"
	"strings"
)

// HandlerFunc is what behaviour packages write: it returns the envelope's
// data (or a *Result, *Raw) or an error, never touching the ResponseWriter.
type HandlerFunc func(r *Request) (any, error)

// Route is one endpoint. Method, Path and Group come from the reference
// catalogue (or the sandbox's own control plane and e-shop pages);
// Operation is the stable name that rights, faults, traffic rows, logs and
// deprecations use.
type Route struct {
	Operation string
	Method    string
	Path      string
	Group     string
	Handler   HandlerFunc
	// Public routes skip token authentication (control plane, e-shop pages,
	// OAuth server endpoints).
	Public bool
	// NoContentType routes do not require the Content-Type header.
	NoContentType bool
	// AnyToken routes need a valid token but no right: every caller may
	// ask which endpoints it may call (GET /api/system/endpoints).
	AnyToken bool
	// Query lists the query parameters the reference declares for the
	// endpoint, typed (see QueryParams): the endpoint step refuses a call
	// without a required one or with a value of the wrong kind before the
	// handler runs.
	Query []QueryParam
	// Module is the e-shop module the endpoint needs ("" for none): a
	// caller whose e-shop lacks it gets 403 (spec, private tokens rule 4).
	// sandbox/shop/system's module table declares it for every operation.
	Module string
	// Summary is a one-line description shown by the GET /_sandbox/ index
	// and the control plane's OpenAPI.
	Summary string
	// BodySchema is the JSON Schema of a control route's request body, for
	// the control plane's OpenAPI (nil: a JSON object, described by the
	// summary).
	BodySchema map[string]any
	// Answer is a value of the Go type a control route answers with in
	// the envelope's data (a struct, a pointer to one, or a map for an
	// ad-hoc answer); the control plane's OpenAPI draws the answer's JSON
	// Schema from it by reflection (openapi.AnswerSchema), field by field,
	// with a field's `doc` tag as its description and its `enum` tag
	// (values separated by |) as its enum. nil: an answer not yet typed.
	Answer any
	// Body is a value of the Go type of a control route's request body,
	// for its schema in the control plane's OpenAPI when BodySchema is
	// nil, drawn as Answer's is (a field without omitempty is required);
	// NoData{} for a route that takes no body.
	Body any
	// Normalize, when set, rewrites the decoded request body before Body
	// checks it against the request schema: an encoding the spec accepts
	// that the reference's schema does not type (an order's statusId as
	// a digit string). Modules declare it per operation (app.Module.Bodies).
	Normalize func(body map[string]any)
	// Aliases serve this same route (same operation, checks and handler)
	// at other methods or paths: the spec's PATCH /orders/{code}/status,
	// and PUT endpoints sent as POST by the client library.
	Aliases []Alias

	// template is Template(), computed once when the server registers
	// the route: the traffic record asks for it on every call.
	template string
}

// Described is a key's value in a map Answer with its description, for
// the control plane's OpenAPI: map[string]any{"removed": api.Doc(0, "How
// many faults were removed.")}.
type Described struct {
	Value any
	Text  string
}

// Doc describes a map Answer's value.
func Doc(value any, text string) Described { return Described{Value: value, Text: text} }

// NoData is the Answer of a control route whose envelope's data is null.
type NoData struct{}

// Alias is another method and path a route answers at.
type Alias struct {
	Method string
	Path   string
	// When, if set, decides from the request body whether a request at this
	// method and path is this route's; otherwise the route registered
	// plainly at the same method and path takes it. POST
	// /api/products/{guid}/gifts adds one gift, but with giftCodes in its
	// data it is SetGiftsToProduct sent as POST.
	When func(body []byte) bool
}

// Area is the part of the sandbox a route belongs to; it decides which
// guards and limits apply.
type Area int

// The areas, by path.
const (
	// AreaOther holds downloads outside the API (job results, uploaded files).
	AreaOther Area = iota
	// AreaAPI is the service's API (/api/...): tokens, rights, limits, faults.
	AreaAPI
	// AreaControl is the sandbox's control plane (/_sandbox/...).
	AreaControl
	// AreaEshop holds an e-shop's own pages and OAuth server (/eshops/{id}/...).
	AreaEshop
)

// String names the area for logs and messages.
func (a Area) String() string {
	switch a {
	case AreaAPI:
		return "api"
	case AreaControl:
		return "control"
	case AreaEshop:
		return "eshop"
	}
	return "other"
}

// AreaOf tells the area of a request path. Unknown paths under /api/ are
// API calls too (they are counted by the limits and answered 404).
func AreaOf(path string) Area {
	switch {
	case strings.HasPrefix(path, "/api/"):
		return AreaAPI
	case path == ControlPrefix || strings.HasPrefix(path, ControlPrefix+"/"):
		return AreaControl
	case strings.HasPrefix(path, "/eshops/"):
		return AreaEshop
	}
	return AreaOther
}

// ControlPrefix is where the sandbox's control plane lives.
const ControlPrefix = "/_sandbox"

// Area is the area of the route, by its own path (an alias belongs to the
// area of the route it serves).
func (rt Route) Area() Area { return AreaOf(rt.Path) }

// changesState reports whether a method may change state; the control
// plane guards such requests against cross-site use.
func changesState(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

package crud

import (
	"net/http"
	"net/url"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
)

// LineWriter writes one line of a batch file inside the caller's
// transaction as one request of the line's operation would write it:
// the same validation, hooks, change log and events. c's request carries
// the path variables that request would (Ctx.WithVars). It returns the
// identifier the write's events name (a product's guid for one of its
// images), for the batch's mass event.
type LineWriter func(c *Ctx, line map[string]any) (string, error)

// LineWriter returns the writer of a generic create, update or delete
// op, or of one entry of a bulk write; false for any other op (an action
// is written by its behaviour package).
func (e *Engine) LineWriter(operation string) (LineWriter, bool) {
	row, op, ok := e.reg.Op(operation)
	if !ok {
		return nil, false
	}
	switch op.Kind {
	case registry.Create, registry.Update, registry.Delete, registry.BulkCreate, registry.BulkUpdate, registry.BulkDelete:
	default:
		return nil, false
	}
	return func(c *Ctx, line map[string]any) (string, error) {
		_, _, id, err := c.writeOne(row, op, line)
		return id, err
	}, true
}

// Line prepares a batch line for its operation: it returns the body one
// request of the operation would carry with the line as its only entry
// (to validate against the request schema), and then undoes the client
// SDK's encodings in the line and drops sandbox metadata, as BodyObject
// and BodyList do for a request. Call validate before normalize.
func (e *Engine) Line(operation string, line map[string]any) (body map[string]any, normalize func()) {
	node := shape.Request(operation)
	key := ""
	if _, op, ok := e.reg.Op(operation); ok && op.Body != "" {
		key = op.Body
		node = node.Resolve().Prop(key)
	}
	var entry any = line
	if node.Resolve().Is("array") {
		node = node.Items()
		entry = []any{line}
	}
	data := entry
	if key != "" {
		data = map[string]any{key: entry}
	}
	return map[string]any{"data": data}, func() {
		shape.Normalize(line, node)
		api.StripMeta(line)
	}
}

// Background is a request the sandbox makes itself (a batch job's line):
// for the e-shop, as the operation, with the path variables and query of
// the request that queued it. Engine.Update takes it like a client's.
func Background(eshop int, operation, path string, vars map[string]string, rawQuery string) *api.Request {
	hr := &http.Request{Method: http.MethodPost, URL: &url.URL{Path: path, RawQuery: rawQuery}, Header: http.Header{}}
	return &api.Request{Request: hr, Route: &api.Route{Operation: operation, Path: path}, Vars: vars, Eshop: eshop}
}

// WithVars is the context with the request's path variables replaced:
// each line of a batch names its own record.
func (c *Ctx) WithVars(vars map[string]string) *Ctx {
	r := *c.R
	r.Vars = vars
	return &Ctx{E: c.E, R: &r, Tx: c.Tx, Esh: c.Esh, W: c.W, Gen: c.Gen}
}

package crud

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Ctx is one request inside one store transaction: the e-shop's
// rendering context, the default generator of the shapes, and the
// registry to resolve references. Behaviour packages get one from
// Engine.View or Engine.Update to reuse the generic reads and writes.
type Ctx struct {
	E   *Engine
	R   *api.Request
	Tx  *store.Tx
	Esh *eshop.Context
	Gen *shape.Gen
	// W is the request's write path: every write of a registry record
	// goes through it.
	W *Writer

	// prev is the record as it was before Apply merged the request into
	// it, for Prepare hooks that keep parts of the old record.
	prev map[string]any
	// node, when set, is the schema the written record follows instead
	// of the row's (a singleton of the shared settings collection).
	node shape.Node
}

// Prev is the record as stored before the current write (nil on create).
func (c *Ctx) Prev() map[string]any { return c.prev }

// View runs fn in a read transaction with a request context.
func (e *Engine) View(r *api.Request, fn func(c *Ctx) error) error {
	return e.d.Store.View(func(tx *store.Tx) error {
		c, err := e.ctx(r, tx)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

// Update runs fn in a write transaction with a request context.
func (e *Engine) Update(r *api.Request, fn func(c *Ctx) error) error {
	return e.d.Store.Update(func(tx *store.Tx) error {
		c, err := e.ctx(r, tx)
		if err != nil {
			return err
		}
		return fn(c)
	})
}

func (e *Engine) ctx(r *api.Request, tx *store.Tx) (*Ctx, error) {
	ec, err := eshop.NewContext(tx, r, e.d.Site)
	if err != nil {
		return nil, err
	}
	return &Ctx{E: e, R: r, Tx: tx, Esh: ec, W: e.Writer(tx, r.Eshop), Gen: &shape.Gen{Now: tx.Clock().Now(), UUID: e.d.IDs.UUID, Currency: ec.Meta.DefaultCurrency}}, nil
}

// Registry returns the table the engine serves.
func (e *Engine) Registry() *registry.Registry { return e.reg }

// Row returns a registry row by name; a missing row is a programming
// error.
func (c *Ctx) Row(name string) *registry.Resource {
	row, ok := c.E.reg.Resource(name)
	if !ok {
		panic("crud: no registry row " + name)
	}
	return row
}

// Render turns a stored record into what a client sees: placeholders
// filled, the language overlay applied, sandbox metadata removed.
func (c *Ctx) Render(rec map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	return api.Render(raw, c.Esh.View())
}

// Shape conforms a value to a response node.
func (c *Ctx) Shape(v any, n shape.Node) any { return c.Gen.Conform(v, n) }

// Emit queues an event for after the commit.
func (c *Ctx) Emit(kind, instance string) {
	if kind == "" {
		return
	}
	c.Tx.Emit(sandbox.Event{EshopID: c.R.Eshop, Kind: kind, Instance: instance})
}

// Changed records a change of a record in its resource's change log (no
// log kept: nothing).
func (c *Ctx) Changed(k *Coll, id, changeType string) error {
	if err := c.W.log(k.Row, k.logName(), id, changeType); err != nil {
		return err
	}
	if k.Row.Parent == nil {
		if c.W.logged == nil {
			c.W.logged = map[[2]string]bool{}
		}
		c.W.logged[[2]string{k.Row.Name, id}] = true
	}
	return nil
}

// Now is the sandbox time in the service's format.
func (c *Ctx) Now() string { return sandbox.FormatTime(c.Tx.Now()) }

// IDString renders an identifier value (string or number) as a path
// shows it.
func IDString(v any) string { return idString(v) }

// idString renders an identifier field value as the path shows it.
func idString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// Singular names a resource for messages, as the generic handlers do:
// "customers/delivery-addresses" -> "Customer delivery address".
func Singular(name string) string { return singular(name) }

// singular names a resource for messages: "customers/delivery-addresses"
// -> "Customer delivery address".
func singular(name string) string {
	words := strings.Fields(strings.NewReplacer("/", " ", "-", " ").Replace(name))
	for i, w := range words {
		switch {
		case strings.HasSuffix(w, "ies"):
			w = strings.TrimSuffix(w, "ies") + "y"
		case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
			w = strings.TrimSuffix(w, "es")
		default:
			w = strings.TrimSuffix(w, "s")
		}
		words[i] = w
	}
	s := strings.Join(words, " ")
	if s == "" {
		return "Record"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Answer conforms data to the response schema of the request's operation
// (hand-written handlers answer in the reference's shape too).
func (c *Ctx) Answer(data any) any {
	return c.Gen.Conform(data, shape.Response(c.R.Route.Operation))
}

// Var is a path variable of the request.
func (c *Ctx) Var(name string) string { return c.R.Var(name) }

// CollOf opens the records of a row by name.
func (c *Ctx) CollOf(name string) (*Coll, error) { return c.Coll(c.Row(name)) }

// Site is the sandbox's public addresses.
func (e *Engine) Site() *eshop.Site { return e.d.Site }

// Package crud generates the handlers of every registry row: list (paging,
// filters, include, language), detail, create, update (PATCH merge, or
// into a translation with language), replace (PUT), delete, synchronous
// bulk writes with partial success, the change log, and PDF/ISDOC
// downloads. Answers are shaped by the reference's response schemas
// (sandbox/core/shape), so a record created from a minimal body still answers
// every key the reference requires. Each write records its change and
// emits its events inside the store transaction. Behaviour the table
// cannot express lives in behaviour packages (registry Kind Action), which
// write registry records through the same Writer (writer.go): the store
// refuses a registry table's write from anywhere else.
package crud

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Deps are what the generic handlers need.
type Deps struct {
	Store *store.Store
	Site  *eshop.Site
	IDs   *sandbox.IDs
	// Hooks complete the table with the shop areas' rules (the app's
	// surface.Hooks); crud adds its own (builtinHooks).
	Hooks []Hook
}

// Engine serves the registry's generic behaviour.
type Engine struct {
	reg   *registry.Registry
	d     Deps
	cache *renderCache
	hooks *hooks
	// writes is the store's capability to write the registry's
	// collections (see Writer).
	writes *store.Reserved
}

// New builds an engine; it loads the schemas' shapes once and checks the
// hooks (crud's own and d.Hooks) against the registry (a hook for a row
// or operation the table does not have fails here, naming it, and so
// does a row with downloads or numbering whose hook is missing).
func New(reg *registry.Registry, d Deps) (*Engine, error) {
	if err := shape.Load(); err != nil {
		return nil, err
	}
	h, err := indexHooks(reg, append(append([]Hook{}, builtinHooks...), d.Hooks...))
	if err != nil {
		return nil, err
	}
	if d.IDs == nil {
		d.IDs = sandbox.NewIDs(0)
	}
	// The registry's collections are written only through Writer.
	var colls []string
	for _, row := range reg.Resources() {
		if row.Parent == nil {
			colls = append(colls, row.Name)
		}
	}
	e := &Engine{reg: reg, d: d, cache: newRenderCache(), hooks: h}
	if d.Store != nil { // nil: an engine that only checks its table
		e.writes = d.Store.Reserve(colls...)
	}
	return e, nil
}

// Handlers returns the generic handlers of every row, keyed by operation.
// Action ops are left to behaviour packages and Batch ops to sandbox/jobs; every other op must resolve
// to the shapes its kind needs, else start-up fails naming the row.
func Handlers(reg *registry.Registry, d Deps) (map[string]api.HandlerFunc, error) {
	e, err := New(reg, d)
	if err != nil {
		return nil, err
	}
	return e.Handlers()
}

// Handlers returns the engine's handlers keyed by operation.
func (e *Engine) Handlers() (map[string]api.HandlerFunc, error) {
	out := map[string]api.HandlerFunc{}
	for _, row := range e.reg.Resources() {
		for _, op := range row.Ops {
			h, err := e.handler(row, op)
			if err != nil {
				return nil, fmt.Errorf("registry row %s, %s: %w", row.Name, op.Operation, err)
			}
			if h != nil {
				out[op.Operation] = h
			}
		}
	}
	return out, nil
}

func (e *Engine) handler(row *registry.Resource, op *registry.Op) (api.HandlerFunc, error) {
	if op.Kind == registry.Action || op.Kind == registry.Batch {
		return nil, nil // behaviour packages; sandbox/shop/jobs runs batches
	}
	data := shape.Response(op.Operation)
	if !data.Valid() && op.Kind != registry.Download {
		return nil, fmt.Errorf("the reference has no JSON response for it")
	}
	if op.Key != "" && !data.HasProp(op.Key) {
		return nil, fmt.Errorf("response data has no %q", op.Key)
	}
	if err := checkKey(row, op, data); err != nil {
		return nil, err
	}
	switch op.Kind {
	case registry.List:
		return e.list(row, op), nil
	case registry.Detail:
		return e.detail(row, op), nil
	case registry.Create:
		return e.create(row, op), nil
	case registry.Update:
		return e.update(row, op), nil
	case registry.Replace:
		return e.replace(row, op), nil
	case registry.Delete:
		return e.delete(row, op), nil
	case registry.DeleteAll:
		return e.deleteAll(row, op), nil
	case registry.Changes:
		return e.changes(row, op), nil
	case registry.BulkCreate:
		return e.bulkCreate(row, op), nil
	case registry.BulkUpdate:
		return e.bulkUpdate(row, op), nil
	case registry.BulkDelete:
		return e.bulkDelete(row, op), nil
	case registry.Download:
		return e.download(row, op), nil
	}
	return nil, fmt.Errorf("unknown kind %q", op.Kind)
}

// checkKey catches a row that answers a record at data while the
// reference nests it under a key (data.product): a data object that
// declares exactly one property, an object, is such a wrapper.
func checkKey(row *registry.Resource, op *registry.Op, data shape.Node) error {
	if op.Key != "" || op.Fixed != "" || op.Answer != registry.AnswerRecord {
		return nil
	}
	switch op.Kind {
	case registry.Detail, registry.Create, registry.Update:
	default:
		return nil
	}
	props := data.Props()
	if len(props) == 1 && data.Prop(props[0]).Is("object") && !data.HasProp(row.IDField) {
		return fmt.Errorf("the reference answers the record under data.%s: set the op's Key", props[0])
	}
	return nil
}

// Package surface assembles the reference's API surface that the registry
// table describes: the generic handlers of sandbox/core/crud plus the
// behaviour packages for the operations the table marks as actions
// (catalog, accounting, marketing, logistics), the change logs of a fresh
// sandbox, and the client SDK's habit of sending PUT as POST. The app
// registers it as one module.
package surface

import (
	"context"
	"fmt"
	"sort"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents/accounting"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/logistics"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/marketing"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/products"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/products/catalog"
)

// Deps are what the surface needs.
type Deps struct {
	Store    *store.Store
	Site     *eshop.Site
	IDs      *sandbox.IDs
	Registry *registry.Registry
}

// Surface is the assembled table-driven API.
type Surface struct {
	d        Deps
	Engine   *crud.Engine
	handlers map[string]api.HandlerFunc
	parts    map[string]string // operation -> TablePart or the action package serving it
}

// TablePart names the surface's generic handlers (sandbox/core/crud) in Part.
const TablePart = "table"

// New builds the surface from the generic handlers and the action
// packages. An operation served by two of them is an error naming both;
// an action no part serves is left to the other modules (the app refuses
// an action no module serves).
func New(d Deps) (*Surface, error) {
	e, err := crud.New(d.Registry, crud.Deps{Store: d.Store, Site: d.Site, IDs: d.IDs, Hooks: Hooks()})
	if err != nil {
		return nil, err
	}
	generic, err := e.Handlers()
	if err != nil {
		return nil, err
	}
	s := &Surface{d: d, Engine: e}
	s.handlers, s.parts, err = gather([]part{
		{TablePart, generic},
		{"catalog", catalog.Handlers(e)},
		{"accounting", accounting.Handlers(e, d.Site)},
		{"marketing", marketing.Handlers(e, d.IDs)},
		{"logistics", logistics.Handlers(e, d.Site, d.IDs)},
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Hooks are the shop areas' rules the generic handlers call (crud.Hook):
// every engine the sandbox builds gets them (sandbox/shop/jobs lists the
// same, as it cannot import this package).
func Hooks() []crud.Hook {
	return append(products.Hooks(), documents.Hooks()...)
}

// part is one package's share of the surface.
type part struct {
	name     string
	handlers map[string]api.HandlerFunc
}

// gather merges the parts' handlers; an operation two parts serve is an
// error naming both.
func gather(parts []part) (map[string]api.HandlerFunc, map[string]string, error) {
	handlers, owner := map[string]api.HandlerFunc{}, map[string]string{}
	for _, p := range parts {
		ops := make([]string, 0, len(p.handlers))
		for op := range p.handlers {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			if prev, dup := owner[op]; dup {
				return nil, nil, fmt.Errorf("surface: operation %s is served by both %s and %s", op, prev, p.name)
			}
			handlers[op], owner[op] = p.handlers[op], p.name
		}
	}
	return handlers, owner, nil
}

// Part names the part serving an operation: TablePart for the generic
// handlers, else the action package ("" when the surface does not serve
// it).
func (s *Surface) Part(operation string) string { return s.parts[operation] }

// Handlers returns every handler of the surface keyed by operation.
func (s *Surface) Handlers() map[string]api.HandlerFunc { return s.handlers }

// Start gives every e-shop's change logs the history of the seeded
// records (a persisted data file keeps its own log).
func (s *Surface) Start(context.Context) error { return s.Backfill() }

// Backfill gives the change logs the history of the seeded records; it
// runs at start and after a reset (see changelog.Seed).
func (s *Surface) Backfill() error {
	return s.d.Store.Update(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			for _, row := range s.d.Registry.Resources() {
				if row.Parent != nil || row.ChangeKey == "" {
					continue
				}
				if err := changelog.Seed(tx, m.ID, row.Name); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// Status is an operation's success status per the table (0 when the table
// does not serve it).
func (s *Surface) Status(operation string) int {
	if _, op, ok := s.d.Registry.Op(operation); ok {
		return op.SuccessStatus()
	}
	return 0
}

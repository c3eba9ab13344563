package app

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// limitsModule applies the spec's limits to API calls and exposes their
// control routes.
func limitsModule(d *Deps) (*Module, error) {
	cfg := sandbox.DefaultLimits()
	if d.Config.Limits != nil {
		cfg = *d.Config.Limits
	}
	l := limits.New(cfg, d.Clock, d.Headers)
	d.Limits = l
	l.Operation = d.Operation
	l.EshopOf = func(tok string) (int, bool) {
		var id int
		err := d.Store.View(func(tx *store.Tx) error {
			p, err := auth.Lookup(tx, tok)
			if err == nil {
				id = p.EshopID()
			}
			return err
		})
		return id, err == nil
	}
	return &Module{Name: "limits", Middleware: l.Middleware, Control: l.Routes(),
		AfterReset: func() error { l.Reset(); return nil }}, nil
}

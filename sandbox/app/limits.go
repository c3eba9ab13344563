package app

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
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
	return &Module{Name: "limits", Decorators: l.Decorators(), Control: l.Routes(),
		AfterReset: func() error { l.Reset(); return nil }}, nil
}

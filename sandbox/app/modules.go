package app

import (
	"context"
	"errors"
	"maps"

	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/app/surface"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/payments"
)

// modules lists the behaviour packages, one line each. Each operation has
// exactly one owner (Open refuses two modules serving one), so the order
// matters only for middleware (earlier wraps later) and for the services
// a module shares through Deps with those after it.
var modules = []ModuleFunc{
	func(d *Deps) (*Module, error) { // first, so the traffic tap sees every answer as sent
		r := traffic.New(traffic.Deps{Bus: d.Bus, Clock: d.Clock, Store: d.Store, Site: d.Site, Headers: d.Headers, Log: d.Log},
			traffic.Options{History: d.Config.TrafficHistory, Version: d.Config.Version})
		return &Module{Name: "traffic", Decorators: []api.Decorator{r.Decorator()}, Control: r.Routes(), Start: r.Start, Stop: r.Stop}, nil
	},
	limitsModule,
	func(d *Deps) (*Module, error) { // the registry table: generic handlers, catalogue/accounting/marketing/logistics actions
		s, err := surface.New(surface.Deps{Store: d.Store, Site: d.Site, IDs: d.IDs, Registry: d.Registry})
		if err != nil {
			return nil, err
		}
		d.Engine = s.Engine
		put, err := surface.PutAsPost()
		if err != nil {
			return nil, err
		}
		return &Module{Name: "surface", Handlers: s.Handlers(), Part: s.Part, Aliases: put, Start: s.Start, AfterReset: s.Backfill,
			Control: []api.Route{openapi.Route(func() string { return d.Site.BaseURL },
				openapi.Options{Headers: d.Headers, Status: s.Status, Module: func(op string) string { m, _ := d.Catalogue.ModuleOf(op); return m }})}}, nil
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "system", Handlers: d.Catalogue.Handlers()}, nil
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "eshop", Handlers: eshop.Handlers(d.Store, d.Site)}, nil
	},
	clockModule, inboxModule, webhooksModule, jobsModule, filesModule, imagesModule, templatesModule, // events.go
	func(d *Deps) (*Module, error) { // add-ons: OAuth server at {eshop_url}, install handshake, life cycle
		s := addons.New(addons.Deps{Store: d.Store, Site: d.Site, IDs: d.IDs, Bus: d.Bus, Resolve: d.Catalogue.Resolve, Operations: d.Catalogue.Operations, Log: d.Log, Egress: d.Egress})
		return &Module{Name: "addons", Control: s.ControlRoutes(), Eshop: s.EshopRoutes(), Stop: s.Stop}, nil
	},
	func(d *Deps) (*Module, error) { // orders, documents, stock, e-mail outbox and the payment-gateway flow with the buyer's pages
		o := orders.New(d.Engine, d.IDs)
		o.Bus = d.Bus // payment-flow steps for the contract report
		p := payments.New(o)
		h := o.Handlers()
		maps.Copy(h, p.Handlers())
		return &Module{Name: "orders", Handlers: h, Aliases: orders.Aliases(), Bodies: orders.Bodies(), Control: append(o.ControlRoutes(), p.ControlRoutes()...), Eshop: p.EshopRoutes(),
			Start:      func(ctx context.Context) error { return errors.Join(o.Start(ctx), p.Start(ctx)) },
			AfterReset: func() error { return errors.Join(o.Prime(), p.Prime()) }}, nil
	},
	scenarioModule, // scenario.go: scripted faults and the contract report; after limits, webhooks and jobs
}

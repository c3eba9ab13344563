package app

import (
	"context"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/inbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/timectl"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/files"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/images"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/templates"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// The event-side modules (issue 4): the clock control, webhooks and their
// dispatcher, asynchronous jobs, uploaded files, templates and the
// storefront preview. modules.go lists them.

func clockModule(d *Deps) (*Module, error) {
	c := &timectl.Controller{Clock: d.Clock, Bus: d.Bus}
	return &Module{Name: "clock", Control: c.Routes()}, nil
}

func webhooksModule(d *Deps) (*Module, error) {
	timeout := d.Config.WebhookTimeout
	if timeout <= 0 {
		timeout = sandbox.DefaultWebhookTimeout
	}
	disp := &webhooks.Dispatcher{Store: d.Store, Bus: d.Bus, Clock: d.Clock, Headers: d.Headers, Log: d.Log,
		Client:  d.Egress.Client(timeout, true),
		Options: webhooks.Options{Attempts: d.Config.WebhookAttempts, Backoff: d.Config.WebhookBackoff, Timeout: d.Config.WebhookTimeout}}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	if d.Inbox != nil {
		disp.Local = d.Inbox.Local // deliveries to the built-in inbox stay in-process
	}
	d.Bus.Hook(disp.Hook)
	d.Webhooks = disp
	events := webhooks.NewCatalogue(cat.Events)
	if err := events.CheckAliases(); err != nil {
		return nil, err
	}
	svc := &webhooks.Service{Store: d.Store, IDs: d.IDs, Catalogue: events, Dispatcher: disp, Egress: d.Egress}
	return &Module{Name: "webhooks", Handlers: svc.Handlers(), Control: svc.Routes(),
		Start:      func(context.Context) error { return disp.Start() },
		Stop:       disp.Stop,
		AfterReset: func() error { disp.Reset(); return nil }}, nil
}

// fetcher downloads sourceUrl and batch files for files and jobs, never
// from the sandbox itself.
func fetcher(d *Deps) *files.Fetcher { return files.NewFetcher(d.Egress, time.Minute) }

// inboxModule is the built-in webhook receiver: deliveries to its URLs are
// handed over in-process by the dispatcher (the sandbox never sends a
// request to its own listener). It is listed before the webhooks module,
// which hands d.Inbox.Local to its dispatcher; d.Inbox.Owns tells the URLs
// pointing at the sandbox that a webhook may name.
func inboxModule(d *Deps) (*Module, error) {
	b := &inbox.Inbox{Store: d.Store, Clock: d.Clock, Headers: d.Headers,
		Bases: func() []string { return []string{d.Site.BaseURL, d.ListenURL()} }}
	d.Inbox = b
	return &Module{Name: "inbox", Control: b.Routes(), AfterReset: func() error { b.Reset(); return nil }}, nil
}

// imagesModule serves the product images at the cut addresses the API
// gives, checking at start (and after a reset) that it can serve every
// e-shop's cuts.
func imagesModule(d *Deps) (*Module, error) {
	svc := &images.Service{Store: d.Store}
	return &Module{Name: "images", Eshop: svc.Routes(),
		Start: func(context.Context) error { return svc.Check() }, AfterReset: svc.Check}, nil
}

func filesModule(d *Deps) (*Module, error) {
	svc := &files.Service{Store: d.Store, Site: d.Site, Fetcher: fetcher(d)}
	return &Module{Name: "files", Handlers: svc.Handlers(), Eshop: svc.Routes()}, nil
}

func jobsModule(d *Deps) (*Module, error) {
	f := fetcher(d)
	svc := &jobs.Service{Store: d.Store, Clock: d.Clock, Bus: d.Bus, Site: d.Site, Registry: d.Registry,
		Catalogue: d.Catalogue, Schemas: d.Schemas, IDs: d.IDs, Fetcher: f, Log: d.Log, Engine: d.Engine,
		Files: &files.Service{Store: d.Store, Site: d.Site, Fetcher: f}}
	if err := svc.Check(); err != nil {
		return nil, err
	}
	d.Bus.Hook(svc.Hook)
	d.Jobs = svc
	return &Module{Name: "jobs", Handlers: svc.Handlers(), Control: svc.ControlRoutes(), Eshop: svc.Routes(),
		Start:      func(context.Context) error { svc.Start(); return nil },
		Stop:       svc.Stop,
		AfterReset: func() error { svc.Reset(); return nil }}, nil
}

func templatesModule(d *Deps) (*Module, error) {
	svc := &templates.Service{Store: d.Store, Site: d.Site}
	return &Module{Name: "templates", Handlers: svc.Handlers(), Eshop: svc.Routes()}, nil
}

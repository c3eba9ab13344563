// Package app wires the sandbox together: schemas, catalogue, registry,
// store, HTTP server, fixtures. The CLI and the tests build a sandbox the
// same way, through Open.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/control"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/egress"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/payments"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/system"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// App is one running sandbox.
type App struct {
	Config    sandbox.Config
	Clock     *sandbox.Clock
	Store     *store.Store
	Server    *api.Server
	Site      *eshop.Site
	Catalogue *system.Catalogue
	Schemas   *schemas.Set
	Bus       *bus.Bus
	Log       *slog.Logger

	modules    []*Module
	owners     map[string]Owner // who serves each operation (owners.go)
	routeTable []api.Route      // every registered route

	closeOnce sync.Once
	closeErr  error
	listener  net.Listener
	conns     *api.ConnGuard
	egress    *egress.Guard
	http      *http.Server
	loader    *seed.Loader
	ready     atomic.Bool
	served    chan error
}

// Open builds the sandbox, binds its listener and seeds the store (unless
// a persisted data file is already seeded). It does not serve yet; call
// Start. After a failure everything opened so far is closed again.
func Open(cfg sandbox.Config, log *slog.Logger) (_ *App, err error) {
	if log == nil {
		log = slog.Default()
	}
	if cfg.Addr == "" {
		cfg.Addr = sandbox.DefaultAddr
	}
	if cfg.HeaderPrefix == "" {
		cfg.HeaderPrefix = sandbox.DefaultHeaderPrefix
	}
	if err := sandbox.CheckHeaderPrefix(cfg.HeaderPrefix); err != nil {
		return nil, fmt.Errorf("--header-prefix: %w", err)
	}
	embedded := cfg.Fixtures == nil
	if embedded {
		cfg.Fixtures, cfg.FixturesName = fixtures.FS, "fixtures"
	}
	clock := cfg.Clock
	if clock == nil {
		clock = sandbox.NewClock()
	}
	a := &App{Config: cfg, Clock: clock, Log: log, Site: &eshop.Site{}, served: make(chan error, 1), egress: &egress.Guard{}}
	defer func() {
		if err != nil {
			_ = a.Close(context.Background())
		}
	}()

	if a.Schemas, err = schemas.Compile(); err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	a.Catalogue = system.NewCatalogue(cat)
	if err := a.Catalogue.CheckModules(); err != nil {
		return nil, err
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	if err := reg.CheckEvents(cat.Events); err != nil {
		return nil, err
	}
	a.Bus = bus.New()
	if a.Store, err = store.Open(store.Options{Path: cfg.DataFile, Sync: cfg.Sync, Clock: clock, Publisher: a.Bus}); err != nil {
		return nil, err
	}
	if n := a.Store.Keys(); n > 0 && !seed.Seeded(a.Store) {
		// Seeding writes everything and its mark in one transaction: a
		// file with keys but no mark was cut inside it (at a command
		// boundary, which no check can see) or is not a sandbox's. Seeding
		// it again would fail on what is there, or mix two seeds.
		return nil, fmt.Errorf("data file %s holds %d keys but not the mark a completed seeding writes: it was cut short or is not a sandbox's data file. "+
			"The sandbox did not start and did not change the file; move it away to start afresh (`sandbox data check %s` shows what it holds)", cfg.DataFile, n, cfg.DataFile)
	}
	a.loader = newLoader(cfg.Fixtures, cfg.FixturesName, reg, a.Schemas, a.Catalogue)
	// The embedded fixtures are validated against the schemas by the
	// tests; skipping that at start keeps start-up fast. A folder given
	// with --fixtures is always validated, except for the files its stamp
	// vouches for (see seed.StampFile).
	a.loader.Validate = !embedded
	a.loader.Trusted = embedded
	// A folder's packs (see seed.PackDir) are its large collections held
	// packed from the start, as they would be once packed in the
	// background; none when packing is turned off.
	a.loader.Packs = cfg.PackAbove >= 0

	headers := sandbox.NewHeaders(cfg.HeaderPrefix)
	ids := sandbox.NewIDs(cfg.Seed)
	deps := &Deps{Config: cfg, Store: a.Store, Bus: a.Bus, Clock: clock, Site: a.Site, Catalogue: a.Catalogue,
		Schemas: a.Schemas, Registry: reg, IDs: ids, Headers: headers, Log: log, Egress: a.egress, ListenURL: a.ListenURL}
	own := newOwners()
	aliases := map[string][]api.Alias{}
	bodies := map[string]func(map[string]any){}
	var extra []api.Route
	var decorators []api.Decorator
	for _, mf := range modules {
		m, err := mf(deps)
		if err != nil {
			return nil, fmt.Errorf("module: %w", err)
		}
		a.modules = append(a.modules, m)
		if err := own.add(m); err != nil {
			return nil, err
		}
		extra = append(extra, m.Control...)
		for _, rt := range m.Eshop {
			rt.Path = "/eshops/{eshopId:[0-9]+}" + rt.Path
			extra = append(extra, rt)
		}
		decorators = append(decorators, m.Decorators...)
		for op, fn := range m.Bodies {
			if bodies[op] != nil {
				return nil, fmt.Errorf("module %s: the body of %s is normalised twice", m.Name, op)
			}
			bodies[op] = fn
		}
		for op, as := range m.Aliases {
			aliases[op] = append(aliases[op], as...)
		}
	}
	if deps.Inbox != nil { // the inbox is the sandbox's own address, served without a request
		a.egress.Internal = func(u *url.URL) bool { return deps.Inbox.Owns(u.String()) }
	}
	hosts, err := api.NewHosts(cfg.Addr, cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	a.Server = api.NewServer(api.Options{
		Headers:       headers,
		IDs:           ids,
		Log:           log,
		Auth:          &auth.Authenticator{Store: a.Store, Headers: headers},
		Modules:       &eshop.Gate{Store: a.Store},
		RequestSchema: a.Schemas.Request,
		Decorators:    decorators,
		Hosts:         hosts,
		BodyTimeout:   cfg.BodyTimeout,
		Clock:         clock,
	})
	if err := own.check(reg); err != nil {
		return nil, err
	}
	a.owners = own.by
	routes, err := a.routes(own.handlers, aliases, bodies)
	if err != nil {
		return nil, err
	}
	routes = append(routes, control.Routes(control.Deps{Store: a.Store, Site: a.Site, Reset: a.Reset, Ready: &a.ready,
		Version: cfg.Version, Routes: a.Routes})...)
	for _, rt := range extra {
		rt.Public, rt.NoContentType = true, true
		routes = append(routes, rt)
	}
	if err := a.Server.HandleRoutes(routes); err != nil {
		return nil, err
	}
	a.routeTable = routes

	if a.listener, err = net.Listen("tcp", cfg.Addr); err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	a.egress.Bind(a.listener.Addr(), cfg.PublicURL)
	if err := a.egress.AllowDownloads(cfg.AllowDownload); err != nil {
		return nil, err
	}
	a.Site.BaseURL = strings.TrimSuffix(cfg.PublicURL, "/")
	if a.Site.BaseURL == "" {
		a.Site.BaseURL = "http://" + ReachableAddr(a.listener.Addr())
	}
	fresh := !seed.Seeded(a.Store) // seeded by this start
	if fresh {
		sum, err := a.loader.Load(a.Store)
		if err != nil {
			return nil, err
		}
		if len(sum.Packed) > 0 {
			a.Log.Debug("attached packed fixture files", "files", len(sum.Packed))
		}
	}
	for _, m := range a.modules {
		if m.Start != nil {
			if err := m.Start(context.Background()); err != nil {
				return nil, fmt.Errorf("start %s: %w", m.Name, err)
			}
		}
	}
	a.ready.Store(true)
	if fresh {
		a.pack() // after the start, which it would only slow down
	}
	return a, nil
}

func newLoader(fsys fs.FS, name string, reg *registry.Registry, set *schemas.Set, cat *system.Catalogue) *seed.Loader {
	return &seed.Loader{FS: fsys, Name: name, Registry: reg, Schemas: set, Groups: cat.HasGroup, Operation: cat.Resolve,
		Marks: map[string][]string{orders.Collection: {payments.SeededMark}}}
}

// FixtureLoader returns the loader a sandbox would seed fsys with, for
// checking a fixture folder without starting one (sandbox fixtures check).
func FixtureLoader(fsys fs.FS, name string) (*seed.Loader, error) {
	set, err := schemas.Compile()
	if err != nil {
		return nil, fmt.Errorf("schemas: %w", err)
	}
	c, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	return newLoader(fsys, name, reg, set, system.NewCatalogue(c)), nil
}

// routes binds handlers to the reference catalogue. Every endpoint must
// have a handler and every handler an endpoint: a gap is a programming
// error reported at start, never a stub answer.
func (a *App) routes(handlers map[string]api.HandlerFunc, aliases map[string][]api.Alias, bodies map[string]func(map[string]any)) ([]api.Route, error) {
	var routes []api.Route
	var missing []string
	for _, e := range a.Catalogue.Endpoints {
		h, ok := handlers[e.Operation]
		if !ok {
			missing = append(missing, e.Method+" "+e.Path+" ("+e.Operation+")")
			continue
		}
		delete(handlers, e.Operation)
		module, _ := a.Catalogue.ModuleOf(e.Operation)
		query, err := api.QueryParams(e.QueryParams, e.RequiredQueryParams)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", e.Method, e.Path, err)
		}
		routes = append(routes, api.Route{Operation: e.Operation, Method: e.Method, Path: e.Path, Group: e.Group, Handler: h,
			AnyToken: e.Operation == system.ListEndpointsOperation, Module: module, Query: query, Aliases: aliases[e.Operation],
			Normalize: bodies[e.Operation]})
		delete(aliases, e.Operation)
		delete(bodies, e.Operation)
	}
	for op := range aliases {
		return nil, fmt.Errorf("aliases of %s: no endpoint of the reference catalogue has that operation", op)
	}
	for op := range bodies {
		return nil, fmt.Errorf("body normalisation of %s: no endpoint of the reference catalogue has that operation", op)
	}
	for op := range handlers {
		return nil, fmt.Errorf("handler %s matches no endpoint of the reference catalogue", op)
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%d endpoints of the reference have no handler: %s", len(missing), strings.Join(missing, ", "))
	}
	return routes, nil
}

// ReachableAddr is the host:port a client on this machine calls for a
// listener: a listener on every interface (0.0.0.0, [::]) is reached at
// the loopback address.
func ReachableAddr(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1" // a dual-stack [::] listener accepts IPv4 too
	}
	return net.JoinHostPort(host, port)
}

// ListenURL is the URL of the listener itself, reachable from this
// machine; it differs from the base URL when a public URL is set (which
// may resolve only elsewhere). "" before the listener is bound.
func (a *App) ListenURL() string {
	if a.listener == nil {
		return ""
	}
	return "http://" + ReachableAddr(a.listener.Addr())
}

// Exposed reports whether the sandbox listens beyond this machine (an
// address that is not loopback), which `sandbox up` warns about.
func (a *App) Exposed() bool {
	host, _, err := net.SplitHostPort(a.listener.Addr().String())
	if err != nil {
		return true
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

// Routes returns every registered route (API, control plane, e-shop
// pages): the live table that GET /_sandbox/ and the control plane's
// OpenAPI document are built from.
func (a *App) Routes() []api.Route { return a.routeTable }

// Start serves in the background; Wait reports how serving ended.
func (a *App) Start() {
	// The connection reads up to 1 MiB of headers so that the API can
	// refuse anything over api.MaxHeaderBytes with an error envelope;
	// only beyond that does net/http answer a plain 431 itself.
	idle := a.Config.IdleTimeout
	if idle <= 0 {
		idle = sandbox.DefaultIdleTimeout
	}
	a.conns = api.NewConnGuard(api.ConnLimit())
	a.http = &http.Server{Handler: a.Server, MaxHeaderBytes: 1 << 20,
		// Headers must arrive within ReadHeaderTimeout, a body within the
		// server's body timeout (408), and an idle keep-alive connection is
		// closed after IdleTimeout; the guard closes the longest-waiting
		// unused connection when the process nears its open-file limit.
		ReadHeaderTimeout: sandbox.DefaultHeaderTimeout,
		IdleTimeout:       idle,
		ConnState:         a.conns.ConnState,
		ConnContext:       a.conns.ConnContext,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelDebug),
	}
	listener := a.conns.Listen(a.listener)
	go func() {
		err := a.http.Serve(listener)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		a.served <- err
	}()
}

// Wait blocks until the server stops.
func (a *App) Wait() error { return <-a.served }

// BaseURL is the address clients call, e.g. http://127.0.0.1:8080.
func (a *App) BaseURL() string { return a.Site.BaseURL }

// pack packs the large seeded collections in the background (see
// store.Compact): a set of 100,000 products and orders is held in a sixth
// of the memory it was read into, which is then handed back to the
// system. The sandbox answers meanwhile; GET /_sandbox/health says
// "packing" until it is done.
func (a *App) pack() {
	if a.Store.Persistent() {
		return
	}
	above := a.Config.PackAbove
	switch {
	case above < 0:
		return
	case above == 0:
		above = store.DefaultPackAbove
	}
	a.Store.Packing(true)
	go func() {
		defer a.Store.Packing(false)
		st, err := a.Store.Compact(above)
		if err != nil {
			a.Log.Warn("packing the seeded records", "err", err)
			return
		}
		if st.Collections > 0 {
			debug.FreeOSMemory()
			a.Log.Debug("packed the seeded records", "collections", st.Collections, "records", st.Records, "bytes", st.Before, "packed", st.After)
		}
	}()
}

// Reset empties the store and seeds it from the fixtures again.
func (a *App) Reset() error {
	a.ready.Store(false)
	defer a.ready.Store(true)
	if err := a.Store.Reset(); err != nil {
		return err
	}
	if _, err := a.loader.Load(a.Store); err != nil {
		return err
	}
	defer a.pack()
	for _, m := range a.modules {
		if m.AfterReset != nil {
			if err := m.AfterReset(); err != nil {
				return fmt.Errorf("%s after reset: %w", m.Name, err)
			}
		}
	}
	return nil
}

// Close stops accepting requests, lets in-flight ones finish (until ctx
// ends), and closes the data file. It is safe after a partial Open.
func (a *App) Close(ctx context.Context) error {
	a.closeOnce.Do(func() { a.closeErr = a.close(ctx) })
	return a.closeErr
}

func (a *App) close(ctx context.Context) error {
	var errs []error
	if a.http != nil {
		a.conns.CloseUnused()
		if err := a.http.Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
	} else if a.listener != nil {
		_ = a.listener.Close()
	}
	for i := len(a.modules) - 1; i >= 0; i-- {
		if m := a.modules[i]; m.Stop != nil {
			if err := m.Stop(ctx); err != nil {
				errs = append(errs, fmt.Errorf("stop %s: %w", m.Name, err))
			}
		}
	}
	if a.Store != nil {
		if err := a.Store.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

package app

import (
	"context"
	"log/slog"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/inbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/egress"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/system"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Deps is everything a behaviour module may use. Modules get it once at
// start; Site.BaseURL is filled in after the listener is bound, so read
// it per request, not at construction.
type Deps struct {
	Config    sandbox.Config
	Store     *store.Store
	Bus       *bus.Bus
	Clock     *sandbox.Clock
	Site      *eshop.Site
	Catalogue *system.Catalogue
	Schemas   *schemas.Set
	Registry  *registry.Registry
	IDs       *sandbox.IDs
	Headers   sandbox.Headers
	Log       *slog.Logger
	// Egress refuses requests to the sandbox itself (webhooks, downloads,
	// add-on calls); it learns the listener's address once it is bound.
	Egress *egress.Guard
	// ListenURL is http://<the listener's address>, which differs from
	// Site.BaseURL when a public URL is set; "" until the listener is bound.
	ListenURL func() string

	// Services a module shares with modules listed after it (the scripted
	// faults of the scenario module act through them); each is set by the
	// module that owns it and nil when that module is absent.
	Limits   *limits.Limiter      // set by the limits module
	Engine   *crud.Engine         // the generic write path, set by the surface module
	Webhooks *webhooks.Dispatcher // set by the webhooks module
	Jobs     *jobs.Service        // set by the jobs module
	Inbox    *inbox.Inbox         // set by the inbox module, listed before webhooks
}

// Module is one behaviour package's contribution to the sandbox.
type Module struct {
	Name string
	// Handlers serve reference endpoints, keyed by operation name. An
	// operation has exactly one owner: Open refuses a second module
	// serving it.
	Handlers map[string]api.HandlerFunc
	// Part, when set, names the part of the module serving an operation
	// (the surface's generic table or action package), for `sandbox
	// routes`.
	Part func(operation string) string
	// Control routes live under /_sandbox/ (give full paths).
	Control []api.Route
	// Eshop routes live under an e-shop's own address {eshop_url}
	// (/eshops/{eshopId}); give paths relative to it, e.g.
	// "/action/ApiOAuthServer/token". They are public (no API token).
	Eshop []api.Route
	// Start runs after seeding, before serving; Stop runs at Close.
	Start func(ctx context.Context) error
	Stop  func(ctx context.Context) error
	// AfterReset runs after POST /_sandbox/reset re-seeded the store.
	AfterReset func() error
	// Decorators wrap the server's pipeline at their stages (traffic
	// recording, limits, faults); they read the resolved call (api.CallOf).
	// At one stage, modules listed earlier in modules.go wrap later ones.
	Decorators []api.Decorator
	// Bodies are the request body normalisations of reference operations
	// (api.Route.Normalize), keyed by operation: the encodings the spec
	// accepts and the reference's schema does not type.
	Bodies map[string]func(body map[string]any)
	// Aliases serve reference operations at more methods and paths (the
	// spec's order status path, PUT sent as POST), keyed by operation.
	Aliases map[string][]api.Alias
}

// ModuleFunc builds a module from the dependencies.
type ModuleFunc func(d *Deps) (*Module, error)

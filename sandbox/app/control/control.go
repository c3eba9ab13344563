// Package control serves the sandbox's own control plane under
// /_sandbox/ (never under /api): health, the e-shops with their
// credentials and modules, and reset to the fixtures. It answers in the same envelope
// as the API so one client parses both.
package control

import (
	"net/http"
	"sync/atomic"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Prefix is where the control plane lives.
const Prefix = "/_sandbox"

// Deps are what the control plane works on.
type Deps struct {
	Store *store.Store
	Site  *eshop.Site
	// Reset empties the store and seeds it from the fixtures again.
	Reset func() error
	// Ready reports whether seeding finished.
	Ready *atomic.Bool
	// Version is the build's version the index shows ("dev" when empty).
	Version string
	// Routes returns the live route table (every registered route); the
	// index and the control OpenAPI document list its control routes.
	Routes func() []api.Route
}

// Routes returns the control-plane routes.
func Routes(d Deps) []api.Route {
	c := &controller{d}
	return append([]api.Route{
		{Operation: "sandbox.health", Method: http.MethodGet, Summary: "200 once the fixtures are seeded", Path: Prefix + "/health", Handler: c.health, Public: true, NoContentType: true, Answer: Health{}},
		{Operation: "sandbox.eshops", Method: http.MethodGet, Summary: "Each e-shop: address, private tokens and rights, add-on credentials and API tokens", Path: Prefix + "/eshops", Handler: c.eshops, Public: true, NoContentType: true, Answer: map[string]any{"eshops": api.Doc([]EshopView{}, "Every e-shop with its addresses, tokens and add-ons.")}},
		{Operation: "sandbox.reset", Method: http.MethodPost, Summary: "Back to the fixtures: every write is undone, queued deliveries and jobs are dropped", Path: Prefix + "/reset", Handler: c.reset, Public: true, NoContentType: true, Answer: map[string]any{"reset": api.Doc(true, "Always true: the sandbox is back to its fixtures.")}, Body: api.NoData{}},
		{Operation: "sandbox.index", Method: http.MethodGet, Summary: "This index: every control route, the e-shops' tokens, the version, links (HTML for a browser, else JSON)", Path: Prefix + "/", Handler: c.index, Public: true, NoContentType: true},
		{Operation: "sandbox.index.bare", Method: http.MethodGet, Summary: "The same index as GET /_sandbox/", Path: Prefix, Handler: c.index, Public: true, NoContentType: true},
		openapi.ControlRoute(func() string { return d.Site.BaseURL }, d.Version, d.Routes),
	}, c.moduleRoutes()...)
}

type controller struct{ d Deps }

// Health is the data of GET /_sandbox/health.
type Health struct {
	Status  string `json:"status"`            // ok once the fixtures are seeded
	Eshops  int    `json:"eshops"`            // how many e-shops the sandbox serves
	Time    string `json:"time"`              // the sandbox clock
	Packing bool   `json:"packing,omitempty"` // true while the large seeded collections are packed after a start or a reset (memory falls when it ends); absent otherwise
}

func (c *controller) health(r *api.Request) (any, error) {
	if c.d.Ready != nil && !c.d.Ready.Load() {
		return nil, sandbox.Errorf(sandbox.KindUnavailable, "starting", "sandbox", "The sandbox is still seeding its fixtures.")
	}
	var n int
	err := c.d.Store.View(func(tx *store.Tx) error {
		list, err := eshop.List(tx)
		n = len(list)
		return err
	})
	if err != nil {
		return nil, err
	}
	return Health{Status: "ok", Eshops: n, Time: sandbox.FormatTime(c.d.Store.Clock().Now()), Packing: c.d.Store.IsPacking()}, nil
}

// EshopView is one e-shop in GET /_sandbox/eshops: where it is and how to
// call it.
type EshopView struct {
	ID            int            `json:"id"`            // the e-shop's id
	Name          string         `json:"name"`          // its name
	EshopURL      string         `json:"eshopUrl"`      // its own address ({eshop_url}, where its OAuth server is)
	APIURL        string         `json:"apiUrl"`        // the API's base address
	Languages     []string       `json:"languages"`     // its languages
	Currencies    []string       `json:"currencies"`    // its currencies
	Modules       []string       `json:"modules"`       // active modules (PUT /_sandbox/eshops/{id}/modules switches them)
	PrivateTokens []PrivateToken `json:"privateTokens"` // its private tokens
	Addons        []AddonView    `json:"addons"`        // its add-ons with their credentials and API tokens
}

// PrivateToken is a private token and its rights.
type PrivateToken struct {
	Name   string            `json:"name"`      // the token's name
	Token  string            `json:"token"`     // the value for the private-token header
	Rights map[string]string `json:"rights"`    // group -> read|write|both; every group when the token has all
	All    bool              `json:"allGroups"` // whether the token has every right
}

// AddonView is an add-on's credentials and API tokens.
type AddonView struct {
	auth.Addon
	APITokens []APIToken `json:"apiTokens"` // the add-on's API tokens, valid or expired
}

// APIToken is an add-on API token with its expiry.
type APIToken struct {
	Token     string `json:"token"`     // the value for the access-token header
	ExpiresAt string `json:"expiresAt"` // when it expires (sandbox clock)
	Expired   bool   `json:"expired"`   // whether it has expired
}

func (c *controller) eshops(r *api.Request) (any, error) {
	out, err := c.eshopViews()
	if err != nil {
		return nil, err
	}
	return map[string]any{"eshops": out}, nil
}

// eshopViews lists every e-shop with its address and credentials.
func (c *controller) eshopViews() ([]EshopView, error) {
	var creds []eshop.Credentials
	err := c.d.Store.View(func(tx *store.Tx) (err error) {
		creds, err = eshop.ListCredentials(tx)
		return err
	})
	if err != nil {
		return []EshopView{}, err
	}
	out := make([]EshopView, 0, len(creds))
	for _, e := range creds {
		v := EshopView{ID: e.ID, Name: e.Name, EshopURL: c.d.Site.EshopURL(e.ID), APIURL: c.d.Site.BaseURL + "/api",
			Languages: e.Languages, Currencies: e.Currencies, Modules: e.Modules, PrivateTokens: []PrivateToken{}, Addons: []AddonView{}}
		if v.Modules == nil {
			v.Modules = []string{}
		}
		for _, t := range e.PrivateTokens() {
			v.PrivateTokens = append(v.PrivateTokens, PrivateToken{Name: t.Name, Token: t.Token, Rights: t.Rights, All: t.AllGroups})
		}
		for _, a := range e.Addons {
			av := AddonView{Addon: a, APITokens: []APIToken{}}
			for _, t := range e.APITokens(a.Name) {
				exp := ""
				if t.ExpiresAt != nil {
					exp = sandbox.FormatTime(*t.ExpiresAt)
				}
				av.APITokens = append(av.APITokens, APIToken{Token: t.Token, ExpiresAt: exp, Expired: e.Expired(t)})
			}
			v.Addons = append(v.Addons, av)
		}
		out = append(out, v)
	}
	return out, nil
}

func (c *controller) reset(r *api.Request) (any, error) {
	if err := c.d.Reset(); err != nil {
		return nil, err
	}
	return map[string]any{"reset": true}, nil
}

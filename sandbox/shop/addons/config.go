package addons

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// View is an add-on as the control plane shows it: its configuration and
// status in one e-shop, where its OAuth server is, and how many API
// tokens it holds.
type View struct {
	EshopID int `json:"eshopId"` // the e-shop the add-on is configured in
	auth.Addon
	EshopURL       string `json:"eshopUrl"`       // {eshop_url}: the e-shop's own address
	TokenURL       string `json:"tokenUrl"`       // the OAuth server: POST here to exchange the install code
	AccessTokenURL string `json:"accessTokenUrl"` // GET here for API tokens
	ValidAPITokens int    `json:"validApiTokens"` // at most oauth.MaxAPITokens
}

// Get returns one add-on of an e-shop.
func (s *Service) Get(eshopID int, name string) (*View, error) {
	var v *View
	err := s.d.Store.View(func(tx *store.Tx) error {
		ad, err := loadAddon(tx, eshopID, name)
		if err != nil {
			return err
		}
		v, err = s.view(tx, eshopID, ad)
		return err
	})
	return v, err
}

func (s *Service) view(tx *store.Tx, eshopID int, ad *auth.Addon) (*View, error) {
	toks, err := oauth.APITokens(tx, eshopID, ad.Name)
	if err != nil {
		return nil, err
	}
	if ad.Endpoints == nil {
		ad.Endpoints = []auth.EndpointGrant{}
	}
	return &View{EshopID: eshopID, Addon: *ad, EshopURL: s.d.Site.EshopURL(eshopID), TokenURL: s.OAuth.TokenURL(eshopID),
		AccessTokenURL: s.OAuth.AccessTokenURL(eshopID), ValidAPITokens: len(toks)}, nil
}

// loadAddon reads an add-on; a NotFound names the e-shop and the add-on.
func loadAddon(tx *store.Tx, eshopID int, name string) (*auth.Addon, error) {
	if _, err := eshop.Get(tx, eshopID); err != nil {
		return nil, err
	}
	a, err := auth.GetAddon(tx, eshopID, name)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(name, "E-shop %d has no add-on %q. PUT /_sandbox/eshops/%d/addons/%s configures one.", eshopID, name, eshopID, name)
	}
	if err != nil {
		return nil, err
	}
	if a.Status == "" {
		a.Status = auth.StatusInstalled
	}
	return a, nil
}

func (s *Service) list(r *api.Request) (any, error) {
	id := eshopOf(r)
	out := []*View{}
	err := s.d.Store.View(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, id); err != nil {
			return err
		}
		var names []string
		if err := auth.EachAddon(tx, id, func(a *auth.Addon) bool { names = append(names, a.Name); return true }); err != nil {
			return err
		}
		for _, n := range names {
			ad, err := loadAddon(tx, id, n)
			if err != nil {
				return err
			}
			v, err := s.view(tx, id, ad)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"addons": out}, nil
}

func (s *Service) get(r *api.Request) (any, error) { return s.Get(eshopOf(r), r.Var("name")) }

// Config is the body of PUT /_sandbox/eshops/{id}/addons/{name}. Absent
// fields keep their current value; a new add-on gets generated client
// credentials unless given, and redirectUri defaults to installUrl.
type Config struct {
	ClientID     *string `json:"clientId"`
	ClientSecret *string `json:"clientSecret"`
	InstallURL   *string `json:"installUrl"`
	RedirectURI  *string `json:"redirectUri"`
	WebhookURL   *string `json:"webhookUrl"`
	// Endpoints are the endpoints the add-on asks for: "all" (every
	// endpoint of the catalogue), or a list of "GetListOfOrders",
	// "GET /api/orders" or {"endpoint", "approved", "action"}.
	Endpoints json.RawMessage `json:"endpoints"`
	// Approved approves the requested endpoints at once, as the e-shop
	// does when it accepts the add-on; otherwise new ones wait for
	// POST .../approve. An item's own "approved" wins.
	Approved bool `json:"approved"`
}

// ConfigSchema is the JSON Schema of Config, for the control plane's
// OpenAPI.
func ConfigSchema() map[string]any {
	str := func(desc string) map[string]any {
		return map[string]any{"type": "string", "minLength": 1, "description": desc}
	}
	url := func(desc string) map[string]any {
		return map[string]any{"type": "string", "format": "uri", "description": desc}
	}
	item := map[string]any{"oneOf": []any{
		map[string]any{"type": "string", "description": "An operation name (GetListOfOrders) or METHOD /path (GET /api/orders)."},
		map[string]any{"type": "object", "additionalProperties": false, "required": []any{"endpoint"}, "properties": map[string]any{
			"endpoint": map[string]any{"type": "string", "description": "An operation name (GetListOfOrders) or METHOD /path (GET /api/orders)."},
			"approved": map[string]any{"type": "boolean", "description": "Approve it at once (the request's approved when absent)."},
			"action":   map[string]any{"type": "string", "enum": []any{"add", "edit", "delete"}, "description": "The pending change it asks for: add (default), edit or delete."},
		}},
	}}
	return map[string]any{
		"type": "object", "additionalProperties": false,
		"description": "An add-on's configuration in one e-shop. A new add-on needs installUrl; absent fields keep their value.",
		"properties": map[string]any{
			"installUrl":   url("Where the e-shop sends GET <installUrl>?code=... to install the add-on. Required for a new add-on."),
			"redirectUri":  url("The redirect_uri the add-on sends in the code exchange (default: installUrl)."),
			"webhookUrl":   url("Where the add-on's system events (addon:uninstall, addon:suspend, ...) go; \"\" for none."),
			"clientId":     str("Fixed OAuth client id (default: generated for a new add-on)."),
			"clientSecret": str("Fixed OAuth client secret (default: generated for a new add-on)."),
			"endpoints": map[string]any{"description": `The endpoints the add-on asks for: "all", or a list.`,
				"oneOf": []any{map[string]any{"type": "string", "enum": []any{"all"}}, map[string]any{"type": "array", "items": item}}},
			"approved": map[string]any{"type": "boolean", "description": "Approve the requested endpoints at once (default: they wait for POST .../approve)."},
		},
		"examples": []any{map[string]any{"installUrl": "http://127.0.0.1:9090/install", "webhookUrl": "http://127.0.0.1:9090/webhooks",
			"endpoints": "all", "approved": true, "clientId": "my-addon", "clientSecret": "my-secret"}},
	}
}

// wantedEndpoint is one requested endpoint of a Config.
type wantedEndpoint struct {
	op       string
	approved *bool
	action   string
}

func (s *Service) put(r *api.Request) (any, error) {
	var c Config
	present, err := r.DecodeBody(&c)
	if err != nil {
		return nil, err
	}
	if !present {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", `Send the add-on's configuration, e.g. {"installUrl": "http://127.0.0.1:9090/install", "endpoints": ["GetListOfOrders"]}.`)
	}
	v, created, err := s.Configure(eshopOf(r), r.Var("name"), c)
	if err != nil {
		return nil, err
	}
	if created {
		return &api.Result{Status: http.StatusCreated, Data: v}, nil
	}
	return v, nil
}

// Configure creates or changes an add-on of an e-shop. Newly requested
// endpoints start pending (action add) unless marked approved; approved
// endpoints no longer requested become pending deletions.
func (s *Service) Configure(eshopID int, name string, c Config) (*View, bool, error) {
	if name == "" || strings.ContainsAny(name, ":*? /") {
		return nil, false, sandbox.Invalid("name", "Add-on name %q must not be empty or contain spaces, '/', ':', '*' or '?'.", name)
	}
	wanted, err := s.parseEndpoints(c.Endpoints, c.Approved)
	if err != nil {
		return nil, false, err
	}
	for _, u := range []struct {
		field string
		v     *string
		empty bool
	}{{"installUrl", c.InstallURL, false}, {"redirectUri", c.RedirectURI, false}, {"webhookUrl", c.WebhookURL, true}} {
		if u.v != nil {
			if err := checkURL(u.field, *u.v, u.empty); err != nil {
				return nil, false, err
			}
			if s.d.Egress != nil && u.field != "redirectUri" { // the sandbox never calls redirectUri
				if err := s.d.Egress.Check(context.Background(), *u.v); err != nil {
					return nil, false, sandbox.Invalid(u.field, "Field %s: the sandbox cannot call %q: %v.", u.field, *u.v, err)
				}
			}
		}
	}
	for _, f := range []struct {
		field string
		v     *string
	}{{"clientId", c.ClientID}, {"clientSecret", c.ClientSecret}} {
		if f.v != nil && strings.TrimSpace(*f.v) == "" {
			return nil, false, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, f.field, "Field %s must not be empty.", f.field)
		}
	}
	var v *View
	created := false
	err = s.d.Store.Update(func(tx *store.Tx) error {
		ad, err := loadAddon(tx, eshopID, name)
		var nf *sandbox.Error
		if errors.As(err, &nf) && nf.Kind == sandbox.KindNotFound && nf.Instance == name {
			if c.InstallURL == nil {
				return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "installUrl", "A new add-on needs installUrl, the address the e-shop calls with the install code.")
			}
			created = true
			ad = &auth.Addon{Name: name, Status: auth.StatusConfigured,
				ClientID: "sbx_client_" + strings.ToLower(s.d.IDs.Token(24)), ClientSecret: "sbx_secret_" + strings.ToLower(s.d.IDs.Token(40))}
		} else if err != nil {
			return err
		}
		apply(ad, c)
		if c.Endpoints != nil || created {
			ad.Endpoints = mergeEndpoints(ad.Endpoints, wanted)
		}
		if err := auth.PutAddon(tx, eshopID, ad); err != nil {
			return err
		}
		v, err = s.view(tx, eshopID, ad)
		return err
	})
	return v, created, err
}

func apply(ad *auth.Addon, c Config) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = strings.TrimSpace(*v)
		}
	}
	set(&ad.ClientID, c.ClientID)
	set(&ad.ClientSecret, c.ClientSecret)
	set(&ad.InstallURL, c.InstallURL)
	set(&ad.WebhookURL, c.WebhookURL)
	if c.RedirectURI != nil {
		set(&ad.RedirectURI, c.RedirectURI)
	} else if ad.RedirectURI == "" {
		ad.RedirectURI = ad.InstallURL
	}
}

func checkURL(field, v string, emptyOK bool) error {
	if v == "" && emptyOK {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, field, "Field %s must be an absolute http or https URL, not %q.", field, v)
	}
	return nil
}

// parseEndpoints reads the endpoints of a Config: "all" or a list. Absent
// stays nil (keep). With approve, items that do not say otherwise are
// approved.
func (s *Service) parseEndpoints(field json.RawMessage, approve bool) ([]wantedEndpoint, error) {
	if len(field) == 0 || string(field) == "null" {
		return nil, nil
	}
	var raw []json.RawMessage
	var word string
	switch {
	case json.Unmarshal(field, &word) == nil:
		if word != "all" {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "endpoints", `Field endpoints must be "all" or a list of endpoints, not %q.`, word)
		}
		for _, op := range s.allOperations() {
			raw = append(raw, json.RawMessage(strconv.Quote(op)))
		}
	case json.Unmarshal(field, &raw) == nil:
	default:
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "endpoints", `Field endpoints must be "all" or a list of endpoints such as ["GetListOfOrders", "GET /api/orders/{code}"].`)
	}
	wanted, err := s.parseEndpointList(raw)
	if err != nil || !approve {
		return wanted, err
	}
	yes := true
	for i := range wanted {
		if wanted[i].approved == nil && wanted[i].action == "" {
			wanted[i].approved = &yes
		}
	}
	return wanted, nil
}

// allOperations lists every operation of the catalogue, in its order.
func (s *Service) allOperations() []string {
	if s.d.Operations == nil {
		return nil
	}
	return s.d.Operations()
}

func (s *Service) parseEndpointList(raw []json.RawMessage) ([]wantedEndpoint, error) {
	out := make([]wantedEndpoint, 0, len(raw))
	seen := map[string]bool{}
	for i, item := range raw {
		inst := fmt.Sprintf("endpoints[%d]", i)
		var w wantedEndpoint
		var name string
		if json.Unmarshal(item, &name) != nil {
			var o struct {
				Endpoint string `json:"endpoint"`
				Approved *bool  `json:"approved"`
				Action   string `json:"action"`
			}
			if err := decodeStrict(item, &o); err != nil {
				return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, inst, `Field %s must be an operation name or {"endpoint": ..., "approved": ..., "action": ...}.`, inst)
			}
			name, w.approved, w.action = o.Endpoint, o.Approved, o.Action
		}
		switch w.action {
		case "", "add", "edit", "delete":
		default:
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, inst+".action", "Field %s.action must be add, edit or delete, not %q.", inst, w.action)
		}
		op, ok := s.resolve(name)
		if !ok {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, inst,
				"Field %s: unknown endpoint %q; write an operation name such as GetListOfOrders or \"GET /api/orders\".", inst, name)
		}
		if seen[op] {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, inst, "Field %s: endpoint %s is listed twice.", inst, op)
		}
		seen[op] = true
		w.op = op
		out = append(out, w)
	}
	return out, nil
}

func (s *Service) resolve(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	if s.d.Resolve == nil {
		return name, true
	}
	return s.d.Resolve(name)
}

// mergeEndpoints applies a new requested set to the current grants:
// kept endpoints keep their state, new ones are pending additions, and
// approved ones that are no longer requested become pending deletions.
// An explicit approved/action in the request wins.
func mergeEndpoints(cur []auth.EndpointGrant, wanted []wantedEndpoint) []auth.EndpointGrant {
	want := map[string]wantedEndpoint{}
	for _, w := range wanted {
		want[w.op] = w
	}
	out := []auth.EndpointGrant{}
	have := map[string]bool{}
	for _, g := range cur {
		w, ok := want[g.Endpoint]
		switch {
		case ok:
			have[g.Endpoint] = true
			if g.Action == "delete" { // requested again: the deletion is withdrawn
				g = auth.EndpointGrant{Endpoint: g.Endpoint, Approved: true}
			}
			out = append(out, override(g, w))
		case g.Approved || g.Action == "edit" || g.Action == "delete":
			out = append(out, auth.EndpointGrant{Endpoint: g.Endpoint, Action: "delete"})
		}
	}
	for _, w := range wanted {
		if !have[w.op] {
			out = append(out, override(auth.EndpointGrant{Endpoint: w.op, Action: "add"}, w))
		}
	}
	return out
}

func override(g auth.EndpointGrant, w wantedEndpoint) auth.EndpointGrant {
	if w.approved != nil {
		g.Approved = *w.approved
		g.Action = ""
		if !g.Approved {
			g.Action = "add"
		}
	}
	if w.action != "" {
		g.Approved, g.Action = false, w.action
	}
	return g
}

// Removed is the answer of DELETE /_sandbox/eshops/{id}/addons/{name}.
type Removed struct {
	EshopID int           `json:"eshopId"` // the e-shop it was removed from
	Name    string        `json:"name"`    // the add-on removed
	Revoked oauth.Revoked `json:"revoked"` // its tokens, revoked
	// Webhooks are the webhooks the add-on had registered, deleted, and
	// the deliveries to them that were still waiting, canceled.
	Webhooks webhooks.Forgotten `json:"webhooks"`
}

func (s *Service) remove(r *api.Request) (any, error) { return s.Remove(eshopOf(r), r.Var("name")) }

// Remove forgets an add-on in an e-shop, as deleting it from the partner
// administration would: every token it holds is revoked, the webhooks it
// registered are deleted (their waiting deliveries canceled), and no
// system event is sent (uninstall first for addon:uninstall).
func (s *Service) Remove(eshopID int, name string) (*Removed, error) {
	out := &Removed{EshopID: eshopID, Name: name}
	err := s.d.Store.Update(func(tx *store.Tx) error {
		if _, err := loadAddon(tx, eshopID, name); err != nil {
			return err
		}
		var err error
		why := fmt.Sprintf("the add-on %s was removed from e-shop %d", name, eshopID)
		if out.Revoked, err = s.OAuth.RevokeAddon(tx, eshopID, name, why); err != nil {
			return err
		}
		if out.Webhooks, err = webhooks.ForgetAddon(tx, eshopID, name, why); err != nil {
			return err
		}
		return auth.DeleteAddon(tx, eshopID, name)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

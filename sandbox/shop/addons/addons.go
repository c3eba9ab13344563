// Package addons is the e-shop's side of add-on access: the add-ons an
// e-shop knows (configured in credentials.json or through the control
// plane), the install handshake the sandbox drives against an add-on and
// judges, the endpoint approvals, and the life cycle (suspend, resume,
// terminate, uninstall) with its system events. The OAuth server the
// add-on talks to during the handshake is sandbox/shop/oauth.
//
// Control plane:
//
//	GET  /_sandbox/eshops/{id}/addons                   add-ons of an e-shop
//	GET  /_sandbox/eshops/{id}/addons/{name}            one add-on
//	PUT  /_sandbox/eshops/{id}/addons/{name}            configure (create or change)
//	DELETE /_sandbox/eshops/{id}/addons/{name}          remove (tokens revoked)
//	POST /_sandbox/eshops/{id}/addons/{name}/approve    approve pending endpoints
//	POST /_sandbox/eshops/{id}/addons/{name}/suspend    addon:suspend
//	POST /_sandbox/eshops/{id}/addons/{name}/resume     addon:approve
//	POST /_sandbox/eshops/{id}/addons/{name}/terminate  addon:terminate
//	POST /_sandbox/eshops/{id}/addons/{name}/uninstall  addon:uninstall
//	POST /_sandbox/eshops/{id}/install                  run the install handshake
//	GET  /_sandbox/installs[/{id}]                      install reports
//	GET|PUT /_sandbox/oauth                             OAuth facts; API token lifetime
package addons

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/egress"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// Deps are what the add-on service works with.
type Deps struct {
	Store *store.Store
	Site  *eshop.Site
	IDs   *sandbox.IDs
	Bus   *bus.Bus // install reports go out as TopicInstall; may be nil
	// Resolve turns an operation name or "METHOD /path" into the
	// reference operation name (system.Catalogue.Resolve).
	Resolve func(string) (string, bool)
	// Operations lists every operation of the catalogue, for an add-on
	// that asks for "all" endpoints.
	Operations func() []string
	Log        *slog.Logger
	// Egress refuses add-on URLs at the sandbox's own address; nil checks
	// nothing (tests of the package alone).
	Egress *egress.Guard
}

// Service owns add-on configuration, installs and life cycle.
type Service struct {
	d         Deps
	OAuth     *oauth.Server
	Installer *Installer
}

// New builds the service with its OAuth server and install driver.
func New(d Deps) *Service {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.IDs == nil {
		d.IDs = sandbox.NewIDs(0)
	}
	s := &Service{d: d, OAuth: oauth.New(d.Store, d.IDs, d.Site)}
	s.Installer = newInstaller(s)
	if d.Egress != nil {
		s.Installer.Client = d.Egress.Client(0, false) // bounded by the install timeout
	}
	s.OAuth.Observe(s.Installer.observe)
	return s
}

// EshopRoutes are the OAuth server's routes under {eshop_url}.
func (s *Service) EshopRoutes() []api.Route { return s.OAuth.Routes() }

// ControlRoutes are the add-on routes of the control plane.
func (s *Service) ControlRoutes() []api.Route {
	const addon = "/_sandbox/eshops/{eshopId:[0-9]+}/addons/{name}"
	routes := []api.Route{
		{Operation: "sandbox.addons.list", Method: http.MethodGet, Summary: "The e-shop's add-ons: state, URLs, approved and pending endpoints", Path: "/_sandbox/eshops/{eshopId:[0-9]+}/addons", Handler: s.list,
			Answer: map[string]any{"addons": api.Doc([]*View{}, "The e-shop's add-ons, each with its credentials, status and OAuth addresses.")}},
		{Operation: "sandbox.addons.get", Method: http.MethodGet, Summary: "One add-on of the e-shop", Path: addon, Handler: s.get, Answer: &View{}},
		{Operation: "sandbox.addons.put", Method: http.MethodPut, Summary: "Create or change an add-on: install and webhook URLs, requested endpoints (\"all\" or a list), fixed client credentials", Path: addon, Handler: s.put, Answer: &View{},
			BodySchema: ConfigSchema()},
		{Operation: "sandbox.addons.delete", Method: http.MethodDelete, Summary: "Remove an add-on from the e-shop; its tokens are revoked (no event is sent)", Path: addon, Handler: s.remove, Answer: &Removed{}},
		{Operation: "sandbox.addons.approve", Method: http.MethodPost, Summary: "Approve the add-on's pending endpoints", Path: addon + "/approve", Handler: s.approve, Answer: &ApproveResult{}, Body: ApproveBody{}},
		{Operation: "sandbox.install", Method: http.MethodPost, Summary: "Run the install handshake against the add-on's install URL", Path: "/_sandbox/eshops/{eshopId:[0-9]+}/install", Handler: s.install, Answer: &InstallReport{}, Body: InstallBody{}},
		{Operation: "sandbox.installs.list", Method: http.MethodGet, Summary: "Install handshakes run so far, each with its report", Path: "/_sandbox/installs", Handler: s.installs, Answer: map[string]any{"installs": api.Doc([]*InstallReport{}, "The install reports, in start order.")}},
		{Operation: "sandbox.installs.get", Method: http.MethodGet, Summary: "One install handshake's report", Path: "/_sandbox/installs/{id}", Handler: s.installByID, Answer: &InstallReport{}},
	}
	for _, action := range Actions() {
		routes = append(routes, api.Route{Operation: "sandbox.addons." + action, Method: http.MethodPost, Path: addon + "/" + action, Handler: s.lifecycleHandler(action), Answer: &LifecycleResult{}, Body: api.NoData{},
			Summary: lifecycleSummaries[action]})
	}
	return append(routes, s.OAuth.ControlRoutes()...)
}

// lifecycleSummaries describe the life-cycle routes in the /_sandbox/ index.
var lifecycleSummaries = map[string]string{
	"suspend":   "Suspend the add-on (addon:suspend); its calls answer 403 addon-suspended",
	"resume":    "Resume a suspended add-on (addon:approve)",
	"terminate": "Terminate the add-on (addon:terminate); its tokens are revoked",
	"uninstall": "Uninstall the add-on (addon:uninstall); its tokens are revoked",
}

// Stop cancels installs under way; the app calls it at Close.
func (s *Service) Stop(context.Context) error {
	s.Installer.stop()
	return nil
}

// eshopOf reads the e-shop id of a control-plane path.
func eshopOf(r *api.Request) int {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	return id
}

// decodeStrict decodes one item of a body already parsed (an endpoint
// entry) into v, refusing unknown fields with a 422 naming the field.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The request body does not match: %v.", err)
	}
	return nil
}

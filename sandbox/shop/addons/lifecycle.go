package addons

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// transition is one life-cycle step: the statuses it starts from, the
// status it leads to, the system event it sends to the add-on's webhook
// URL and whether it ends the add-on's access (revokes every token).
type transition struct {
	from   []string
	to     string
	event  string
	revoke bool
}

// transitions is the add-on life cycle. Resume sends addon:approve, the
// spec's name for "approved again after a suspension".
var transitions = map[string]transition{
	"suspend":   {from: []string{auth.StatusInstalled}, to: auth.StatusSuspended, event: "addon:suspend"},
	"resume":    {from: []string{auth.StatusSuspended}, to: auth.StatusInstalled, event: "addon:approve"},
	"terminate": {from: []string{auth.StatusInstalled, auth.StatusSuspended}, to: auth.StatusTerminated, event: "addon:terminate", revoke: true},
	"uninstall": {from: []string{auth.StatusInstalled, auth.StatusSuspended, auth.StatusTerminated}, to: auth.StatusUninstalled, event: "addon:uninstall", revoke: true},
}

// Actions lists the life-cycle actions in a stable order.
func Actions() []string { return []string{"suspend", "resume", "terminate", "uninstall"} }

// LifecycleResult is the data of a life-cycle call.
type LifecycleResult struct {
	Addon   *View         `json:"addon"`   // the add-on after the change
	Event   string        `json:"event"`   // the system event sent to the add-on's webhook URL
	Revoked oauth.Revoked `json:"revoked"` // the tokens the change revoked
	// Webhooks are what terminate and uninstall end: the webhooks the
	// add-on registered, deleted, and their waiting deliveries, canceled.
	Webhooks webhooks.Forgotten `json:"webhooks"`
}

// Lifecycle moves an add-on through its life cycle in one e-shop, emits
// the system event (delivered to the add-on's configured webhook URL) and
// changes what its tokens may do: suspended add-ons' calls are refused
// (403 addon-suspended); terminated and uninstalled ones lose every token.
func (s *Service) Lifecycle(eshopID int, name, action string) (*LifecycleResult, error) {
	tr, ok := transitions[action]
	if !ok {
		return nil, sandbox.NotFound(action, "Unknown life-cycle action %q; use %s.", action, strings.Join(Actions(), ", "))
	}
	out := &LifecycleResult{Event: tr.event}
	err := s.d.Store.Update(func(tx *store.Tx) error {
		ad, err := loadAddon(tx, eshopID, name)
		if err != nil {
			return err
		}
		if !slices.Contains(tr.from, ad.Status) {
			return sandbox.Conflict(name, "Cannot %s the add-on %s in e-shop %d: it is %s; %s works on an add-on that is %s.",
				action, name, eshopID, ad.Status, action, strings.Join(tr.from, " or "))
		}
		ad.Status = tr.to
		if err := auth.PutAddon(tx, eshopID, ad); err != nil {
			return err
		}
		if tr.revoke {
			why := fmt.Sprintf("the add-on %s was %s in e-shop %d", name, pastTense(action), eshopID)
			if out.Revoked, err = s.OAuth.RevokeAddon(tx, eshopID, name, why); err != nil {
				return err
			}
			if out.Webhooks, err = webhooks.ForgetAddon(tx, eshopID, name, why); err != nil {
				return err
			}
		}
		tx.Emit(sandbox.Event{EshopID: eshopID, Kind: tr.event, Instance: strconv.Itoa(eshopID), Addon: name})
		out.Addon, err = s.view(tx, eshopID, ad)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func pastTense(action string) string {
	switch action {
	case "terminate":
		return "terminated"
	case "uninstall":
		return "uninstalled"
	case "suspend":
		return "suspended"
	}
	return action + "d"
}

func (s *Service) lifecycleHandler(action string) func(r *api.Request) (any, error) {
	return func(r *api.Request) (any, error) { return s.Lifecycle(eshopOf(r), r.Var("name"), action) }
}

// ApproveBody is the body of POST .../addons/{name}/approve (optional).
type ApproveBody struct {
	Endpoints []string `json:"endpoints,omitempty" doc:"The operations whose pending change to approve (e.g. GetListOfOrders); all of them when absent."`
}

// ApproveResult is the data of an endpoint approval.
type ApproveResult struct {
	Addon    *View    `json:"addon"`    // the add-on after the approval
	Approved []string `json:"approved"` // operations whose pending change was approved
}

// Approve approves an add-on's pending endpoint changes, all of them or
// the named ones: an added or edited endpoint becomes callable, a deleted
// one disappears from the add-on's endpoints.
func (s *Service) Approve(eshopID int, name string, endpoints []string) (*ApproveResult, error) {
	ops := make([]string, 0, len(endpoints))
	for i, e := range endpoints {
		op, ok := s.resolve(e)
		if !ok {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, fmt.Sprintf("endpoints[%d]", i), "Unknown endpoint %q; write an operation name such as CreateOrder or \"POST /api/orders\".", e)
		}
		ops = append(ops, op)
	}
	out := &ApproveResult{Approved: []string{}}
	err := s.d.Store.Update(func(tx *store.Tx) error {
		ad, err := loadAddon(tx, eshopID, name)
		if err != nil {
			return err
		}
		pending := map[string]bool{}
		for _, g := range ad.Endpoints {
			if !g.Approved {
				pending[g.Endpoint] = true
			}
		}
		for _, op := range ops {
			if !pending[op] {
				return sandbox.Conflict(op, "Endpoint %s is not pending for the add-on %s in e-shop %d; pending: %s.", op, name, eshopID, listOrNone(pendingOf(ad)))
			}
		}
		approve := func(op string) bool { return len(ops) == 0 || slices.Contains(ops, op) }
		kept := ad.Endpoints[:0:0]
		for _, g := range ad.Endpoints {
			if g.Approved || !approve(g.Endpoint) {
				kept = append(kept, g)
				continue
			}
			out.Approved = append(out.Approved, g.Endpoint)
			if g.Action == "delete" {
				continue
			}
			kept = append(kept, auth.EndpointGrant{Endpoint: g.Endpoint, Approved: true})
		}
		ad.Endpoints = kept
		if err := auth.PutAddon(tx, eshopID, ad); err != nil {
			return err
		}
		out.Addon, err = s.view(tx, eshopID, ad)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func pendingOf(ad *auth.Addon) []string {
	var out []string
	for _, g := range ad.Endpoints {
		if !g.Approved {
			out = append(out, g.Endpoint+" ("+g.Action+")")
		}
	}
	return out
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// approve serves POST .../addons/{name}/approve with an optional body
// {"endpoints": ["CreateOrder"]}; without one every pending change is
// approved.
func (s *Service) approve(r *api.Request) (any, error) {
	var body struct {
		Endpoints []string `json:"endpoints"`
	}
	if _, err := r.DecodeBody(&body); err != nil {
		return nil, err
	}
	return s.Approve(eshopOf(r), r.Var("name"), body.Endpoints)
}

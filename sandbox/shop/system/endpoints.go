package system

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

// EndpointItem is one entry of GET /api/system/endpoints.
type EndpointItem struct {
	Endpoint    string  `json:"endpoint"`
	Description string  `json:"description"`
	Group       Group   `json:"group"`
	Access      string  `json:"access"`
	Action      *string `json:"action"`
}

// Group is an endpoint group with its id.
type Group struct {
	ID          int    `json:"id"`
	Description string `json:"description"`
}

// ListEndpointsOperation is GET /api/system/endpoints. Any valid token
// may call it, whatever its rights: it is how a caller learns its rights.
const ListEndpointsOperation = "GetListOfAvailableEndpoints"

// Handlers returns the system handlers keyed by operation.
func (c *Catalogue) Handlers() map[string]api.HandlerFunc {
	return map[string]api.HandlerFunc{ListEndpointsOperation: c.listEndpoints}
}

// listEndpoints answers GET /api/system/endpoints: status=approved (the
// default) lists what the token may call; status=pending lists an add-on's
// endpoints awaiting the e-shop's approval, with the pending action, and
// is always empty for private tokens.
func (c *Catalogue) listEndpoints(r *api.Request) (any, error) {
	status := r.Query("status")
	if status == "" {
		status = "approved"
	}
	if status != "approved" && status != "pending" {
		return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "status",
			"Query parameter status must be approved or pending, not %q.", status)
	}
	items := []EndpointItem{}
	p := r.Principal
	switch p.Kind() {
	case auth.KindPrivate:
		if status == "pending" {
			break
		}
		for _, e := range c.Endpoints {
			ep := auth.Endpoint{Operation: e.Operation, Method: e.Method, Group: e.Group}
			if p.Allows(ep) == nil {
				items = append(items, c.item(e.Operation, nil))
			}
		}
	case auth.KindAddon:
		for _, g := range p.Addon.Endpoints {
			if g.Approved != (status == "approved") {
				continue
			}
			var action *string
			if !g.Approved {
				a := g.Action
				action = &a
			}
			items = append(items, c.item(g.Endpoint, action))
		}
	}
	return map[string]any{"endpoints": items}, nil
}

func (c *Catalogue) item(op string, action *string) EndpointItem {
	e, ok := c.Endpoint(op)
	if !ok {
		return EndpointItem{Endpoint: Identifier(op), Description: Words(op), Access: "read", Action: action}
	}
	access := "read"
	if e.Method != "GET" {
		access = "write"
	}
	return EndpointItem{
		Endpoint:    Identifier(op),
		Description: Words(op),
		Group:       Group{ID: c.GroupID(e.Group), Description: Words(e.Group)},
		Access:      access,
		Action:      action,
	}
}

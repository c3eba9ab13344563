package tui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Control is what the UI's actions need from the sandbox's control plane.
// The UI only calls it from commands, never while drawing.
type Control interface {
	// ReplayDelivery sends a recorded webhook delivery again.
	ReplayDelivery(ctx context.Context, id string) error
	// EmitEvent makes the sandbox emit an event for an e-shop.
	EmitEvent(ctx context.Context, eshop int, event, instance string) error
	// AdvanceClock moves the sandbox clock forward, e.g. by "1h" or "7d".
	AdvanceClock(ctx context.Context, by string) error
	// ApproveAddon approves an add-on's pending endpoints in an e-shop.
	ApproveAddon(ctx context.Context, eshop int, addon string) error
	// SetMaintenance turns maintenance mode on or off and returns the
	// state now in force.
	SetMaintenance(ctx context.Context, on bool) (bool, error)
	// Maintenance reports whether maintenance mode is on.
	Maintenance(ctx context.Context) (bool, error)
	// Read gets a control-plane view (GET path, a /_sandbox/ path) and
	// decodes the envelope's data into out: the report, faults, outbox,
	// jobs and installs views read through it.
	Read(ctx context.Context, path string, out any) error
}

// HTTPControl is a Control over HTTP: the same calls a person would make
// with curl against /_sandbox/.
type HTTPControl struct {
	BaseURL string
	Client  *http.Client
}

// NewHTTPControl returns a control-plane client for the sandbox at
// baseURL (http://host:port).
func NewHTTPControl(baseURL string) *HTTPControl {
	return &HTTPControl{BaseURL: strings.TrimRight(baseURL, "/"), Client: &http.Client{Timeout: 15 * time.Second}}
}

// ReplayDelivery implements Control: POST /_sandbox/deliveries/{id}/replay.
func (c *HTTPControl) ReplayDelivery(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodPost, "/_sandbox/deliveries/"+url.PathEscape(id)+"/replay", nil, nil)
}

// EmitEvent implements Control: POST /_sandbox/events. The e-shop goes
// in both "eshopId" (the agreed contract) and "eshop" (what the webhooks
// package reads today), so either spelling of the endpoint works.
func (c *HTTPControl) EmitEvent(ctx context.Context, eshop int, event, instance string) error {
	return c.do(ctx, http.MethodPost, "/_sandbox/events", map[string]any{"eshopId": eshop, "eshop": eshop, "event": event, "instance": instance}, nil)
}

// AdvanceClock implements Control: POST /_sandbox/clock {"advance": by}.
func (c *HTTPControl) AdvanceClock(ctx context.Context, by string) error {
	return c.do(ctx, http.MethodPost, "/_sandbox/clock", map[string]any{"advance": by}, nil)
}

// ApproveAddon implements Control:
// POST /_sandbox/eshops/{id}/addons/{name}/approve.
func (c *HTTPControl) ApproveAddon(ctx context.Context, eshop int, addon string) error {
	return c.do(ctx, http.MethodPost, "/_sandbox/eshops/"+strconv.Itoa(eshop)+"/addons/"+url.PathEscape(addon)+"/approve", nil, nil)
}

// SetMaintenance implements Control: POST /_sandbox/maintenance {"on": on}.
func (c *HTTPControl) SetMaintenance(ctx context.Context, on bool) (bool, error) {
	var out struct {
		On *bool `json:"on"`
	}
	if err := c.do(ctx, http.MethodPost, "/_sandbox/maintenance", map[string]any{"on": on}, &out); err != nil {
		return !on, err
	}
	if out.On != nil {
		return *out.On, nil
	}
	return on, nil
}

// Maintenance implements Control: GET /_sandbox/maintenance.
func (c *HTTPControl) Maintenance(ctx context.Context) (bool, error) {
	var out struct {
		On bool `json:"on"`
	}
	err := c.do(ctx, http.MethodGet, "/_sandbox/maintenance", nil, &out)
	return out.On, err
}

// Read implements Control: GET path, marked so the sandbox keeps the
// read out of its traffic history (a view left open refreshes every few
// seconds and would push the add-on's calls out of it).
func (c *HTTPControl) Read(ctx context.Context, path string, out any) error {
	return c.send(ctx, http.MethodGet, path, nil, out, true)
}

// do sends one control-plane call and decodes the envelope's data into
// out; a failure carries the sandbox's own message.
func (c *HTTPControl) do(ctx context.Context, method, path string, body, out any) error {
	return c.send(ctx, method, path, body, out, false)
}

// send sends one call through the typed control-plane client
// (sandbox/controlclient); unrecorded keeps a read out of the traffic
// history.
func (c *HTTPControl) send(ctx context.Context, method, path string, body, out any, unrecorded bool) error {
	cl := controlclient.New(c.BaseURL, c.Client)
	cl.Unrecorded = unrecorded
	err := cl.Do(ctx, method, path, body, out)
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		return fmt.Errorf("%s %s: %d %s", method, path, ae.Status, strings.TrimPrefix(ae.Message, method+" "+path+": "))
	}
	return err
}

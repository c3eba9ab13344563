package controlclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/control"
	"github.com/eshop-sandbox/sandbox/sandbox/app/inbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/timectl"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/payments"
)

// Health answers 200 once the fixtures are seeded.
func (c *Client) Health(ctx context.Context) (*control.Health, error) {
	var v control.Health
	return &v, c.Do(ctx, http.MethodGet, "/_sandbox/health", nil, &v)
}

// Eshops lists the e-shops with their addresses, tokens and add-ons.
func (c *Client) Eshops(ctx context.Context) ([]control.EshopView, error) {
	var v struct {
		Eshops []control.EshopView `json:"eshops"`
	}
	err := c.Do(ctx, http.MethodGet, "/_sandbox/eshops", nil, &v)
	return v.Eshops, err
}

// Reset takes the sandbox back to its fixtures.
func (c *Client) Reset(ctx context.Context) error {
	return c.Do(ctx, http.MethodPost, "/_sandbox/reset", nil, nil)
}

// Clock reads the sandbox clock.
func (c *Client) Clock(ctx context.Context) (*timectl.State, error) {
	var v timectl.State
	return &v, c.Do(ctx, http.MethodGet, timectl.Path, nil, &v)
}

// MoveClock moves the sandbox clock as the body says, in the control
// plane's own words (advance "7d", set "2026-01-01T00:00:00Z"), for a
// caller that passes on what its user wrote, as a scenario step does.
func (c *Client) MoveClock(ctx context.Context, body timectl.MoveBody) (*timectl.State, error) {
	var v timectl.State
	return &v, c.Do(ctx, http.MethodPost, timectl.Path, body, &v)
}

// AdvanceClock moves the sandbox clock forward by d.
func (c *Client) AdvanceClock(ctx context.Context, d time.Duration) (*timectl.State, error) {
	var v timectl.State
	return &v, c.Do(ctx, http.MethodPost, timectl.Path, timectl.MoveBody{Advance: d.String()}, &v)
}

// SetClock sets the sandbox clock to t.
func (c *Client) SetClock(ctx context.Context, t time.Time) (*timectl.State, error) {
	var v timectl.State
	return &v, c.Do(ctx, http.MethodPost, timectl.Path, timectl.MoveBody{Set: t.UTC().Format(time.RFC3339)}, &v)
}

// Limits reads the limits in force.
func (c *Client) Limits(ctx context.Context) (*limits.LimitsView, error) {
	var v limits.LimitsView
	return &v, c.Do(ctx, http.MethodGet, "/_sandbox/limits", nil, &v)
}

// SetLimits changes the limits named in the body.
func (c *Client) SetLimits(ctx context.Context, body limits.LimitsBody) (*limits.LimitsView, error) {
	var v limits.LimitsView
	return &v, c.Do(ctx, http.MethodPatch, "/_sandbox/limits", body, &v)
}

// Maintenance starts or ends maintenance; the answer tells whether it is on.
func (c *Client) Maintenance(ctx context.Context, body limits.MaintenanceBody) (map[string]any, error) {
	var v map[string]any
	return v, c.Do(ctx, http.MethodPost, "/_sandbox/maintenance", body, &v)
}

// OAuth reads the OAuth server's facts.
func (c *Client) OAuth(ctx context.Context) (*oauth.Settings, error) {
	var v oauth.Settings
	return &v, c.Do(ctx, http.MethodGet, "/_sandbox/oauth", nil, &v)
}

// SetAPITokenLifetime changes how long API tokens live.
func (c *Client) SetAPITokenLifetime(ctx context.Context, d time.Duration) (*oauth.Settings, error) {
	var v oauth.Settings
	return &v, c.Do(ctx, http.MethodPut, "/_sandbox/oauth", oauth.SettingsBody{APITokenLifetime: d.String()}, &v)
}

// Modules reads an e-shop's active modules.
func (c *Client) Modules(ctx context.Context, eshopID int) (*control.ModulesView, error) {
	var v control.ModulesView
	return &v, c.Do(ctx, http.MethodGet, "/_sandbox/eshops/"+strconv.Itoa(eshopID)+"/modules", nil, &v)
}

// Lifecycle moves an add-on through its life cycle: suspend, resume,
// terminate or uninstall (see addons.Actions).
func (c *Client) Lifecycle(ctx context.Context, eshopID int, name, action string) (*addons.LifecycleResult, error) {
	var v addons.LifecycleResult
	return &v, c.Do(ctx, http.MethodPost, addonPath(eshopID, name)+"/"+url.PathEscape(action), nil, &v)
}

// FailNextJob arms a fault for the next job created.
func (c *Client) FailNextJob(ctx context.Context, body jobs.FailNextBody) (*jobs.Fault, error) {
	var v struct {
		Armed *jobs.Fault `json:"armed"`
	}
	err := c.Do(ctx, http.MethodPost, jobs.ControlPath+"/fail-next", body, &v)
	return v.Armed, err
}

// PaymentGateways lists an e-shop's payment gateway addresses per add-on.
func (c *Client) PaymentGateways(ctx context.Context, eshopID int) ([]payments.GatewayView, error) {
	var v struct {
		Gateways []payments.GatewayView `json:"paymentGateways"`
	}
	err := c.Do(ctx, http.MethodGet, "/_sandbox/eshops/"+strconv.Itoa(eshopID)+"/payment-gateways", nil, &v)
	return v.Gateways, err
}

// Inbox reads a webhook inbox. With wait > 0 the sandbox holds the call
// (a long-poll, at most inbox.MaxWait) until the inbox holds count
// entries; the answer's TimedOut says it did not.
func (c *Client) Inbox(ctx context.Context, name string, count int, wait time.Duration) (*inbox.View, error) {
	q := url.Values{}
	if wait > 0 {
		q.Set("wait", wait.String())
	}
	if count > 0 {
		q.Set("count", strconv.Itoa(count))
	}
	var v inbox.View
	return &v, c.Do(ctx, http.MethodGet, withQuery(inbox.PathPrefix+url.PathEscape(name), q), nil, &v)
}

// InboxURL is the webhook URL of a named inbox inside the sandbox.
func (c *Client) InboxURL(name string) string {
	return c.BaseURL + inbox.PathPrefix + url.PathEscape(name)
}

// Document reads one of the control plane's documents that are not
// envelopes (the HAR export at traffic.HARPath, the OpenAPI documents at
// openapi.ControlPath and openapi.Path) and answers its bytes. A status
// other than 200 comes back as an *api.AnswerError with the sandbox's
// message.
func (c *Client) Document(ctx context.Context, path string) ([]byte, error) {
	status, raw, err := c.send(ctx, http.MethodGet, path, nil, false)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		err := api.DecodeAnswer(status, raw, nil)
		var ae *api.AnswerError
		if errors.As(err, &ae) {
			ae.Message = "GET " + path + ": " + ae.Message
			return nil, ae
		}
		return nil, &api.AnswerError{Status: status, Message: fmt.Sprintf("GET %s: HTTP %d", path, status)}
	}
	return raw, nil
}

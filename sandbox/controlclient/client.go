// Package controlclient is a typed Go client of the sandbox's control
// plane (the routes under /_sandbox/, described by
// /_sandbox/openapi-control.json). Every method sends one call and
// decodes the envelope's data into the Go type the handler answers with;
// an error envelope comes back as an *api.AnswerError carrying the HTTP
// status, the errorCode, the instance and the message.
//
// The client needs no token: the control plane has none. Its answers are
// the same structs the sandbox's handlers return (addons.View,
// addons.InstallReport, webhooks.EmittedEvent, webhooks.Notification,
// scenario.FaultView, scenario.ReportView, traffic.Snapshot,
// jobs.ControlItem), so a field named in one place is named the same in
// the other.
package controlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// Client calls one sandbox's control plane.
type Client struct {
	// BaseURL is the sandbox's address, e.g. http://127.0.0.1:8080 (no
	// trailing slash needed).
	BaseURL string
	// HTTP sends the calls; http.DefaultClient when nil.
	HTTP *http.Client
	// Unrecorded keeps the client's reads (GET) out of the sandbox's
	// traffic history, so a test that polls does not fill it.
	Unrecorded bool
	// UserAgent, when set, names the client in its calls. A tool that
	// drives a sandbox for an add-on (sandbox test, sandbox certify) sends
	// scenario.RunnerAgent, so the contract report does not judge the
	// tool's own calls as the add-on's.
	UserAgent string
}

// New returns a client of the sandbox at baseURL.
func New(baseURL string, hc *http.Client) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), HTTP: hc}
}

// TransportError is a call that got no answer: the sandbox could not be
// reached, or the connection failed.
type TransportError struct {
	Method, Path string
	Err          error
}

func (e *TransportError) Error() string { return e.Method + " " + e.Path + ": " + e.Err.Error() }
func (e *TransportError) Unwrap() error { return e.Err }

// NotEnvelopeError is an answer that is not the sandbox's envelope (the
// address is some other server).
type NotEnvelopeError struct {
	Method, Path string
	Status       int
}

func (e *NotEnvelopeError) Error() string {
	return fmt.Sprintf("%s %s answered HTTP %d without the sandbox's envelope; is it a sandbox?", e.Method, e.Path, e.Status)
}

// maxAnswer bounds an answer read (a traffic history with its bodies is
// the largest).
const maxAnswer = 32 << 20

// Do sends one control-plane call: body (nil for none) is marshalled as
// JSON, the envelope's data is decoded into out (nil to drop it). An
// error envelope comes back as an *api.AnswerError (one without a code
// names the call in its message), no answer as a *TransportError, an
// answer that is no envelope as a *NotEnvelopeError.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(raw)
	}
	status, raw, err := c.send(ctx, method, path, rd, body != nil)
	if err != nil {
		return err
	}
	err = api.DecodeAnswer(status, raw, out)
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		if ae.Code == "" { // no error envelope: name the call
			ae.Message = method + " " + path + ": " + ae.Message
		}
		return ae
	}
	if err != nil && !json.Valid(raw) {
		return &NotEnvelopeError{Method: method, Path: path, Status: status}
	}
	return err
}

// send sends one call and reads its answer (within maxAnswer bytes).
func (c *Client) send(ctx context.Context, method, path string, body io.Reader, isJSON bool) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, body)
	if err != nil {
		return 0, nil, err
	}
	if isJSON {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	if c.Unrecorded && method == http.MethodGet {
		req.Header.Set(traffic.UnrecordedHeader, "1")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, &TransportError{Method: method, Path: path, Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("reading the sandbox's answer: %v", err)
	}
	return resp.StatusCode, raw, nil
}

// AddonConfig is the body of PutAddon. Empty fields keep the add-on's
// current value (a new add-on gets generated client credentials, and its
// redirect URI defaults to its install URL).
type AddonConfig struct {
	InstallURL   string `json:"installUrl,omitempty"`
	RedirectURI  string `json:"redirectUri,omitempty"`
	WebhookURL   string `json:"webhookUrl,omitempty"`
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	// Endpoints the add-on asks for: "all", or operation names such as
	// "GetListOfOrders" or "GET /api/orders". Nil keeps the current ones.
	Endpoints []string `json:"-"`
	// Approved approves the requested endpoints at once.
	Approved bool `json:"approved,omitempty"`
}

// MarshalJSON sends Endpoints as "all" or a list.
func (a AddonConfig) MarshalJSON() ([]byte, error) {
	type plain AddonConfig
	m := map[string]any{}
	raw, err := json.Marshal(plain(a))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	switch {
	case len(a.Endpoints) == 1 && a.Endpoints[0] == "all":
		m["endpoints"] = "all"
	case a.Endpoints != nil:
		m["endpoints"] = a.Endpoints
	}
	return json.Marshal(m)
}

func addonPath(eshopID int, name string) string {
	return "/_sandbox/eshops/" + strconv.Itoa(eshopID) + "/addons/" + url.PathEscape(name)
}

// PutAddon creates or changes an add-on of an e-shop and answers it with
// its client credentials and the e-shop's OAuth addresses.
func (c *Client) PutAddon(ctx context.Context, eshopID int, name string, cfg AddonConfig) (*addons.View, error) {
	var v addons.View
	return &v, c.Do(ctx, http.MethodPut, addonPath(eshopID, name), cfg, &v)
}

// Addon reads one add-on of an e-shop.
func (c *Client) Addon(ctx context.Context, eshopID int, name string) (*addons.View, error) {
	var v addons.View
	return &v, c.Do(ctx, http.MethodGet, addonPath(eshopID, name), nil, &v)
}

// Addons lists an e-shop's add-ons.
func (c *Client) Addons(ctx context.Context, eshopID int) ([]*addons.View, error) {
	var v struct {
		Addons []*addons.View `json:"addons"`
	}
	err := c.Do(ctx, http.MethodGet, "/_sandbox/eshops/"+strconv.Itoa(eshopID)+"/addons", nil, &v)
	return v.Addons, err
}

// DeleteAddon removes an add-on from an e-shop; its tokens are revoked.
func (c *Client) DeleteAddon(ctx context.Context, eshopID int, name string) error {
	return c.Do(ctx, http.MethodDelete, addonPath(eshopID, name), nil, nil)
}

// ApproveAddon approves the add-on's pending endpoints.
func (c *Client) ApproveAddon(ctx context.Context, eshopID int, name string) (*addons.ApproveResult, error) {
	var v addons.ApproveResult
	return &v, c.Do(ctx, http.MethodPost, addonPath(eshopID, name)+"/approve", nil, &v)
}

// Install runs the install handshake of the add-on into the e-shop and
// answers its report. A failed handshake is not an error: the report's
// Passed is the verdict, Problems say why.
func (c *Client) Install(ctx context.Context, eshopID int, addon string) (*addons.InstallReport, error) {
	var v addons.InstallReport
	return &v, c.Do(ctx, http.MethodPost, "/_sandbox/eshops/"+strconv.Itoa(eshopID)+"/install", map[string]string{"addon": addon}, &v)
}

// InstallRecord reads one install report by its id (as Install answered
// it), with what happened since.
func (c *Client) InstallRecord(ctx context.Context, id string) (*addons.InstallReport, error) {
	var v addons.InstallReport
	return &v, c.Do(ctx, http.MethodGet, "/_sandbox/installs/"+url.PathEscape(id), nil, &v)
}

// Installs lists the install reports, optionally of one e-shop (eshopID
// > 0) or one add-on (addon != "").
func (c *Client) Installs(ctx context.Context, eshopID int, addon string) ([]*addons.InstallReport, error) {
	q := url.Values{}
	if eshopID > 0 {
		q.Set("eshop", strconv.Itoa(eshopID))
	}
	if addon != "" {
		q.Set("addon", addon)
	}
	var v struct {
		Installs []*addons.InstallReport `json:"installs"`
	}
	err := c.Do(ctx, http.MethodGet, withQuery("/_sandbox/installs", q), nil, &v)
	return v.Installs, err
}

// Event is the body of Emit.
type Event struct {
	EshopID  int    `json:"eshop"`
	Event    string `json:"event"`    // e.g. order:create
	Instance string `json:"instance"` // the changed entity's identifier
	// Addon names the add-on of a system event (addon:*); all add-ons with
	// a webhook URL when empty.
	Addon string `json:"addon,omitempty"`
	// EventCreated overrides the event's time (ISO 8601); the sandbox
	// clock when empty.
	EventCreated string `json:"eventCreated,omitempty"`
}

// Emit publishes an event as if the e-shop had made the change; its
// webhooks are delivered in the background (see Deliveries).
func (c *Client) Emit(ctx context.Context, ev Event) (*webhooks.EmittedEvent, error) {
	var v webhooks.EmittedEvent
	return &v, c.Do(ctx, http.MethodPost, "/_sandbox/events", ev, &v)
}

// DeliveryFilter narrows Deliveries; zero fields do not filter.
type DeliveryFilter struct {
	EshopID int
	Event   string
	Status  string // pending, delivered or failed
	URL     string
}

// Deliveries lists webhook notifications with all their attempts, oldest
// first. A notification's Status is a word (pending, delivered, failed);
// the receiver's HTTP answer is each attempt's Status (responseStatus).
func (c *Client) Deliveries(ctx context.Context, f DeliveryFilter) ([]*webhooks.Notification, error) {
	q := url.Values{}
	if f.EshopID > 0 {
		q.Set("eshop", strconv.Itoa(f.EshopID))
	}
	for k, v := range map[string]string{"event": f.Event, "status": f.Status, "url": f.URL} {
		if v != "" {
			q.Set(k, v)
		}
	}
	var v struct {
		Deliveries []*webhooks.Notification `json:"deliveries"`
	}
	err := c.Do(ctx, http.MethodGet, withQuery("/_sandbox/deliveries", q), nil, &v)
	return v.Deliveries, err
}

// Replay delivers a notification again and answers the new one.
func (c *Client) Replay(ctx context.Context, id int) (*webhooks.Notification, error) {
	var v struct {
		Delivery *webhooks.Notification `json:"delivery"`
	}
	err := c.Do(ctx, http.MethodPost, "/_sandbox/deliveries/"+strconv.Itoa(id)+"/replay", nil, &v)
	return v.Delivery, err
}

// Faults is the answer of GET /_sandbox/faults.
type Faults struct {
	Faults   []scenario.FaultView `json:"faults"`
	Header   string               `json:"header"`   // the request header that names a fault per call
	Scenario *string              `json:"scenario"` // the scenario served, if any
	Chaos    json.RawMessage      `json:"chaos"`    // the --chaos settings, null without
}

// AddFault adds a fault while serving, in the scenario file's fault
// syntax (a map or a struct marshalled to it: match, trigger, one
// action), and answers it with its ID for RemoveFault and its counters.
func (c *Client) AddFault(ctx context.Context, fault any) (*scenario.FaultView, error) {
	var v scenario.FaultView
	return &v, c.Do(ctx, http.MethodPost, scenario.FaultsPath, fault, &v)
}

// Faults lists the faults in force with how often each matched and how
// often it acted (Hits).
func (c *Client) Faults(ctx context.Context) (*Faults, error) {
	var v Faults
	return &v, c.Do(ctx, http.MethodGet, scenario.FaultsPath, nil, &v)
}

// RemoveFault removes a fault added while serving, by id or name.
func (c *Client) RemoveFault(ctx context.Context, id string) error {
	return c.Do(ctx, http.MethodDelete, scenario.FaultsPath+"/"+url.PathEscape(id), nil, nil)
}

// ClearFaults removes every fault added while serving.
func (c *Client) ClearFaults(ctx context.Context) error {
	return c.Do(ctx, http.MethodDelete, scenario.FaultsPath, nil, nil)
}

// Report reads the contract report; its Clean is the verdict.
func (c *Client) Report(ctx context.Context) (*scenario.ReportView, error) {
	var v scenario.ReportView
	return &v, c.Do(ctx, http.MethodGet, scenario.ReportPath, nil, &v)
}

// ClearReport starts the contract report over.
func (c *Client) ClearReport(ctx context.Context) (*scenario.ReportView, error) {
	var v scenario.ReportView
	return &v, c.Do(ctx, http.MethodDelete, scenario.ReportPath, nil, &v)
}

// Traffic reads the recorded calls and deliveries after seq since (0 for
// all), at most limit of them (0: the history's own bound).
func (c *Client) Traffic(ctx context.Context, since int64, limit int) (*traffic.Snapshot, error) {
	q := url.Values{}
	if since > 0 {
		q.Set("since", strconv.FormatInt(since, 10))
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var v traffic.Snapshot
	return &v, c.Do(ctx, http.MethodGet, withQuery(traffic.HistoryPath, q), nil, &v)
}

// Jobs lists every e-shop's asynchronous jobs, oldest first, optionally of
// one e-shop (eshopID > 0) and in one status ("" for all).
func (c *Client) Jobs(ctx context.Context, eshopID int, status string) ([]jobs.ControlItem, error) {
	q := url.Values{}
	if eshopID > 0 {
		q.Set("eshop", strconv.Itoa(eshopID))
	}
	if status != "" {
		q.Set("status", status)
	}
	var v struct {
		Jobs []jobs.ControlItem `json:"jobs"`
	}
	err := c.Do(ctx, http.MethodGet, withQuery(jobs.ControlPath, q), nil, &v)
	return v.Jobs, err
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

package exampleaddon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Config is what an add-on must know about itself and the platform.
type Config struct {
	Name         string // the add-on's name in the sandbox, e.g. example-addon
	PublicURL    string // how the e-shop reaches this add-on, e.g. http://127.0.0.1:9090
	APIURL       string // the API's base address {base_url}; calls go to {base_url}/api/...
	OAuthURL     string // the OAuth server address: {eshop_url}/action/ApiOAuthServer/token
	ClientID     string // from the partner administration
	ClientSecret string // from the partner administration; keep it secret
	RedirectURI  string // registered with the add-on; defaults to the install URL
	HeaderPrefix string // brand word of the header names, "Service" in the sandbox
	StateFile    string // where OAuth tokens are kept between runs ("" keeps them in memory)
	Events       []string
	MaxRetries   int           // attempts after a 423 or 429 before giving up
	MaxBackoff   time.Duration // cap of the exponential back-off without Retry-After
	HTTPTimeout  time.Duration // per outgoing request

	// PaymentResult is what the test gateway reports for every payment
	// (paid by default; failed, canceled or pending to try the other
	// paths).
	PaymentResult string
	// ResultStatuses is the order status to set for a payment result; a
	// result not listed gets the default (see statusFor).
	ResultStatuses map[string]int
}

// InstallURL is where the e-shop sends the install request.
func (c Config) InstallURL() string { return strings.TrimRight(c.PublicURL, "/") + "/install" }

// WebhookURL is where the e-shop sends notifications and system events.
func (c Config) WebhookURL() string { return strings.TrimRight(c.PublicURL, "/") + "/webhooks" }

// AccessTokenURL is the OAuth server's getAccessToken address, next to
// the token address.
func (c Config) AccessTokenURL() string {
	return strings.TrimSuffix(c.OAuthURL, "/token") + "/getAccessToken"
}

// Addon is the running add-on: its installations (one per e-shop), the
// notifications it received, and its HTTP handlers.
type Addon struct {
	cfg Config
	log *slog.Logger

	// HTTP sends every outgoing request; tests and proxies may replace it.
	HTTP *http.Client

	// Sleep waits between retries; tests replace it to observe back-off.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the add-on's own clock, for token expiry estimates.
	Now func() time.Time

	mu       sync.Mutex
	installs map[string]*installation // by OAuth token
	events   []Received
	payments []Payment
	work     inflight
}

// installation is the add-on's binding to one e-shop.
type installation struct {
	OAuthToken   string    `json:"oauthToken"`
	EshopID      int       `json:"eshopId"` // 0 until GET /api/eshop told us
	SignatureKey string    `json:"signatureKey,omitempty"`
	InstalledAt  time.Time `json:"installedAt"`
	Suspended    bool      `json:"suspended"`

	tokMu      sync.Mutex // one token refresh at a time per e-shop
	apiToken   string
	apiExpires time.Time

	slotsOnce sync.Once
	slots     chan struct{}   // calls open at once with the API token (acquire)
	jobHook   bool            // job:finished is registered (jobs.go); under Addon.mu
	jobs      map[string]bool // ids of the jobs this add-on started, waiting for job:finished; under Addon.mu
}

// Received is one webhook notification as the add-on saw it.
type Received struct {
	Event    string `json:"event"`
	EshopID  int    `json:"eshopId"`
	Instance string `json:"eventInstance"`
	Verified bool   `json:"verified"`
	Result   string `json:"result,omitempty"` // what processing did
}

// New builds an add-on from its configuration and loads its state file.
func New(cfg Config, log *slog.Logger) (*Addon, error) {
	if log == nil {
		log = slog.Default()
	}
	if cfg.HeaderPrefix == "" {
		cfg.HeaderPrefix = "Service"
	}
	if cfg.RedirectURI == "" {
		cfg.RedirectURI = cfg.InstallURL()
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = 5
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.HTTPTimeout == 0 {
		cfg.HTTPTimeout = 30 * time.Second
	}
	a := &Addon{cfg: cfg, HTTP: &http.Client{Timeout: cfg.HTTPTimeout}, log: log, Sleep: sleep, Now: time.Now,
		installs: map[string]*installation{}}
	return a, a.load()
}

// Config returns the configuration in force.
func (a *Addon) Config() Config { return a.cfg }

// Handler serves the add-on's endpoints.
func (a *Addon) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /install", a.handleInstall)
	mux.HandleFunc("POST /webhooks", a.handleWebhook)
	mux.HandleFunc("GET "+GatewayPath, a.handlePay)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /status", a.handleStatus)
	return mux
}

// Wait blocks until background processing of notifications is done.
func (a *Addon) Wait() { a.work.wait() }

// inflight counts background jobs. Unlike sync.WaitGroup it allows a new
// job to start while someone waits at zero: notifications arrive at any
// time, also while a caller waits for the earlier ones.
type inflight struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func (w *inflight) add(delta int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += delta
	if w.n == 0 && w.cond != nil {
		w.cond.Broadcast()
	}
}

func (w *inflight) wait() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cond == nil {
		w.cond = sync.NewCond(&w.mu)
	}
	for w.n > 0 {
		w.cond.Wait()
	}
}

// Status is what GET /status shows: the installations (without tokens),
// the notifications received and the payments settled.
type Status struct {
	Installations []InstallationStatus `json:"installations"`
	Events        []Received           `json:"events"`
	Payments      []Payment            `json:"payments"`
}

// InstallationStatus describes one installation without its secrets.
type InstallationStatus struct {
	EshopID         int       `json:"eshopId"`
	InstalledAt     time.Time `json:"installedAt"`
	HasSignatureKey bool      `json:"hasSignatureKey"`
	HasAPIToken     bool      `json:"hasApiToken"`
	Suspended       bool      `json:"suspended"`
}

// Status reports the add-on's state.
func (a *Addon) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := Status{Installations: []InstallationStatus{}, Events: append([]Received{}, a.events...), Payments: append([]Payment{}, a.payments...)}
	for _, in := range a.installs {
		in.tokMu.Lock()
		has := in.apiToken != ""
		in.tokMu.Unlock()
		st.Installations = append(st.Installations, InstallationStatus{EshopID: in.EshopID, InstalledAt: in.InstalledAt,
			HasSignatureKey: in.SignatureKey != "", HasAPIToken: has, Suspended: in.Suspended})
	}
	return st
}

func (a *Addon) handleStatus(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(a.Status())
}

// installation returns the installation bound to an e-shop.
func (a *Addon) installation(eshopID int) *installation {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, in := range a.installs {
		if in.EshopID == eshopID && eshopID != 0 {
			return in
		}
	}
	return nil
}

// Installation reports whether the add-on is installed in an e-shop.
func (a *Addon) Installation(eshopID int) bool { return a.installation(eshopID) != nil }

// API calls the API on behalf of the installation in an e-shop (see
// call for the rules it follows).
func (a *Addon) API(ctx context.Context, eshopID int, method, path string, body, out any) error {
	in := a.installation(eshopID)
	if in == nil {
		return fmt.Errorf("not installed in e-shop %d", eshopID)
	}
	return a.call(ctx, in, method, path, body, out)
}

func (a *Addon) addInstallation(in *installation) {
	a.mu.Lock()
	a.installs[in.OAuthToken] = in
	a.mu.Unlock()
	a.save()
}

// bindEshop records which e-shop an installation belongs to; an older
// installation in the same e-shop (a re-install) is forgotten.
func (a *Addon) bindEshop(in *installation, eshopID int) {
	a.mu.Lock()
	for tok, other := range a.installs {
		if other != in && other.EshopID == eshopID {
			delete(a.installs, tok)
		}
	}
	in.EshopID = eshopID
	a.mu.Unlock()
	a.save()
}

func (a *Addon) forget(in *installation) {
	a.mu.Lock()
	delete(a.installs, in.OAuthToken)
	a.mu.Unlock()
	a.save()
}

// save writes the OAuth tokens and signature keys to the state file,
// readable by the owner only: they are the add-on's lasting secrets.
func (a *Addon) save() {
	if a.cfg.StateFile == "" {
		return
	}
	a.mu.Lock()
	list := make([]*installation, 0, len(a.installs))
	for _, in := range a.installs {
		list = append(list, in)
	}
	raw, err := json.MarshalIndent(list, "", "  ")
	a.mu.Unlock()
	if err == nil {
		tmp := a.cfg.StateFile + ".tmp"
		if err = os.WriteFile(tmp, raw, 0o600); err == nil {
			err = os.Rename(tmp, a.cfg.StateFile)
		}
	}
	if err != nil {
		a.log.Error("save state", "file", a.cfg.StateFile, "err", err)
	}
}

func (a *Addon) load() error {
	if a.cfg.StateFile == "" {
		return nil
	}
	raw, err := os.ReadFile(a.cfg.StateFile)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(filepath.Dir(a.cfg.StateFile), 0o700)
	}
	if err != nil {
		return err
	}
	var list []*installation
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("state file %s: %w", a.cfg.StateFile, err)
	}
	for _, in := range list {
		a.installs[in.OAuthToken] = in
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

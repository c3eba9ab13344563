package addons

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// Defaults of the install driver.
const (
	// DefaultInstallTimeout is how long the add-on may take to answer the
	// install request (its code exchange included).
	DefaultInstallTimeout = 30 * time.Second
	// DefaultLateGrace is how long the driver waits, after a 200 that came
	// without any exchange, for an exchange arriving late, so the report
	// can tell "exchanged after answering" from "never exchanged".
	DefaultLateGrace = 2 * time.Second
)

// installSequence numbers installs. (Not the collection's own name: the
// store keeps the collection's list order in a sequence of that name.)
const installSequence = "install-ids"

// Installer plays the e-shop installing an add-on: it sends the install
// request with a fresh code to the add-on's install URL and judges the
// handshake from the add-on's answer and the exchanges the OAuth server
// reports.
type Installer struct {
	s         *Service
	Client    *http.Client  // to the add-on; must not follow redirects
	Timeout   time.Duration // see DefaultInstallTimeout
	LateGrace time.Duration // see DefaultLateGrace

	fl     flights
	ctx    context.Context
	cancel context.CancelFunc
}

func newInstaller(s *Service) *Installer {
	ctx, cancel := context.WithCancel(context.Background())
	return &Installer{s: s, Timeout: DefaultInstallTimeout, LateGrace: DefaultLateGrace,
		Client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		fl:     flights{byID: map[string]*flight{}, keys: map[string]string{}},
		ctx:    ctx, cancel: cancel}
}

func (in *Installer) stop() { in.cancel() }

// Install runs one install handshake of the add-on name into an e-shop
// and returns its report (stored for GET /_sandbox/installs). A failed
// handshake is a report with Passed false, not an error; errors are for
// installs that cannot start (unknown e-shop or add-on, one already
// running, a suspended add-on).
func (in *Installer) Install(ctx context.Context, eshopID int, name string) (*InstallReport, error) {
	key := strconv.Itoa(eshopID) + "/" + name
	if !in.fl.start(key, nil) {
		return nil, sandbox.Conflict(name, "An install of the add-on %s into e-shop %d is already running.", name, eshopID)
	}
	defer in.fl.end(key)

	var rec *InstallReport
	var code, clientID string
	err := in.s.d.Store.Update(func(tx *store.Tx) error {
		ad, err := in.s.addonForInstall(tx, eshopID, name)
		if err != nil {
			return err
		}
		if ad.Status == auth.StatusSuspended {
			return sandbox.Conflict(name, "The add-on %s is suspended in e-shop %d; resume it (POST /_sandbox/eshops/%d/addons/%s/resume) before installing it again.", name, eshopID, eshopID, name)
		}
		if ad.InstallURL == "" {
			return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "installUrl", "The add-on %s has no installUrl in e-shop %d; set one with PUT /_sandbox/eshops/%d/addons/%s.", name, eshopID, eshopID, name)
		}
		n, err := tx.Next(store.Global, installSequence)
		if err != nil {
			return err
		}
		id := strconv.FormatInt(n, 10)
		var c *oauth.Code
		if code, c, err = in.s.OAuth.IssueCode(tx, eshopID, name, id); err != nil {
			return err
		}
		clientID = ad.ClientID
		rec = &InstallReport{ID: id, EshopID: eshopID, Addon: name, InstallURL: ad.InstallURL, TokenURL: in.s.OAuth.TokenURL(eshopID),
			Result: Running, StartedAt: now(tx), CodeExpiresAt: sandbox.FormatTime(c.ExpiresAt),
			Exchanges: []Attempt{}, Problems: []string{}, AddonStatus: ad.Status}
		return putReport(tx, rec)
	})
	if err != nil {
		return nil, err
	}
	f := newFlight(rec.ID, clientID)
	in.fl.attach(key, f)

	callCtx, cancel := context.WithTimeout(ctx, in.Timeout)
	defer cancel()
	stopOnClose := context.AfterFunc(in.ctx, cancel)
	defer stopOnClose()
	answer, unreachable := in.call(callCtx, rec.InstallURL, code, f)
	if answer != nil && answer.Status == http.StatusOK && f.count() == 0 && in.LateGrace > 0 {
		// While it waits, the running report shows the answer, so a
		// reader (GET /_sandbox/installs/{id}) sees the add-on answered
		// and the sandbox waits for the code exchange.
		in.showAnswer(rec.ID, answer)
		t := time.NewTimer(in.LateGrace)
		select {
		case <-f.late:
		case <-t.C:
		case <-ctx.Done():
		case <-in.ctx.Done():
		}
		t.Stop()
	}
	return in.finish(rec, f, answer, unreachable)
}

// showAnswer puts the add-on's answer into a running install's stored
// report.
func (in *Installer) showAnswer(id string, answer *Answer) {
	err := in.s.d.Store.Update(func(tx *store.Tx) error {
		rec, err := getReport(tx, id)
		if err != nil || rec.Result != Running {
			return err
		}
		rec.Answer = answer
		return putReport(tx, rec)
	})
	if err != nil {
		in.s.d.Log.Error("install report: answer", "install", id, "err", err)
	}
}

// finish judges the install and stores the final report. The flight
// stays locked meanwhile, so an exchange arriving now waits and is then
// added to the stored report instead of being lost.
func (in *Installer) finish(rec *InstallReport, f *flight, answer *Answer, unreachable string) (*InstallReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec.Answer, rec.Unreachable = answer, unreachable
	rec.Exchanges = append([]Attempt{}, f.attempts...)
	Judge(rec)
	err := in.s.d.Store.Update(func(tx *store.Tx) error {
		rec.FinishedAt = now(tx)
		if ad, err := loadAddon(tx, rec.EshopID, rec.Addon); err == nil {
			rec.AddonStatus = ad.Status
		}
		return putReport(tx, rec)
	})
	f.closed = true
	if err != nil {
		return nil, err
	}
	in.publish(rec)
	return rec, nil
}

func (in *Installer) publish(rec *InstallReport) {
	if in.s.d.Bus != nil {
		cp := *rec
		in.s.d.Bus.Emit(TopicInstall, &cp)
	}
}

// call sends the install request and notes the moment its answer came.
func (in *Installer) call(ctx context.Context, installURL, code string, f *flight) (*Answer, string) {
	defer f.markAnswered()
	target, err := withCode(installURL, code)
	if err != nil {
		return nil, fmt.Sprintf("the install URL %q is not a valid URL", installURL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Sprintf("the install URL %q is not a valid URL", installURL)
	}
	req.Header.Set("User-Agent", "eshop-sandbox install handshake")
	// Wall time on purpose: this measures the add-on's real latency, not
	// sandbox time.
	start := time.Now()
	resp, err := in.Client.Do(req)
	if err != nil {
		return nil, describeTransport(err, in.Timeout)
	}
	f.markAnswered()
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return &Answer{Status: resp.StatusCode, Location: resp.Header.Get("Location"),
		Body: strings.ToValidUTF8(strings.TrimSpace(string(body)), "?"), DurationMs: time.Since(start).Milliseconds()}, ""
}

func withCode(installURL, code string) (string, error) {
	u, err := url.Parse(installURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("bad install URL")
	}
	q := u.Query()
	q.Set("code", code)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// describeTransport explains a failed install request without quoting
// the URL (it holds the code).
func describeTransport(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		return fmt.Sprintf("the add-on did not answer within %s", timeout)
	case errors.Is(err, context.Canceled):
		return "the install was cancelled (the sandbox is shutting down or the caller went away)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// observe hears of every code exchange (from the OAuth server) and files
// it with the install it belongs to.
func (in *Installer) observe(ex oauth.Exchange) {
	if f := in.fl.find(ex); f != nil && f.add(ex) {
		return
	}
	if ex.InstallID != "" {
		in.appendLate(ex)
	}
}

// appendLate adds an exchange that arrived after its install finished to
// the stored report and judges it again.
func (in *Installer) appendLate(ex oauth.Exchange) {
	var rec *InstallReport
	err := in.s.d.Store.Update(func(tx *store.Tx) error {
		var err error
		if rec, err = getReport(tx, ex.InstallID); err != nil || rec.Result == Running {
			rec = nil
			return nil
		}
		rec.Exchanges = append(rec.Exchanges, Attempt{Exchange: ex, AfterAnswer: true})
		Judge(rec)
		if ad, err := loadAddon(tx, rec.EshopID, rec.Addon); err == nil {
			rec.AddonStatus = ad.Status
		}
		return putReport(tx, rec)
	})
	if err != nil {
		in.s.d.Log.Error("install report: late exchange", "install", ex.InstallID, "err", err)
		return
	}
	if rec != nil {
		in.publish(rec)
	}
}

// addonForInstall finds the add-on in the e-shop. An add-on configured in
// another e-shop only is copied over first (same credentials and URLs,
// its requested endpoints pending), as installing an add-on from the
// platform's catalogue into a new e-shop would.
func (s *Service) addonForInstall(tx *store.Tx, eshopID int, name string) (*auth.Addon, error) {
	ad, err := loadAddon(tx, eshopID, name)
	var se *sandbox.Error
	if err == nil || !errors.As(err, &se) || se.Kind != sandbox.KindNotFound || se.Instance != name {
		return ad, err
	}
	metas, lerr := eshop.List(tx)
	if lerr != nil {
		return nil, lerr
	}
	for _, m := range metas {
		other, oerr := loadAddon(tx, m.ID, name)
		if oerr != nil {
			continue
		}
		cp := *other
		cp.Status = auth.StatusConfigured
		cp.Endpoints = make([]auth.EndpointGrant, 0, len(other.Endpoints))
		for _, g := range other.Endpoints {
			if g.Approved || g.Action != "delete" {
				cp.Endpoints = append(cp.Endpoints, auth.EndpointGrant{Endpoint: g.Endpoint, Action: "add"})
			}
		}
		return &cp, auth.PutAddon(tx, eshopID, &cp)
	}
	return nil, err
}

// InstallBody is the body of POST /_sandbox/eshops/{id}/install.
type InstallBody struct {
	Addon string `json:"addon" doc:"The name of the add-on to install, as configured with PUT /_sandbox/eshops/{eshopId}/addons/{name}."`
}

// install serves POST /_sandbox/eshops/{id}/install {"addon": "<name>"}.
func (s *Service) install(r *api.Request) (any, error) {
	var body struct {
		Addon string `json:"addon"`
	}
	if _, err := r.DecodeBody(&body); err != nil {
		return nil, err
	}
	if body.Addon == "" {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "addon", `Name the add-on to install: {"addon": "example-addon"}.`)
	}
	return s.Installer.Install(r.Context(), eshopOf(r), body.Addon)
}

// Installs lists the install reports in start order, optionally of one
// e-shop (eshop > 0) or one add-on (addon != "").
func (s *Service) Installs(eshopID int, addon string) ([]*InstallReport, error) {
	out := []*InstallReport{}
	err := s.d.Store.View(func(tx *store.Tx) error {
		var derr error
		err := tx.Scan(store.Global, InstallsCollection, func(_ string, doc []byte) bool {
			var rec InstallReport
			if derr = json.Unmarshal(doc, &rec); derr != nil {
				return false
			}
			if (eshopID == 0 || rec.EshopID == eshopID) && (addon == "" || rec.Addon == addon) {
				out = append(out, &rec)
			}
			return true
		})
		if err != nil {
			return err
		}
		return derr
	})
	return out, err
}

func (s *Service) installs(r *api.Request) (any, error) {
	id := 0
	if v := r.Query("eshop"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "eshop", "Query parameter eshop must be an e-shop id, not %q.", v)
		}
		id = n
	}
	list, err := s.Installs(id, r.Query("addon"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"installs": list}, nil
}

func (s *Service) installByID(r *api.Request) (any, error) {
	var rec *InstallReport
	err := s.d.Store.View(func(tx *store.Tx) error {
		var err error
		rec, err = getReport(tx, r.Var("id"))
		if errors.Is(err, sandbox.ErrNotFound) {
			return sandbox.NotFound(r.Var("id"), "There is no install %q; GET /_sandbox/installs lists them.", r.Var("id"))
		}
		return err
	})
	return rec, err
}

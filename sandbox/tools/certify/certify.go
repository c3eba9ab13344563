package certify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/addonproc"
)

// suite is the state of one run.
type suite struct {
	ctx     context.Context
	o       Options
	app     *app.App
	headers sandbox.Headers
	log     *trafficLog
	client  *http.Client
	cc      *controlclient.Client // the sandbox's control plane
	proc    *addonproc.Process
	addon   addons.View
	res     results

	instances map[string][]string // event -> instances to use in turn (instances.go)
	next      map[string]int
	played    *played        // the rounds, once played (rounds.go)
	installed bool           // an install gave the add-on an OAuth token
	template  map[string]any // the body of a fresh order (orders.go)
	notes     []string       // what the card says besides the checks
}

// Run certifies the add-on: it starts a sandbox of its own, registers
// and (with Options.Command) starts the add-on, runs every check and
// stops both. A failed check is a Report whose Failed is true; the error
// is for a run that could not take place (bad options, no sandbox, an
// add-on that never listened), with the add-on's output when it exited.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	began := time.Now()
	s := newSuite(ctx, o)
	defer s.stop()
	if err := s.start(); err != nil {
		return nil, err
	}
	rep := &Report{Addon: o.Addon, Eshop: o.Eshop, InstallURL: o.InstallURL, WebhookURL: o.WebhookURL, Sandbox: s.app.BaseURL(),
		HeaderPrefix: s.app.Config.HeaderPrefix, Started: began, Triggers: []string{}}
	for _, t := range o.Triggers {
		rep.Triggers = append(rep.Triggers, t.String())
	}
	why := s.phases()
	if ctx.Err() != nil {
		why = "not run: the certification was interrupted"
	}
	if o.ChaosRate > 0 {
		if v, err := s.cc.Report(s.ctx); err == nil {
			rep.Chaos = &Chaos{Rate: o.ChaosRate, Seed: o.ChaosSeed, Coping: v.Chaos}
		}
	}
	s.stopAddon()
	if s.played != nil {
		rep.Writes = s.played.writes(s.headers.AccessToken)
	}
	rep.Checks = s.res.ordered(why)
	rep.Notes = s.notes
	rep.Duration = time.Since(began)
	if rep.Failed() && s.proc != nil {
		rep.AddonOutput = s.proc.Output()
	}
	return rep, nil
}

func newSuite(ctx context.Context, o Options) *suite {
	return &suite{ctx: ctx, o: o, log: newTrafficLog(), res: results{}, headers: sandbox.NewHeaders(""),
		client: &http.Client{Timeout: 2 * time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// phases runs the checks in order; it returns why the checks it did not
// reach were not exercised.
func (s *suite) phases() string {
	steps := []struct {
		what string
		run  func()
	}{
		{"install handshake, twice", s.installs},
		{"events that make the add-on call", s.exercise},
		{"signed, forged, repeated and reordered webhooks", s.webhooks},
		{"rounds of faults while the add-on calls", s.rounds},
		{"system events", s.lifecycle},
		{"the whole run's calls", s.wholeRun},
	}
	for _, st := range steps {
		if s.ctx.Err() != nil {
			return "not run: the certification was interrupted"
		}
		s.progress("%s", st.what)
		st.run()
	}
	return "not run"
}

func (s *suite) progress(format string, args ...any) {
	if s.o.Progress != nil {
		fmt.Fprintf(s.o.Progress, "certify: "+format+"\n", args...)
	}
}

// start opens the sandbox, registers the add-on, starts it and waits
// until it accepts connections.
func (s *suite) start() error {
	if err := s.open(); err != nil {
		return err
	}
	if err := s.register(); err != nil {
		return err
	}
	if err := s.resolveInstances(); err != nil {
		return err
	}
	if s.o.Command != "" {
		if err := s.startAddon(); err != nil {
			return err
		}
	}
	return s.waitListening()
}

// open starts the run's own sandbox.
func (s *suite) open() error {
	logw := s.o.Log
	if logw == nil {
		logw = io.Discard
	}
	// One attempt per notification: each check judges the first answer,
	// and a refused notification must not hold the next ones back while
	// it waits for its retry.
	cfg := sandbox.Config{Addr: s.o.Addr, Headless: true, Seed: 1, Version: s.o.Version, WebhookTimeout: s.o.Timing.Webhook, WebhookAttempts: 1,
		ChaosRate: s.o.ChaosRate, ChaosSeed: s.o.ChaosSeed, HeaderPrefix: s.o.HeaderPrefix}
	a, err := app.Open(cfg, slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return fmt.Errorf("start the sandbox: %w", err)
	}
	s.app = a
	s.headers = sandbox.NewHeaders(a.Config.HeaderPrefix)
	a.Bus.Hook(s.log.hook)
	a.Start()
	s.cc = controlclient.New(a.BaseURL(), s.client)
	s.cc.UserAgent = scenario.RunnerAgent // the contract report does not judge certify's own calls
	s.progress("sandbox at %s", a.BaseURL())
	return nil
}

// register configures the add-on in the e-shop with its URLs and
// credentials and every endpoint approved, and learns what the add-on
// needs to know.
func (s *suite) register() error {
	body := map[string]any{"installUrl": s.o.InstallURL, "redirectUri": s.o.RedirectURI, "webhookUrl": s.o.WebhookURL,
		"endpoints": "all", "approved": true}
	if s.o.ClientID != "" {
		body["clientId"], body["clientSecret"] = s.o.ClientID, s.o.ClientSecret
	}
	cfg := controlclient.AddonConfig{InstallURL: s.o.InstallURL, RedirectURI: s.o.RedirectURI, WebhookURL: s.o.WebhookURL,
		Endpoints: []string{"all"}, Approved: true, ClientID: s.o.ClientID, ClientSecret: s.o.ClientSecret}
	v, err := s.cc.PutAddon(s.ctx, s.o.Eshop, s.o.Addon, cfg)
	if err == nil {
		s.addon = *v
	}
	if err != nil {
		return fmt.Errorf("register the add-on %s in e-shop %d: %w", s.o.Addon, s.o.Eshop, err)
	}
	return nil
}

// EnvHeaderPrefix names the sandbox's brand word in the add-on's
// environment (what `sandbox up` reads for --header-prefix).
const EnvHeaderPrefix = "SANDBOX_HEADER_PREFIX"

// env is what the add-on's command gets to know, as `sandbox addon add
// --output env` prints it and `sandbox test` passes it.
func (s *suite) env() []string {
	u, _ := url.Parse(s.o.InstallURL)
	_, port, _ := net.SplitHostPort(s.o.addonHost())
	v := s.addon
	return []string{
		scenario.VarSandboxURL + "=" + s.app.BaseURL(),
		scenario.VarAddonEshop + "=" + strconv.Itoa(v.EshopID),
		scenario.VarAddonEshopURL + "=" + v.EshopURL,
		scenario.VarAddonOAuthURL + "=" + v.TokenURL,
		scenario.VarAddonClientID + "=" + v.ClientID,
		scenario.VarAddonClientSecret + "=" + v.ClientSecret,
		scenario.VarAddonName + "=" + v.Name,
		EnvHeaderPrefix + "=" + s.app.Config.HeaderPrefix,
		scenario.VarAddonURL + "=" + u.Scheme + "://" + u.Host,
		scenario.VarAddonPort + "=" + port,
	}
}

func (s *suite) startAddon() error {
	cmd := exec.Command("/bin/sh", "-c", s.o.Command)
	cmd.Dir = s.o.Dir
	cmd.Env = append(os.Environ(), s.env()...) // later entries win
	p, err := addonproc.Start(cmd, 0)
	if err != nil {
		return fmt.Errorf("start the add-on (%s): %w", s.o.Command, err)
	}
	s.proc = p
	s.progress("started the add-on: %s", s.o.Command)
	return nil
}

// waitListening waits until the install URL's host accepts connections.
func (s *suite) waitListening() error {
	deadline := time.Now().Add(s.o.Timing.Start)
	host := s.o.addonHost()
	for {
		if s.proc != nil {
			if err := s.proc.Exited(); err != nil {
				return fmt.Errorf("the add-on exited before it listened at %s: %v", host, err)
			}
		}
		conn, err := net.DialTimeout("tcp", host, time.Second)
		if err == nil {
			_ = conn.Close()
			return nil
		}
		if time.Now().After(deadline) {
			hint := ""
			if s.proc == nil {
				hint = " (start it, or give its command)"
			}
			return fmt.Errorf("nothing listened at %s (the install URL's host) within %s%s", host, s.o.Timing.Start, hint)
		}
		select {
		case <-s.ctx.Done():
			return s.ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stopAddon ends the add-on certify started.
func (s *suite) stopAddon() {
	if s.proc != nil {
		s.proc.Stop(s.o.Timing.Stop)
	}
}

// stop ends the add-on and the sandbox.
func (s *suite) stop() {
	s.stopAddon()
	if s.app != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = s.app.Close(ctx)
	}
}

// control calls the run's sandbox as certify (control plane, or the API
// with header set) and decodes the envelope's data into out; an error
// answer is an error with its message.
func (s *suite) send(method, path string, body any, header map[string]string, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(s.ctx, method, s.app.BaseURL()+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", scenario.RunnerAgent) // the contract report does not judge certify's own calls
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if err := api.DecodeAnswer(resp.StatusCode, raw, out); err != nil {
		return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return resp.StatusCode, nil
}

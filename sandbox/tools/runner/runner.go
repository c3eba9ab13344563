// Package runner runs scenario files: for each one a fresh in-process
// sandbox (sandbox/app) with the scenario's fixtures, limits, clock, seed
// and faults, optionally the add-on under test started from its command,
// then the steps in order, each passing or failing with the expectation,
// what happened instead and the relevant traffic. `sandbox test` and the
// CI test of scenarios/ use it. It lives under cmd/sandbox because it
// drives whole sandboxes: sandbox/app wires the scenario package in.
package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Options tune a run.
type Options struct {
	// Vars are extra ${VAR} values for the add-on's url, command, dir and
	// env; the process environment is consulted after them.
	Vars map[string]string
	// Log receives the sandbox's own log (nil: discarded).
	Log io.Writer
	// DefaultWithin is how long expectations wait when the file gives no
	// time (default 10s).
	DefaultWithin time.Duration
	// Program is the sandbox program, ${SANDBOX_BIN} in the scenarios
	// (`${SANDBOX_BIN} example-addon` starts the example add-on); empty
	// means this process's executable.
	Program string
	// Version is the build's version, passed to each scenario's sandbox.
	Version string
	// ChaosRate is the share of the add-on's API calls that get a platform
	// fault (0: none); ChaosSeed seeds it (0: the scenario's seed).
	ChaosRate float64
	ChaosSeed uint64
	// PaymentStatusWithin is the contract report's time between a payment
	// result and its status call (0: sandbox.DefaultPaymentStatusWithin).
	PaymentStatusWithin time.Duration
	// HeaderPrefix is the brand word of every scenario's sandbox (header
	// names, media type); it wins over a file's sandbox.headerPrefix. ""
	// leaves it to the file, else Service.
	HeaderPrefix string
	// Steps, when set (sandbox test --run SCENARIO/STEP), selects steps by
	// name: the steps up to the last one it matches run (the earlier ones
	// are what it builds on); the ones after it neither run nor appear in
	// the result.
	Steps *regexp.Regexp
}

// DefaultStart is where a frozen clock starts when the scenario names no
// start time, so frozen runs are reproducible.
var DefaultStart = time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)

// Status of a step.
const (
	Passed  = "passed"
	Failed  = "failed"
	Skipped = "skipped" // not run: an earlier step failed
)

// Result is the outcome of one scenario.
type Result struct {
	Name     string        `json:"name"`
	File     string        `json:"file"`
	Passed   bool          `json:"passed"`
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"duration"`
	// Setup is why the scenario could not start ("" when it could).
	Setup    string             `json:"setup,omitempty"`
	Steps    []StepResult       `json:"steps"`
	Findings []scenario.Finding `json:"findings"`
	// Chaos tells how the add-on coped with the faults chaos injected.
	Chaos []scenario.ChaosCoping `json:"chaos,omitempty"`
	// AddonOutput is the end of the add-on process's output, shown when
	// something failed.
	AddonOutput string `json:"addonOutput,omitempty"`
}

// StepResult is the outcome of one step.
type StepResult struct {
	Index    int           `json:"index"` // 1-based
	Name     string        `json:"name"`
	Kind     string        `json:"kind"`
	Line     int           `json:"line,omitempty"`
	Status   string        `json:"status"`
	Duration time.Duration `json:"duration"`
	// Ended is when the step ended (zero for a step not run).
	Ended time.Time `json:"ended,omitzero"`
	// Expected and Got explain a failure: what the step expected and what
	// happened instead. Traffic lists the calls and deliveries that matter.
	Expected string   `json:"expected,omitempty"`
	Got      string   `json:"got,omitempty"`
	Traffic  []string `json:"traffic,omitempty"`
	// Note says what a passing step did.
	Note string `json:"note,omitempty"`
	// Notes point a failure at likely causes: the scenario's faults that
	// never acted (a match that nothing meets).
	Notes []string `json:"notes,omitempty"`
}

// RunFile loads a scenario file and runs it; a file that does not load,
// or needs a variable nobody sets, is a failed result whose Setup holds
// every problem.
func RunFile(ctx context.Context, path string, opts Options) *Result {
	sc, err := scenario.Load(path)
	if err != nil {
		return &Result{Name: filepath.Base(path), File: path, Started: time.Now(), Setup: err.Error(), Steps: []StepResult{}}
	}
	if ps := append(sc.CheckVars(opts.Vars), sc.CheckAddons()...); len(ps) > 0 {
		res := &Result{Name: sc.Name, File: path, Started: time.Now(), Setup: ps.Error(), Steps: []StepResult{}}
		(&run{sc: sc}).skipAll(res, 0, "not run: the scenario could not start")
		return res
	}
	return Run(ctx, sc, opts)
}

// run is the state of one scenario run.
type run struct {
	ctx     context.Context
	sc      *scenario.Scenario
	opts    Options
	app     *app.App
	log     *trafficLog
	client  *http.Client
	cc      *controlclient.Client // the sandbox's control plane
	vars    map[string]string
	proc    *process
	headers headerNames
	// port is the add-on port this run holds (released when it stops),
	// tmp its ${SCENARIO_TMP} folder (removed when it stops).
	port, tmp string
	// cursor marks the traffic logged before the last action step began;
	// expectations look at what came after it.
	cursorCalls, cursorDeliveries int

	tokensMu    sync.Mutex
	tokenAddons map[string]string // API token -> its add-on (addonOf)
}

// Run runs a parsed scenario on a fresh sandbox.
func Run(ctx context.Context, sc *scenario.Scenario, opts Options) *Result {
	began := time.Now()
	res := &Result{Name: sc.Name, File: sc.File, Started: began, Steps: []StepResult{}}
	if opts.DefaultWithin <= 0 {
		opts.DefaultWithin = 10 * time.Second
	}
	r := &run{ctx: ctx, sc: sc, opts: opts, log: newTrafficLog(), client: &http.Client{Timeout: 60 * time.Second}}
	defer func() { res.Duration = time.Since(began) }()
	if err := r.start(); err != nil {
		res.Setup = err.Error()
		r.stop(res)
		r.skipAll(res, 0, "not run: the scenario could not start")
		return res
	}
	failedAt, last := 0, len(sc.Steps)-1
	if opts.Steps != nil {
		last = lastSelected(sc, opts.Steps)
	}
	for i := range sc.Steps {
		st := &sc.Steps[i]
		if i > last { // not selected by --run: not reported, as go test -run leaves out a subtest
			break
		}
		if failedAt > 0 {
			res.Steps = append(res.Steps, r.skipped(i, st, fmt.Sprintf("not run: step %d failed", failedAt)))
			continue
		}
		sr := r.step(i, st)
		if sr.Status == Failed {
			failedAt = i + 1
			sr.Notes = r.idleFaults()
		}
		res.Steps = append(res.Steps, sr)
	}
	rep := r.report()
	res.Findings, res.Chaos = rep.Findings, rep.Chaos
	if sc.Strict {
		res.Steps = append(res.Steps, r.strictStep(len(sc.Steps), res.Findings))
	}
	r.stop(res)
	res.Passed = true
	for _, s := range res.Steps {
		if s.Status != Passed {
			res.Passed = false
		}
	}
	return res
}

func (r *run) skipAll(res *Result, from int, why string) {
	for i := from; i < len(r.sc.Steps); i++ {
		res.Steps = append(res.Steps, r.skipped(i, &r.sc.Steps[i], why))
	}
	if r.sc.Strict {
		res.Steps = append(res.Steps, StepResult{Index: len(r.sc.Steps) + 1, Name: "contract report (strict)", Kind: "strict", Status: Skipped, Got: why})
	}
}

func (r *run) skipped(i int, st *scenario.Step, why string) StepResult {
	return StepResult{Index: i + 1, Name: stepName(st), Kind: st.Kind(), Line: st.Pos.Line, Status: Skipped, Got: why}
}

func stepName(st *scenario.Step) string {
	if st.Name != "" {
		return st.Name
	}
	return st.Kind()
}

// start opens the sandbox, points the add-on's URLs at it and starts the
// add-on.
func (r *run) start() error {
	cfg, err := r.config()
	if err != nil {
		return err
	}
	logw := r.opts.Log
	if logw == nil {
		logw = io.Discard
	}
	a, err := app.Open(cfg, slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return fmt.Errorf("start the sandbox: %w", err)
	}
	r.app = a
	r.cc = controlclient.New(a.BaseURL(), r.client)
	r.cc.UserAgent = scenario.RunnerAgent // the contract report does not judge the runner's own calls
	h := sandbox.NewHeaders(cfg.HeaderPrefix)
	r.headers = headerNames{access: h.AccessToken, private: h.PrivateToken}
	a.Bus.Hook(r.log.hook)
	a.Start()
	if err := r.setVars(); err != nil {
		return err
	}
	ad := r.sc.Addon
	if ad == nil {
		return nil
	}
	if ad.Eshop != 0 {
		if err := r.configureAddon(); err != nil {
			return err
		}
	}
	if len(ad.Command) > 0 {
		p, err := r.startProcess()
		if err != nil {
			return err
		}
		r.proc = p
	}
	if ad.Ready != "" {
		return r.waitReady()
	}
	return nil
}

// config builds the sandbox configuration of the scenario.
func (r *run) config() (sandbox.Config, error) {
	sc := r.sc
	cfg := sandbox.Config{Addr: "127.0.0.1:0", Headless: true, Seed: sc.Seed, Scenario: sc.Source, ScenarioName: sc.File, Version: r.opts.Version,
		PaymentStatusWithin: r.opts.PaymentStatusWithin}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	cfg.ChaosRate, cfg.ChaosSeed = r.opts.ChaosRate, r.opts.ChaosSeed
	sb := sc.Sandbox
	if sb == nil { // a Scenario built in code rather than parsed
		sb = &scenario.SandboxSpec{}
	}
	cfg.HeaderPrefix = sb.HeaderPrefix
	if r.opts.HeaderPrefix != "" { // --header-prefix or SANDBOX_HEADER_PREFIX wins over the file
		cfg.HeaderPrefix = r.opts.HeaderPrefix
	}
	lim := sb.Limits.Apply(sandbox.DefaultLimits())
	cfg.Limits = &lim
	switch {
	case sc.Clock != nil && sc.Clock.Frozen:
		start := sc.Clock.StartTime()
		if start.IsZero() {
			start = DefaultStart
		}
		cfg.Clock = sandbox.NewFrozenClock(start)
	default:
		cfg.Clock = sandbox.NewClock()
		if t := sc.Clock.StartTime(); !t.IsZero() {
			cfg.Clock.Set(t)
		}
	}
	if sb.Fixtures != "" && sb.Fixtures != "embedded" {
		dir := r.rel(sb.Fixtures)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return cfg, fmt.Errorf("fixtures %s: not a folder", dir)
		}
		cfg.Fixtures, cfg.FixturesName = os.DirFS(dir), dir
	}
	return cfg, nil
}

// rel resolves a path of the scenario file against its folder.
func (r *run) rel(p string) string {
	if filepath.IsAbs(p) || r.sc.File == "" {
		return p
	}
	return filepath.Join(filepath.Dir(r.sc.File), p)
}

// setVars fixes the ${VAR} values (scenario.RunnerVars): the sandbox's
// URL and program, a free port for the add-on (one no other run of this
// process holds), its URL, the e-shop's, the scenario's folder and a
// fresh empty folder of the run's own (${SCENARIO_TMP}), so runs side by
// side never share a file.
func (r *run) setVars() error {
	program := r.opts.Program
	if program == "" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("the sandbox program for ${%s}: %w", scenario.VarSandboxBin, err)
		}
		program = exe
	}
	r.vars = map[string]string{scenario.VarSandboxURL: r.app.BaseURL(), scenario.VarSandboxBin: program,
		scenario.VarHeaderPrefix: r.app.Config.HeaderPrefix}
	for k, v := range r.opts.Vars {
		r.vars[k] = v
	}
	if dir, err := filepath.Abs(filepath.Dir(r.sc.File)); err == nil && r.sc.File != "" {
		r.vars[scenario.VarScenarioDir] = dir
	}
	if _, ok := r.vars[scenario.VarAddonPort]; !ok {
		p, err := freePort()
		if err != nil {
			return err
		}
		r.port = strconv.Itoa(p)
		r.vars[scenario.VarAddonPort] = r.port
	}
	if _, ok := r.vars[scenario.VarScenarioTmp]; !ok {
		dir, err := os.MkdirTemp("", "sandbox-scenario-")
		if err != nil {
			return fmt.Errorf("the scenario's folder ${%s}: %w", scenario.VarScenarioTmp, err)
		}
		r.tmp = dir
		r.vars[scenario.VarScenarioTmp] = dir
	}
	if ad := r.sc.Addon; ad != nil {
		if ad.Eshop != 0 {
			r.vars[scenario.VarEshopURL] = r.app.Site.EshopURL(ad.Eshop)
		}
		if ad.URL != "" {
			u, err := r.expand(ad.URL)
			if err != nil {
				return fmt.Errorf("addon.url: %w", err)
			}
			r.vars[scenario.VarAddonURL] = strings.TrimRight(u, "/")
		}
	}
	return nil
}

// expand replaces ${VAR} (braces required, so a lone $ stays as written)
// from the run's variables, then the environment; an unknown variable is
// an error (an empty command argument would only fail later and
// obscurely).
func (r *run) expand(s string) (string, error) {
	var missing []string
	out := scenario.VarPattern.ReplaceAllStringFunc(s, func(m string) string {
		k := m[2 : len(m)-1]
		if v, ok := r.vars[k]; ok {
			return v
		}
		if v, ok := os.LookupEnv(k); ok {
			return v
		}
		missing = append(missing, k)
		return ""
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("variable %s is not set (in %q)", strings.Join(missing, ", "), s)
	}
	return out, nil
}

// expandValue expands ${VAR} in every string of a YAML value (a call
// step's body).
func (r *run) expandValue(v any) (any, error) {
	switch t := v.(type) {
	case string:
		return r.expand(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			y, err := r.expandValue(x)
			if err != nil {
				return nil, err
			}
			out[k] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			y, err := r.expandValue(x)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return v, nil
}

// configureAddon registers the add-on under test in its e-shop as the
// addon section says (install, redirect and webhook URLs, endpoints,
// credentials), and learns what the add-on needs to know: its
// credentials and the e-shop's and OAuth server's addresses, which become
// the SANDBOX_* variables of its command. An add-on the fixtures do not
// have gets every endpoint unless the section names some; the endpoints
// the section names are approved.
func (r *run) configureAddon() error {
	ad := r.sc.Addon
	view, err := r.cc.Addon(r.ctx, ad.Eshop, ad.Name)
	var ae *api.AnswerError
	exists := err == nil
	if err != nil && !(errors.As(err, &ae) && ae.Status == http.StatusNotFound) {
		return err
	}
	var cfg controlclient.AddonConfig
	changed := false
	install, webhook := ad.InstallURL, ad.WebhookURL
	if base := r.vars[scenario.VarAddonURL]; base != "" {
		if install == "" {
			install = base + orDefault(ad.InstallPath, "/install")
		}
		if webhook == "" {
			webhook = base + orDefault(ad.WebhookPath, "/webhooks")
		}
	}
	for _, f := range []struct {
		to           *string
		value, field string
	}{{&cfg.InstallURL, install, "installUrl"}, {&cfg.RedirectURI, install, "installUrl"}, {&cfg.WebhookURL, webhook, "webhookUrl"},
		{&cfg.ClientID, ad.ClientID, "clientId"}, {&cfg.ClientSecret, ad.ClientSecret, "clientSecret"}} {
		if f.value == "" {
			continue
		}
		v, err := r.expand(f.value)
		if err != nil {
			return fmt.Errorf("addon.%s: %w", f.field, err)
		}
		*f.to, changed = v, true
	}
	switch {
	case ad.Endpoints != nil && ad.Endpoints.All:
		cfg.Endpoints, cfg.Approved, changed = []string{"all"}, true, true
	case ad.Endpoints != nil:
		cfg.Endpoints, cfg.Approved, changed = append([]string{}, ad.Endpoints.Names...), true, true
	case !exists:
		cfg.Endpoints, cfg.Approved, changed = []string{"all"}, true, true
	}
	if changed {
		view, err = r.cc.PutAddon(r.ctx, ad.Eshop, ad.Name, cfg)
		if err != nil {
			return fmt.Errorf("register add-on %s in e-shop %d: %s", ad.Name, ad.Eshop, answerText(err))
		}
	} else if !exists {
		return fmt.Errorf("e-shop %d has no add-on %s: %s", ad.Eshop, ad.Name, answerText(err))
	}
	v := view
	for k, val := range map[string]string{
		scenario.VarAddonEshop: strconv.Itoa(v.EshopID), scenario.VarAddonEshopURL: v.EshopURL, scenario.VarAddonOAuthURL: v.TokenURL,
		scenario.VarAddonClientID: v.ClientID, scenario.VarAddonClientSecret: v.ClientSecret, scenario.VarAddonName: v.Name,
	} {
		r.vars[k] = val
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// waitReady polls the add-on's ready path until it answers 2xx.
func (r *run) waitReady() error {
	ad := r.sc.Addon
	timeout := ad.StartTimeout.D()
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	url := r.vars["ADDON_URL"] + ad.Ready
	deadline := time.Now().Add(timeout)
	for {
		if r.proc != nil {
			if err := r.proc.exited(); err != nil {
				return fmt.Errorf("the add-on exited before it was ready: %v", err)
			}
		}
		resp, err := r.client.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode/100 == 2 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the add-on was not ready at %s after %v", url, timeout)
		}
		select {
		case <-r.ctx.Done():
			return r.ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// stop ends the add-on and the sandbox.
func (r *run) stop(res *Result) {
	if r.proc != nil {
		r.proc.stop()
		failed := res.Setup != ""
		for _, s := range res.Steps {
			failed = failed || s.Status == Failed
		}
		if failed {
			res.AddonOutput = r.proc.output()
		}
	}
	if r.app != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = r.app.Close(ctx)
	}
	if r.tmp != "" {
		_ = os.RemoveAll(r.tmp)
	}
	if r.port != "" {
		releasePort(r.port)
	}
}

// answerText tells what a control-plane call answered when it failed:
// "HTTP 404 errorCode: message" for an error envelope, the error itself
// for a call that got no answer.
func answerText(err error) string {
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		if ae.Code == "" {
			return fmt.Sprintf("HTTP %d %s", ae.Status, ae.Message)
		}
		return fmt.Sprintf("HTTP %d %s: %s", ae.Status, ae.Code, ae.Message)
	}
	return err.Error()
}

func (r *run) send(method, path string, body any, header map[string]string) (int, []byte, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := jsonMarshal(b)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(r.ctx, method, r.app.BaseURL()+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", scenario.RunnerAgent)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, raw, err
}

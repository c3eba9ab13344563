package scenario

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

var testHeaders = sandbox.NewHeaders("Service")

// rig is a small sandbox around the engine: the limiter outside it, a
// handler inside that authenticates like the API does, and an outer
// observer that keeps each call's fault mark.
type rig struct {
	t      *testing.T
	clock  *sandbox.Clock
	store  *store.Store
	bus    *bus.Bus
	lim    *limits.Limiter
	engine *Engine
	srv    *httptest.Server

	mu     sync.Mutex
	marks  []string // CallInfo.Fault per call, in order
	faults []bus.Fault
	armed  []string
}

const (
	tokAddon   = "sbx_api_test_addon"
	tokPrivate = "sbx_prv_test_private"
)

func newRig(t *testing.T, scenarioYAML string) *rig {
	t.Helper()
	r := &rig{t: t, clock: sandbox.NewFrozenClock(time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)), bus: bus.New()}
	st, err := store.Open(store.Options{Clock: r.clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	r.store = st
	far := r.clock.Now().Add(24 * time.Hour)
	err = st.Update(func(tx *store.Tx) error {
		for _, tk := range []auth.Token{
			{Token: tokAddon, EshopID: 1001, Kind: auth.KindAddon, Addon: "example-addon", ExpiresAt: &far},
			{Token: tokPrivate, EshopID: 1002, Kind: auth.KindPrivate, AllGroups: true},
		} {
			if err := auth.PutToken(tx, &tk); err != nil {
				return err
			}
		}
		return auth.PutAddon(tx, 1001, &auth.Addon{Name: "example-addon"})
	})
	if err != nil {
		t.Fatal(err)
	}
	var sc *Scenario
	if scenarioYAML != "" {
		if sc, err = Parse("test.yaml", []byte(scenarioYAML)); err != nil {
			t.Fatal(err)
		}
	}
	lcfg := sandbox.DefaultLimits()
	lcfg.BucketCapacity = 1000
	lcfg.BucketLeak = time.Second
	r.lim = limits.New(lcfg, r.clock, testHeaders)
	r.bus.Hook(func(m bus.Message) {
		if f, ok := m.Data.(bus.Fault); ok && m.Topic == bus.TopicFault {
			r.mu.Lock()
			r.faults = append(r.faults, f)
			r.mu.Unlock()
		}
	})
	r.engine = NewEngine(Deps{Clock: r.clock, Headers: testHeaders, Bus: r.bus, Store: st,
		Limits: r.lim,
		ArmJob: func(eshop int, mode string) {
			r.mu.Lock()
			r.armed = append(r.armed, mode+"@"+strconv.Itoa(eshop))
			r.mu.Unlock()
		}}, sc)
	observe := api.Decorator{Stage: api.StageObserve, Name: "marks", Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			defer func() {
				r.mu.Lock()
				r.marks = append(r.marks, api.CallOf(req).Fault)
				r.mu.Unlock()
			}()
			next.ServeHTTP(w, req)
		})
	}}
	srv := api.NewServer(api.Options{Headers: testHeaders, Auth: &auth.Authenticator{Store: st, Headers: testHeaders}, Clock: r.clock,
		Decorators: append([]api.Decorator{observe, r.engine.Decorator()}, r.lim.Decorators()...)})
	ok := func(*api.Request) (any, error) { return map[string]any{"ok": true}, nil }
	err = srv.HandleRoutes([]api.Route{
		{AnyToken: true, Operation: "GetListOfOrders", Method: "GET", Path: "/api/orders", Group: "Orders", Handler: ok},
		{AnyToken: true, Operation: "GetListOfProducts", Method: "GET", Path: "/api/products", Group: "Products", Handler: ok},
		{AnyToken: true, Operation: "UpdateOrderStatus", Method: "PATCH", Path: "/api/orders/{code}/status", Group: "Orders", Handler: ok},
		{AnyToken: true, Operation: "GetListOfAllProducts", Method: "POST", Path: "/api/products/snapshot", Group: "Products", Handler: ok},
		{Operation: "sandbox.health", Method: "GET", Path: "/_sandbox/health", Public: true, NoContentType: true, Handler: ok},
		{Operation: "oauth.getAccessToken", Method: "GET", Path: "/eshops/{eshopId:[0-9]+}/action/ApiOAuthServer/getAccessToken", Public: true, NoContentType: true, Handler: ok},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.srv = httptest.NewServer(srv)
	t.Cleanup(r.srv.Close)
	return r
}

func jsonNum(n int) string { return strconv.Itoa(n) }

type answer struct {
	status int
	header http.Header
	code   string
	inst   string
	msg    string
	err    error
}

func (r *rig) do(method, path, token string, extra ...string) answer {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.srv.URL+path, strings.NewReader(`{"data":{}}`))
	req.Header.Set("Content-Type", "application/json")
	switch {
	case strings.HasPrefix(token, "sbx_api_"):
		req.Header.Set(testHeaders.AccessToken, token)
	case token != "":
		req.Header.Set(testHeaders.PrivateToken, token)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Errors []api.ErrorItem `json:"errors"`
	}
	_ = json.Unmarshal(raw, &env)
	a := answer{status: resp.StatusCode, header: resp.Header}
	if len(env.Errors) > 0 {
		a.code, a.inst, a.msg = env.Errors[0].ErrorCode, env.Errors[0].Instance, env.Errors[0].Message
	}
	return a
}

func (r *rig) lastMark() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.marks) == 0 {
		return ""
	}
	return r.marks[len(r.marks)-1]
}

func TestRespondDefaults(t *testing.T) {
	cases := []struct {
		status     int
		code, inst string
		retryAfter time.Duration
	}{
		{400, "validation-error", "unknown", 0},
		{401, "expired-token", "access-token", 0},
		{403, "invalid-token-no-rights", "access-token", 0},
		{404, "not-found", "unknown", 0},
		{409, "conflict", "unknown", 0},
		{413, "too-many-entities", "unknown", 0},
		{422, "schema-mismatch", "unknown", 0},
		{423, "locked", "unknown", 0},
		{429, "too-many-connections", "access-token", 0}, // no Retry-After: the bucket is not full
		{500, "internal-error", "unknown", 0},
		{503, "maintenance", "unknown", 0},
	}
	var yaml strings.Builder
	yaml.WriteString("name: statuses\nfaults:\n")
	for _, c := range cases {
		yaml.WriteString("  - {name: s" + jsonNum(c.status) + ", trigger: header, respond: {status: " + jsonNum(c.status) + "}}\n")
	}
	r := newRig(t, yaml.String())
	for _, c := range cases {
		a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "s"+jsonNum(c.status))
		if a.status != c.status || a.code != c.code || a.inst != c.inst || a.msg == "" {
			t.Errorf("%d: got %d %s/%s %q", c.status, a.status, a.code, a.inst, a.msg)
		}
		ra := a.header.Get("Retry-After")
		if c.retryAfter == 0 && ra != "" {
			t.Errorf("%d: unexpected Retry-After %s", c.status, ra)
		}
		if c.retryAfter > 0 && ra != r.clock.Now().Add(c.retryAfter).UTC().Format(http.TimeFormat) {
			t.Errorf("%d: Retry-After %q", c.status, ra)
		}
		if a.header.Get("X-RateLimit-Bucket-Filling") == "" {
			t.Errorf("%d: the limiter's bucket header is missing on a fault answer", c.status)
		}
		if got := a.header.Get("Date"); got != r.clock.Now().UTC().Format(http.TimeFormat) {
			t.Errorf("%d: Date %q does not follow the sandbox clock", c.status, got)
		}
		if got := r.lastMark(); got != "s"+jsonNum(c.status) {
			t.Errorf("%d: call marked %q", c.status, got)
		}
	}
	// The fault's own errorCode, message and instance win; retryAfter
	// holds the bucket full, so the bucket header reads full.
	r2 := newRig(t, "name: custom\nfaults:\n  - name: c\n    respond: {status: 429, errorCode: slow-down, message: Easy., instance: orders, retryAfter: 5s}\n")
	a := r2.do("GET", "/api/orders", tokAddon)
	if a.status != 429 || a.code != "slow-down" || a.msg != "Easy." || a.inst != "orders" ||
		a.header.Get("Retry-After") != r2.clock.Now().Add(5*time.Second).UTC().Format(http.TimeFormat) ||
		a.header.Get("X-RateLimit-Bucket-Filling") != "1000/1000" {
		t.Fatalf("custom respond: %+v", a)
	}
	// Without its own errorCode it is the full bucket's.
	r3 := newRig(t, "name: held\nfaults:\n  - name: c\n    respond: {status: 429, retryAfter: 5s}\n")
	if a := r3.do("GET", "/api/orders", tokAddon); a.code != "rate-limit-exceeded" || a.inst != "access-token" {
		t.Fatalf("respond 429 with retryAfter: %+v", a)
	}
}

func TestHeaderTrigger(t *testing.T) {
	r := newRig(t, `name: header
faults:
  - {name: only-by-name, trigger: header, respond: {status: 500}}
  - {name: sig, webhook: {fault: bad-signature}}
  - {name: locked, trigger: header, respond: {status: 503}}
`)
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("without the header: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "only-by-name"); a.status != 500 {
		t.Fatalf("named: %d", a.status)
	}
	// A scenario fault shadows the built-in one of the same name.
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "locked"); a.status != 503 {
		t.Fatalf("scenario's locked: %d", a.status)
	}
	// Built-ins work without a scenario fault of that name.
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "expired-token"); a.status != 401 || a.code != "expired-token" {
		t.Fatalf("built-in: %+v", a)
	}
	a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "nope")
	if a.status != 400 || a.inst != testHeaders.SandboxFault || !strings.Contains(a.msg, `Unknown sandbox fault "nope"`) || !strings.Contains(a.msg, "only-by-name") || !strings.Contains(a.msg, "rate-limited") || strings.Contains(a.msg, "sig,") {
		t.Fatalf("unknown name: %+v", a)
	}
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "sig"); a.status != 400 || !strings.Contains(a.msg, "webhook deliveries") {
		t.Fatalf("webhook fault by header: %+v", a)
	}
	hits := r.engine.Hits()
	if hits["only-by-name"] != 1 || hits["locked"] != 1 || hits["expired-token"] != 1 {
		t.Fatalf("hits %v", hits)
	}
}

func TestNoScenarioStillHasBuiltins(t *testing.T) {
	r := newRig(t, "")
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("plain call: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "internal-error"); a.status != 500 || a.code != "internal-error" {
		t.Fatalf("built-in: %+v", a)
	}
	if got := len(r.engine.Faults()); got != len(Builtins()) {
		t.Fatalf("faults listed: %d", got)
	}
}

func TestControlPlaneIsNeverFaulted(t *testing.T) {
	r := newRig(t, "name: all\nfaults:\n  - {name: everything, respond: {status: 500}}\n")
	if a := r.do("GET", "/_sandbox/health", ""); a.status != 200 {
		t.Fatalf("control plane faulted: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 500 {
		t.Fatalf("api not faulted: %d", a.status)
	}
}

func TestCloseConnection(t *testing.T) {
	r := newRig(t, "name: c\nfaults:\n  - {name: drop, match: {nth: 1}, close: true}\n")
	if a := r.do("GET", "/api/orders", tokAddon); a.err == nil {
		t.Fatalf("got an answer %d; the connection should have been closed", a.status)
	}
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("second call: %v %d", a.err, a.status)
	}
}

func TestExpireTokenAfterCalls(t *testing.T) {
	r := newRig(t, "name: e\nfaults:\n  - {name: dies, match: {tokenKind: addon}, expireToken: {after: 2}}\n")
	var got []int
	for i := 0; i < 4; i++ {
		a := r.do("GET", "/api/orders", tokAddon)
		got = append(got, a.status)
		if i >= 2 && a.code != "expired-token" {
			t.Fatalf("call %d: %+v", i+1, a)
		}
	}
	if want := []int{200, 200, 401, 401}; !equalInts(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 200 {
		t.Fatalf("a private token is not matched: %d", a.status)
	}
	tk := &auth.Token{}
	_ = r.store.View(func(tx *store.Tx) error {
		got, err := auth.GetToken(tx, tokAddon)
		if err == nil {
			tk = got
		}
		return err
	})
	if tk.ExpiresAt == nil || !tk.ExpiresAt.Equal(r.clock.Now()) || tk.Addon != "example-addon" {
		t.Fatalf("stored token: %+v", tk)
	}
	if n := r.faultCount("dies"); n != 1 {
		t.Fatalf("fault announced %d times, want once", n)
	}
}

func (r *rig) faultCount(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, f := range r.faults {
		if f.Name == name {
			n++
		}
	}
	return n
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestHoldLock(t *testing.T) {
	r := newRig(t, "name: l\nfaults:\n  - {name: held, match: {method: PATCH, nth: 1}, holdLock: {for: 10s}}\n")
	path := "/api/orders/2025000001/status"
	if a := r.do("PATCH", path, tokAddon); a.status != 423 || a.code != limits.CodeLocked {
		t.Fatalf("faulted call: %+v", a)
	}
	if a := r.do("PATCH", path, tokAddon); a.status != 423 {
		t.Fatalf("identical call while held: %d", a.status)
	}
	if a := r.do("PATCH", "/api/orders/2025000002/status", tokAddon); a.status != 200 {
		t.Fatalf("another URL: %d", a.status)
	}
	r.clock.Advance(11 * time.Second)
	if a := r.do("PATCH", path, tokAddon); a.status != 200 {
		t.Fatalf("after the hold: %d", a.status)
	}
}

func TestFillBucket(t *testing.T) {
	r := newRig(t, "name: b\nfaults:\n  - {name: burst, match: {nth: 1}, fillBucket: true}\n")
	a := r.do("GET", "/api/orders", tokAddon)
	if a.status != 429 || a.code != limits.CodeRateLimited || a.header.Get("X-RateLimit-Bucket-Filling") != "1000/1000" || a.header.Get("Retry-After") == "" {
		t.Fatalf("faulted call: %+v %v", a, a.header)
	}
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 429 {
		t.Fatalf("the bucket should still be full: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 200 {
		t.Fatalf("another token's bucket: %d", a.status)
	}
	r.clock.Advance(2 * time.Second)
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("after leaking: %d", a.status)
	}
}

func TestMaintenanceWindow(t *testing.T) {
	r := newRig(t, "name: m\nfaults:\n  - {name: window, match: {nth: 1}, maintenance: {for: 10m, message: Upgrading.}}\n")
	a := r.do("GET", "/api/orders", tokAddon)
	if a.status != 503 || a.msg != "Upgrading." || a.header.Get("Retry-After") != "" || a.header.Get("X-RateLimit-Bucket-Filling") == "" {
		t.Fatalf("faulted call: %+v", a)
	}
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 503 || a.header.Get("Retry-After") != "" || a.header.Get("X-RateLimit-Bucket-Filling") == "" {
		t.Fatalf("during the window: %+v", a)
	}
	r.clock.Advance(10 * time.Minute)
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 200 {
		t.Fatalf("after the window: %d", a.status)
	}
}

func TestJobFaultArmsTheEshopsNextJob(t *testing.T) {
	r := newRig(t, "name: j\nfaults:\n  - {name: fail, match: {method: POST, nth: 1}, job: {outcome: fail}}\n  - {name: stall, match: {method: POST, nth: 2}, job: {outcome: stall}}\n")
	if a := r.do("POST", "/api/products/snapshot", tokAddon); a.status != 200 {
		t.Fatalf("the call itself is served: %d", a.status)
	}
	if a := r.do("POST", "/api/products/snapshot", tokPrivate); a.status != 200 {
		t.Fatalf("second: %d", a.status)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if got := strings.Join(r.armed, ","); got != "fail@1001,stall@1002" {
		t.Fatalf("armed %q", got)
	}
}

func TestLatency(t *testing.T) {
	r := newRig(t, "name: s\nfaults:\n  - {name: slow, match: {path: /api/orders}, latency: 150ms}\n")
	began := time.Now()
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("status %d", a.status)
	}
	if took := time.Since(began); took < 150*time.Millisecond {
		t.Fatalf("answered after %v", took)
	}
	if r.lastMark() != "slow" || r.faultCount("slow") != 1 {
		t.Fatalf("latency not marked")
	}
	// An unmatched call is not delayed: the fault neither counts nor marks it
	// (no timing bound, which a loaded machine would break).
	if a := r.do("GET", "/api/products", tokAddon); a.status != 200 || r.faultCount("slow") != 1 || r.lastMark() == "slow" {
		t.Fatalf("an unmatched call was delayed: %d, %d hits, mark %q", a.status, r.faultCount("slow"), r.lastMark())
	}
}

func TestMatchOnEshopReadsTheToken(t *testing.T) {
	r := newRig(t, "name: e\nfaults:\n  - {name: other-shop, match: {eshop: 1002}, respond: {status: 500}}\n")
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("e-shop 1001: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 500 {
		t.Fatalf("e-shop 1002: %d", a.status)
	}
	if a := r.do("GET", "/eshops/1002/action/ApiOAuthServer/getAccessToken", ""); a.status != 500 {
		t.Fatalf("e-shop page of 1002: %d", a.status)
	}
}

func TestFaultTelemetry(t *testing.T) {
	r := newRig(t, "name: t\nfaults:\n  - {name: boom, match: {nth: 1}, respond: {status: 500}}\n")
	r.do("GET", "/api/orders", tokAddon)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.faults) != 1 || r.faults[0].Name != "boom" || r.faults[0].Kind != KindRespond || !r.faults[0].Time.Equal(r.clock.Now()) {
		t.Fatalf("telemetry %+v", r.faults)
	}
}

func TestWebhookFault(t *testing.T) {
	r := newRig(t, `name: w
faults:
  - {name: sig, match: {event: "order:create", nth: 1}, webhook: {fault: bad-signature}}
  - {name: dup, match: {event: "order:create", nth: 2}, webhook: {fault: duplicate}}
  - {name: ooo, match: {event: "order:update"}, webhook: {fault: out-of-order}}
  - {name: late, match: {eshop: 1002}, webhook: {fault: delay, delay: 3s}}
`)
	cases := []struct {
		eshop int
		event string
		want  *WebhookAction
	}{
		{1001, "order:create", &WebhookAction{Name: "sig", BadSignature: true}},
		{1001, "order:create", &WebhookAction{Name: "dup", Duplicate: true}},
		{1001, "order:create", nil},
		{1001, "order:update", &WebhookAction{Name: "ooo", OutOfOrder: true}},
		{1002, "customer:create", &WebhookAction{Name: "late", Delay: 3 * time.Second}},
		{1001, "customer:create", nil},
	}
	for i, c := range cases {
		got := r.engine.WebhookFault(c.eshop, c.event, "delivery 1")
		if (got == nil) != (c.want == nil) || (got != nil && *got != *c.want) {
			t.Errorf("delivery %d (%s): got %+v, want %+v", i+1, c.event, got, c.want)
		}
	}
	if n := r.faultCount("sig"); n != 1 {
		t.Errorf("sig announced %d times", n)
	}
	// Calls never trigger webhook faults.
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 200 {
		t.Fatalf("call: %d", a.status)
	}
}

// TestRetryAfterIsNeverEarly: a fault's Retry-After date is rounded up to
// the whole second, so it never names a moment before the wait the fault
// means, and a client that waits exactly until the date is served; a
// maintenance window's 503 carries no Retry-After (the service sends it
// only with a full bucket) and is over when the window ends.
func TestRetryAfterIsNeverEarly(t *testing.T) {
	r := newRig(t, `name: early
faults:
  - {name: slow-down, match: {path: /api/orders, nth: 1}, respond: {status: 429, retryAfter: 1s}}
  - {name: window, match: {path: /api/products, nth: 1}, maintenance: {for: 1500ms}}
`)
	r.clock.Set(time.Date(2025, 6, 1, 9, 0, 0, 300e6, time.UTC))
	until := func(a answer) time.Time {
		t.Helper()
		d, err := http.ParseTime(a.header.Get("Retry-After"))
		if err != nil {
			t.Fatalf("Retry-After %q: %v", a.header.Get("Retry-After"), err)
		}
		return d
	}
	a := r.do("GET", "/api/orders", tokAddon)
	if a.status != 429 {
		t.Fatalf("respond fault: %d", a.status)
	}
	if got, least := until(a), r.clock.Now().Add(time.Second); got.Before(least) || got.Sub(least) >= time.Second {
		t.Fatalf("retryAfter 1s at %v: Retry-After %v, want the first whole second from %v", r.clock.Now(), got, least)
	}
	r.clock.Set(until(a)) // the client waits exactly until the date
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("a call at the Retry-After date was refused: %d %s", a.status, a.code)
	}
	a = r.do("GET", "/api/products", tokAddon)
	if a.status != 503 || a.header.Get("Retry-After") != "" {
		t.Fatalf("maintenance fault: %d %v", a.status, a.header)
	}
	r.clock.Advance(1500 * time.Millisecond)
	if a := r.do("GET", "/api/products", tokAddon); a.status != 200 {
		t.Fatalf("a call after the window was refused: %d %s", a.status, a.code)
	}
}

// TestRuntimeFaults: a fault added while serving acts on the calls it
// matches (here by add-on), is marked on them and announced like a
// scenario's fault, counts matched and acted calls, and is gone once
// removed or after a reset; the scenario's own fault stays.
func TestRuntimeFaults(t *testing.T) {
	r := newRig(t, "name: base\nfaults:\n  - {name: file-fault, trigger: header, respond: {status: 409}}\n")
	f, err := ParseFault([]byte(`{"match": {"addon": "example-addon", "path": "/api/orders", "nth": 2}, "respond": {"status": 503}}`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.engine.AddFault(f)
	if err != nil || v.ID != "f1" || v.Name != "f1" || v.Source != SourceRuntime || v.Kind != KindRespond {
		t.Fatalf("AddFault: %+v %v", v, err)
	}
	if a := r.do("GET", "/api/orders", tokPrivate); a.status != 200 {
		t.Fatalf("a private call is not the add-on's: %d", a.status)
	}
	if a := r.do("GET", "/api/orders", tokAddon); a.status != 200 {
		t.Fatalf("the add-on's first call: %d", a.status)
	}
	a := r.do("GET", "/api/orders", tokAddon)
	if a.status != 503 || r.lastMark() != "f1" || r.faultCount("f1") != 1 {
		t.Fatalf("the add-on's second call: %d %v, mark %q", a.status, a.header, r.lastMark())
	}
	if v, err := r.engine.AddFault(f); err != nil || v.ID != "f2" {
		t.Fatalf("the same unnamed fault again is f2: %+v %v", v, err)
	}
	dup, _ := ParseFault([]byte(`{"name": "file-fault", "close": true}`))
	if _, err := r.engine.AddFault(dup); err == nil || !strings.Contains(err.Error(), "is taken") {
		t.Fatalf("a scenario fault's name: %v", err)
	}
	builtin, _ := ParseFault([]byte(`{"name": "expired-token", "close": true}`))
	if _, err := r.engine.AddFault(builtin); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Fatalf("a built-in fault's name: %v", err)
	}
	views := map[string]FaultView{}
	for _, v := range r.engine.Faults() {
		views[v.Name] = v
	}
	if v := views["f1"]; v.Matched != 2 || v.Hits != 1 || v.Fault == nil {
		t.Fatalf("f1 listed %+v", v)
	}
	if views["file-fault"].Source != SourceScenario || views["expired-token"].Source != SourceBuiltin {
		t.Fatalf("sources: %+v", views)
	}
	if err := r.engine.RemoveFault("file-fault"); err == nil || !strings.Contains(err.Error(), "stays for the run") {
		t.Fatalf("removing the scenario's fault: %v", err)
	}
	if err := r.engine.RemoveFault("f1"); err != nil {
		t.Fatal(err)
	}
	if err := r.engine.RemoveFault("f1"); err == nil {
		t.Fatal("removed twice")
	}
	if _, err := r.engine.AddFault(f); err != nil {
		t.Fatal(err)
	}
	r.engine.Reset()
	if n := len(r.engine.Faults()); n != 1+len(Builtins()) {
		t.Fatalf("after a reset %d faults are listed, want the scenario's and the built-ins", n)
	}
	if a := r.do("GET", "/api/orders", tokAddon, testHeaders.SandboxFault, "file-fault"); a.status != 409 {
		t.Fatalf("the scenario's fault after the reset: %d", a.status)
	}
}

package limits

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

var headers = sandbox.NewHeaders("Service")

// gate is a handler that blocks until released, to hold calls in flight.
type gate struct {
	entered chan struct{}
	release chan struct{}
}

func newGate() *gate { return &gate{entered: make(chan struct{}, 100), release: make(chan struct{})} }

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.entered <- struct{}{}
	<-g.release
	w.WriteHeader(200)
	_, _ = io.WriteString(w, `{"data":{},"errors":null,"metadata":{"requestId":"x"}}`)
}

// shops authenticates the tokens it lists as callers of their e-shops;
// any other token is invalid (its writes lock per token).
type shops map[string]int

func (s shops) Identify(tok string, private bool) auth.Identity {
	id, ok := s[tok]
	if !ok {
		return auth.Identity{Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token", "unknown")}
	}
	t := &auth.Token{Token: tok, EshopID: id, Kind: auth.KindPrivate, AllGroups: true}
	return auth.Identity{Token: t, Principal: &auth.Principal{Token: t}}
}

// serve runs the limiter in a real server pipeline, with h answering
// every call in place of the endpoints; the routes only name operations.
func serve(t *testing.T, l *Limiter, h http.Handler) *httptest.Server {
	return serveShops(t, l, h, nil)
}

func serveShops(t *testing.T, l *Limiter, h http.Handler, tokens shops) *httptest.Server {
	t.Helper()
	answer := api.Decorator{Stage: api.StageProcess, Name: "answer", Wrap: func(http.Handler) http.Handler { return h }}
	srv := api.NewServer(api.Options{Headers: headers, Auth: tokens, Decorators: append(l.Decorators(), answer)})
	none := func(*api.Request) (any, error) { return nil, nil }
	if err := srv.HandleRoutes([]api.Route{
		{Operation: "GetListOfOrders", Method: "GET", Path: "/api/orders", Handler: none},
		{Operation: "GetListOfProducts", Method: "GET", Path: "/api/products", Handler: none},
	}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

type result struct {
	status int
	code   string
	header http.Header
}

func do(t *testing.T, ts *httptest.Server, method, path, token string) result {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(`{"data":{}}`))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(headers.PrivateToken, token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return result{}
	}
	defer resp.Body.Close()
	var env struct {
		Errors []struct {
			ErrorCode string `json:"errorCode"`
		} `json:"errors"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&env)
	r := result{status: resp.StatusCode, header: resp.Header}
	if len(env.Errors) > 0 {
		r.code = env.Errors[0].ErrorCode
	}
	return r
}

// TestFourthConcurrentCallOfATokenGets429 holds three calls of one token in
// flight with real concurrent clients; the fourth is refused, another
// token is not affected, and once one finishes the token may call again.
func TestFourthConcurrentCallOfATokenGets429(t *testing.T) {
	l := New(sandbox.DefaultLimits(), sandbox.NewClock(), headers)
	g := newGate()
	ts := serve(t, l, g)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); do(t, ts, "GET", "/api/orders", "tok-a") }()
	}
	for i := 0; i < 3; i++ {
		<-g.entered
	}
	if r := do(t, ts, "GET", "/api/orders", "tok-a"); r.status != 429 || r.code != CodeTooManyConnections {
		t.Fatalf("4th call: %d %s", r.status, r.code)
	}
	done := make(chan result)
	go func() { done <- do(t, ts, "GET", "/api/orders", "tok-b") }()
	<-g.entered
	close(g.release)
	if r := <-done; r.status != 200 {
		t.Fatalf("other token: %d", r.status)
	}
	wg.Wait()
	if r := do(t, ts, "GET", "/api/orders", "tok-a"); r.status != 200 {
		t.Fatalf("after the calls finished: %d %s", r.status, r.code)
	}
}

// TestPerIPLimit checks the 50-connection limit per client address.
func TestPerIPLimit(t *testing.T) {
	cfg := sandbox.DefaultLimits()
	l := New(cfg, sandbox.NewClock(), headers)
	g := newGate()
	ts := serve(t, l, g)
	var wg sync.WaitGroup
	for i := 0; i < cfg.PerIP; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); do(t, ts, "GET", "/api/orders", fmt.Sprintf("tok-%d", i)) }(i)
	}
	for i := 0; i < cfg.PerIP; i++ {
		<-g.entered
	}
	if r := do(t, ts, "GET", "/api/orders", "tok-new"); r.status != 429 || r.code != CodeTooManyConnections {
		t.Fatalf("51st connection: %d %s", r.status, r.code)
	}
	close(g.release)
	wg.Wait()
}

// TestIdenticalWriteDuringProcessingGets423 checks the write lock: the
// second identical PATCH while the first is processed answers 423; a GET,
// another URL and another e-shop are not locked; after the first ends, the
// URL is free again.
func TestIdenticalWriteDuringProcessingGets423(t *testing.T) {
	l := New(sandbox.DefaultLimits(), sandbox.NewClock(), headers)
	g := newGate()
	ts := serveShops(t, l, g, shops{"a1": 1, "a2": 1, "b1": 2})
	first := make(chan result)
	go func() { first <- do(t, ts, "PATCH", "/api/products/p1", "a1") }()
	<-g.entered
	if r := do(t, ts, "PATCH", "/api/products/p1", "a2"); r.status != 423 || r.code != CodeLocked {
		t.Fatalf("identical PATCH, same e-shop other token: %d %s", r.status, r.code)
	}
	others := []struct{ method, path, tok string }{
		{"GET", "/api/products/p1", "a2"},
		{"PATCH", "/api/products/p2", "a2"},
		{"PATCH", "/api/products/p1", "b1"},
	}
	results := make(chan result, len(others))
	for _, o := range others {
		o := o
		go func() { results <- do(t, ts, o.method, o.path, o.tok) }()
		<-g.entered
	}
	close(g.release)
	for range others {
		if r := <-results; r.status != 200 {
			t.Fatalf("unrelated call refused: %d %s", r.status, r.code)
		}
	}
	if r := <-first; r.status != 200 {
		t.Fatalf("first PATCH: %d", r.status)
	}
	if r := do(t, ts, "PATCH", "/api/products/p1", "a2"); r.status != 200 {
		t.Fatalf("after the first finished: %d %s", r.status, r.code)
	}
}

// TestWriteLockExpiresAfterTimeout checks the 5-second cap on the sandbox
// clock.
func TestWriteLockExpiresAfterTimeout(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	l := New(sandbox.DefaultLimits(), clock, headers)
	g := newGate()
	ts := serve(t, l, g)
	first := make(chan result)
	go func() { first <- do(t, ts, "DELETE", "/api/brands/x", "a") }()
	<-g.entered
	if r := do(t, ts, "DELETE", "/api/brands/x", "a"); r.status != 423 {
		t.Fatalf("during processing: %d", r.status)
	}
	clock.Advance(5 * time.Second)
	second := make(chan result)
	go func() { second <- do(t, ts, "DELETE", "/api/brands/x", "a") }()
	<-g.entered
	close(g.release)
	if r := <-first; r.status != 200 {
		t.Fatal(r.status)
	}
	if r := <-second; r.status != 200 {
		t.Fatalf("after 5 s the lock must be gone: %d", r.status)
	}
}

// TestBucketHeaderAndRetryAfter checks the leaky bucket on the sandbox
// clock: the header on every response, 429 with an HTTP-date Retry-After
// only when full, draining as time passes.
func TestBucketHeaderAndRetryAfter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := sandbox.NewFrozenClock(t0)
	cfg := sandbox.DefaultLimits()
	cfg.BucketCapacity, cfg.BucketLeak = 3, time.Second
	l := New(cfg, clock, headers)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	ts := serve(t, l, ok)
	steps := []struct {
		advance    time.Duration
		status     int
		filling    string
		retryAfter string
	}{
		{0, 200, "1/3", ""},
		{0, 200, "2/3", ""},
		{0, 200, "3/3", ""},
		{0, 429, "3/3", t0.Add(time.Second).Format(http.TimeFormat)},
		{time.Second, 200, "3/3", ""},
		{10 * time.Second, 200, "1/3", ""},
	}
	for i, s := range steps {
		clock.Advance(s.advance)
		r := do(t, ts, "GET", "/api/orders", "tok")
		if r.status != s.status || r.header.Get("X-RateLimit-Bucket-Filling") != s.filling || r.header.Get("Retry-After") != s.retryAfter {
			t.Fatalf("step %d: status %d filling %q retry-after %q; want %d %q %q", i, r.status,
				r.header.Get("X-RateLimit-Bucket-Filling"), r.header.Get("Retry-After"), s.status, s.filling, s.retryAfter)
		}
		if r.status == 429 && r.code != CodeRateLimited {
			t.Fatalf("429 code %q", r.code)
		}
	}
	if r := do(t, ts, "GET", "/api/orders", "other"); r.header.Get("X-RateLimit-Bucket-Filling") != "1/3" {
		t.Fatalf("buckets are per token: %q", r.header.Get("X-RateLimit-Bucket-Filling"))
	}
	// Control-plane and e-shop routes carry no limits.
	if r := do(t, ts, "GET", "/_sandbox/health", ""); r.header.Get("X-RateLimit-Bucket-Filling") != "" {
		t.Fatal("control plane is not rate limited")
	}
}

// TestMaintenanceAndDeprecation checks 503 during a maintenance window on
// the clock (with the bucket header, the call not counted, and no
// Retry-After: the spec sends that only with a full bucket) and the
// deprecation headers.
func TestMaintenanceAndDeprecation(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := sandbox.NewFrozenClock(t0)
	l := New(sandbox.DefaultLimits(), clock, headers)
	ts := serve(t, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }))
	l.SetMaintenance(&Maintenance{Until: t0.Add(10 * time.Minute)})
	r := do(t, ts, "GET", "/api/orders", "tok")
	if r.status != 503 || r.code != CodeMaintenance || r.header.Get("Retry-After") != "" || r.header.Get("X-RateLimit-Bucket-Filling") != "0/100" {
		t.Fatalf("maintenance: %d %s %v", r.status, r.code, r.header)
	}
	clock.Advance(10 * time.Minute)
	if r := do(t, ts, "GET", "/api/orders", "tok"); r.status != 200 {
		t.Fatalf("after the window: %d", r.status)
	}
	sunset := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	l.Deprecate("GetListOfOrders", sunset)
	r = do(t, ts, "GET", "/api/orders", "tok")
	if r.header.Get("X-Service-Deprecated") == "" || r.header.Get("Sunset") != sunset.Format(http.TimeFormat) {
		t.Fatalf("deprecation headers: %v", r.header)
	}
	if r := do(t, ts, "GET", "/api/products", "tok"); r.header.Get("X-Service-Deprecated") != "" {
		t.Fatal("only the marked operation is deprecated")
	}
}

// TestLimitsOff keeps the header but refuses nothing.
func TestLimitsOff(t *testing.T) {
	cfg := sandbox.DefaultLimits()
	cfg.Off, cfg.BucketCapacity = true, 1
	l := New(cfg, sandbox.NewFrozenClock(time.Unix(0, 0)), headers)
	g := newGate()
	ts := serve(t, l, g)
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := do(t, ts, "PATCH", "/api/products/p1", "a"); r.status != 200 || r.header.Get("X-RateLimit-Bucket-Filling") == "" {
				t.Errorf("limits off: %d", r.status)
			}
		}()
	}
	for i := 0; i < 6; i++ {
		<-g.entered
	}
	close(g.release)
	wg.Wait()
}

// TestAnsweredCallStopsCounting: a client that has read a whole answer may
// call again at once, even while the server's goroutine of the answered
// call has not returned yet (an answer larger than the server's write
// buffer reaches the client during Write, before the handler returns). The
// old limiter released the slot only on return, so the next call of a
// client keeping to the limit got 429 too-many-connections.
func TestAnsweredCallStopsCounting(t *testing.T) {
	cfg := sandbox.DefaultLimits()
	cfg.PerToken = 1
	l := New(cfg, sandbox.NewClock(), headers)
	answered := make(chan struct{})
	hold := make(chan struct{})
	var calls sync.WaitGroup
	first := true
	var mu sync.Mutex
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		isFirst := first
		first = false
		mu.Unlock()
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"data":{"pad":"`+strings.Repeat("x", 64<<10)+`"},"errors":null}`)
		_ = http.NewResponseController(w).Flush()
		if isFirst {
			close(answered)
			<-hold // the goroutine is still busy after its answer went out
		}
	})
	ts := serve(t, l, h)
	calls.Add(1)
	go func() {
		defer calls.Done()
		if r := do(t, ts, "GET", "/api/orders", "tok-a"); r.status != 200 {
			t.Errorf("first call: %d %s", r.status, r.code)
		}
	}()
	<-answered
	r := do(t, ts, "GET", "/api/orders", "tok-a")
	close(hold)
	calls.Wait()
	if r.status != 200 {
		t.Fatalf("a call after the previous one was answered: %d %s, want 200", r.status, r.code)
	}
}

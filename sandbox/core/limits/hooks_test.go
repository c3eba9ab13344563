package limits

import (
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// faulting is a handler that applies a hook to the calls carrying the
// X-Hook header, the way the scenario engine does from inside the
// limiter, and answers 200 otherwise.
func faulting(l *Limiter, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("X-Hook") {
		case "fill":
			api.WriteError(w, r, headers, l.FillBucket(w, r))
		case "lock":
			api.WriteError(w, r, headers, l.HoldLock(r, d))
		default:
			w.WriteHeader(200)
		}
	})
}

// TestFillBucketHook: a filled bucket refuses this call and the next ones
// of the same token with 429 and Retry-After, until it leaks.
func TestFillBucketHook(t *testing.T) {
	cfg := sandbox.DefaultLimits()
	cfg.BucketCapacity, cfg.BucketLeak = 10, time.Second
	clock := sandbox.NewFrozenClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	l := New(cfg, clock, headers)
	ts := serve(t, l, faulting(l, 0))
	req := func(hook, token string) result {
		r, _ := http.NewRequest("GET", ts.URL+"/api/orders", nil)
		r.Header.Set(headers.PrivateToken, token)
		r.Header.Set("X-Hook", hook)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return result{status: resp.StatusCode, header: resp.Header}
	}
	r := req("fill", "tok-a")
	if r.status != 429 || r.header.Get("X-RateLimit-Bucket-Filling") != "10/10" || r.header.Get("Retry-After") != clock.Now().Add(time.Second).UTC().Format(http.TimeFormat) {
		t.Fatalf("filling call: %d %v", r.status, r.header)
	}
	if r := req("", "tok-a"); r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Fatalf("next call: %d", r.status)
	}
	if r := req("", "tok-b"); r.status != 200 {
		t.Fatalf("another token: %d", r.status)
	}
	clock.Advance(2 * time.Second)
	if r := req("", "tok-a"); r.status != 200 || r.header.Get("X-RateLimit-Bucket-Filling") != "9/10" {
		t.Fatalf("after leaking: %d %s", r.status, r.header.Get("X-RateLimit-Bucket-Filling"))
	}
}

// TestHoldLockHook: a held lock refuses identical writes with 423 for its
// duration on the clock, even after the holding call ended; other URLs,
// reads and other e-shops are not affected.
func TestHoldLockHook(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	l := New(sandbox.DefaultLimits(), clock, headers)
	ts := serveShops(t, l, faulting(l, 10*time.Second), shops{"tok-a": 1, "tok-a2": 1, "tok-b": 2})
	send := func(method, path, token, hook string) int {
		r, _ := http.NewRequest(method, ts.URL+path, nil)
		r.Header.Set(headers.PrivateToken, token)
		r.Header.Set("X-Hook", hook)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := send("PATCH", "/api/orders/1/status", "tok-a", "lock"); s != 423 {
		t.Fatalf("holding call: %d", s)
	}
	for _, c := range []struct {
		method, path, token string
		want                int
	}{
		{"PATCH", "/api/orders/1/status", "tok-a", 423},
		{"PATCH", "/api/orders/1/status", "tok-a2", 423}, // same e-shop, another token
		{"PATCH", "/api/orders/2/status", "tok-a", 200},
		{"GET", "/api/orders/1/status", "tok-a", 200},
		{"PATCH", "/api/orders/1/status", "tok-b", 200},
	} {
		if s := send(c.method, c.path, c.token, ""); s != c.want {
			t.Errorf("%s %s (%s): %d, want %d", c.method, c.path, c.token, s, c.want)
		}
	}
	clock.Advance(10 * time.Second)
	if s := send("PATCH", "/api/orders/1/status", "tok-a", ""); s != 200 {
		t.Fatalf("after the hold: %d", s)
	}
}

// TestRetryAfterRoundsUp: Retry-After has whole seconds, so a wait below
// a second is rounded up, never down to a moment the bucket is still full.
func TestRetryAfterRoundsUp(t *testing.T) {
	cfg := sandbox.DefaultLimits()
	cfg.BucketCapacity, cfg.BucketLeak = 2, 250*time.Millisecond
	clock := sandbox.NewFrozenClock(time.Date(2025, 1, 1, 9, 0, 0, 100e6, time.UTC))
	l := New(cfg, clock, headers)
	ts := serve(t, l, faulting(l, 0))
	r, _ := http.NewRequest("GET", ts.URL+"/api/orders", nil)
	r.Header.Set(headers.PrivateToken, "tok")
	r.Header.Set("X-Hook", "fill")
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ra, err := http.ParseTime(resp.Header.Get("Retry-After"))
	if err != nil || !ra.Equal(time.Date(2025, 1, 1, 9, 0, 1, 0, time.UTC)) {
		t.Fatalf("Retry-After %q, want the next whole second", resp.Header.Get("Retry-After"))
	}
}

package app_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// week is how far every case moves the sandbox clock before its call, so a
// Date or Retry-After taken from the wall clock shows.
const week = 7 * 24 * time.Hour

// TestRateLimitHeaders checks the spec's leaky-bucket rules through the
// real listener, one case per kind of answer: every API answer carries
// X-RateLimit-Bucket-Filling (the maintenance 503 included), Retry-After
// only when the bucket is full, and Date and Retry-After from the one
// sandbox clock, so Retry-After - Date is the wait the client should make
// even after the clock was moved a week. The control plane and the
// storefront carry the sandbox's Date but no bucket header: they are not
// the rate-limited API.
func TestRateLimitHeaders(t *testing.T) {
	f := loadFacts(t)
	const full = "5/5"
	cases := []struct {
		name   string
		setup  []sandboxtest.Call // before the call, on the moved clock
		call   sandboxtest.Call
		status int
		code   string // errorCode, when an error
		bucket string // the bucket header; "" when none is expected
		// wait is the Retry-After - Date range when Retry-After is
		// expected; zero when it must be absent.
		wait [2]time.Duration
	}{
		{name: "served call", call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken},
			status: 200, bucket: "1/5"},
		{name: "unknown endpoint", call: sandboxtest.Call{Path: "/api/no-such-thing", PrivateToken: f.FullToken},
			status: 404, code: sandbox.CodeNotFound, bucket: "1/5"},
		{name: "maintenance window", setup: []sandboxtest.Call{
			{Method: "POST", Path: "/_sandbox/maintenance", Body: map[string]any{"on": true, "for": "10m"}},
		}, call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken},
			status: 503, code: "maintenance", bucket: "0/5"},
		{name: "maintenance window opened by a scripted fault", setup: []sandboxtest.Call{
			{Method: "POST", Path: "/_sandbox/faults", Body: map[string]any{"name": "upgrade", "match": map[string]any{"path": "/api/orders"}, "maintenance": map[string]any{"for": "10m"}}},
		}, call: sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken},
			status: 503, code: "maintenance", bucket: "1/5"},
		{name: "built-in maintenance fault", call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken, Header: map[string]string{"Service-Sandbox-Fault": "maintenance"}},
			status: 503, code: "maintenance", bucket: "1/5"},
		{name: "built-in too-many-connections fault", call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken, Header: map[string]string{"Service-Sandbox-Fault": "too-many-connections"}},
			status: 429, code: "too-many-connections", bucket: "1/5"},
		{name: "scripted 429 without retryAfter", setup: []sandboxtest.Call{
			{Method: "POST", Path: "/_sandbox/faults", Body: map[string]any{"name": "busy", "match": map[string]any{"path": "/api/orders"}, "respond": map[string]any{"status": 429}}},
		}, call: sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken},
			status: 429, code: "too-many-connections", bucket: "1/5"},
		{name: "scripted 429 with retryAfter fills the bucket for that long", setup: []sandboxtest.Call{
			{Method: "POST", Path: "/_sandbox/faults", Body: map[string]any{"name": "busy", "match": map[string]any{"path": "/api/orders"}, "respond": map[string]any{"status": 429, "retryAfter": "2s"}}},
		}, call: sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken},
			status: 429, code: "rate-limit-exceeded", bucket: full, wait: [2]time.Duration{2 * time.Second, 3 * time.Second}},
		{name: "full bucket", setup: []sandboxtest.Call{
			{Path: "/api/eshop", PrivateToken: f.FullToken}, {Path: "/api/eshop", PrivateToken: f.FullToken},
			{Path: "/api/eshop", PrivateToken: f.FullToken}, {Path: "/api/eshop", PrivateToken: f.FullToken},
			{Path: "/api/eshop", PrivateToken: f.FullToken},
		}, call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken},
			status: 429, code: "rate-limit-exceeded", bucket: full, wait: [2]time.Duration{59 * time.Second, 61 * time.Second}},
		{name: "built-in rate-limited fault", call: sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken, Header: map[string]string{"Service-Sandbox-Fault": "rate-limited"}},
			status: 429, code: "rate-limit-exceeded", bucket: full, wait: [2]time.Duration{59 * time.Second, 61 * time.Second}},
		{name: "control plane", call: sandboxtest.Call{Path: "/_sandbox/clock"}, status: 200},
		{name: "storefront", call: sandboxtest.Call{Path: "/eshops/1001/"}, status: 200},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lim := sandbox.DefaultLimits()
			lim.BucketCapacity, lim.BucketLeak = 5, time.Minute // no noticeable leak during the case
			s := sandboxtest.New(t, sandbox.Config{Limits: &lim})
			if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: map[string]any{"advance": week.String()}}); r.Status != 200 {
				t.Fatalf("move the clock: %d %s", r.Status, r.Body)
			}
			for _, c := range tc.setup {
				if r := s.Do(c); r.Status >= 300 {
					t.Fatalf("setup %s %s: %d %s", c.Method, c.Path, r.Status, r.Body)
				}
			}
			r := s.Do(tc.call)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
			}
			if tc.code != "" && (len(r.Env.Errors) == 0 || r.Env.Errors[0].ErrorCode != tc.code) {
				t.Errorf("errors %+v, want errorCode %s", r.Env.Errors, tc.code)
			}
			if got := r.Header.Get("X-RateLimit-Bucket-Filling"); got != tc.bucket {
				t.Errorf("X-RateLimit-Bucket-Filling %q, want %q", got, tc.bucket)
			}
			date, err := http.ParseTime(r.Header.Get("Date"))
			if err != nil {
				t.Fatalf("Date %q: %v", r.Header.Get("Date"), err)
			}
			if d := s.App.Clock.Now().Sub(date); d < 0 || d > 5*time.Second {
				t.Errorf("Date %s is %v from the sandbox clock %s (wall clock %s)", date, d, s.App.Clock.Now().UTC(), time.Now().UTC())
			}
			ra := r.Header.Get("Retry-After")
			if tc.wait[1] == 0 {
				if ra != "" {
					t.Errorf("Retry-After %q on an answer without a full bucket", ra)
				}
				return
			}
			until, err := http.ParseTime(ra)
			if err != nil {
				t.Fatalf("Retry-After %q: %v", ra, err)
			}
			if wait := until.Sub(date); wait < tc.wait[0] || wait > tc.wait[1] {
				t.Errorf("Retry-After - Date = %v (Retry-After %s, Date %s), want %v to %v", wait, ra, r.Header.Get("Date"), tc.wait[0], tc.wait[1])
			}
		})
	}
}

// TestScriptedRetryAfterHoldsTheBucket checks that a scripted 429 with
// retryAfter is a full bucket in earnest: the next call before the date is
// refused by the bucket with the same date, and once the sandbox clock
// has passed it the call is served and the bucket reads its own level
// again (the one call it admitted, half leaked, plus this one).
func TestScriptedRetryAfterHoldsTheBucket(t *testing.T) {
	f := loadFacts(t)
	lim := sandbox.DefaultLimits()
	lim.BucketCapacity, lim.BucketLeak = 5, time.Minute
	s := sandboxtest.New(t, sandbox.Config{Limits: &lim})
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/faults", Body: map[string]any{"name": "busy", "match": map[string]any{"path": "/api/orders", "nth": 1}, "respond": map[string]any{"status": 429, "retryAfter": "30s"}}}); r.Status != 201 {
		t.Fatalf("add fault: %d %s", r.Status, r.Body)
	}
	call := sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken}
	first := s.Do(call)
	second := s.Do(call)
	for i, r := range []*sandboxtest.Response{first, second} {
		if r.Status != 429 || r.Header.Get("X-RateLimit-Bucket-Filling") != "5/5" || r.Header.Get("Retry-After") == "" {
			t.Fatalf("call %d: %d %v %s", i+1, r.Status, r.Header, r.Body)
		}
	}
	if a, b := first.Header.Get("Retry-After"), second.Header.Get("Retry-After"); a != b {
		t.Errorf("the held bucket moved its date: %s, then %s", a, b)
	}
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: map[string]any{"advance": "31s"}})
	third := s.Do(call)
	if third.Status != 200 || third.Header.Get("Retry-After") != "" || third.Header.Get("X-RateLimit-Bucket-Filling") != "2/5" {
		t.Fatalf("after the date: %d %v %s", third.Status, third.Header, third.Body)
	}
}

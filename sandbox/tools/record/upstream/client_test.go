package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, v string
		want    time.Duration
		ok      bool
	}{
		{"http date", "Sat, 01 Mar 2025 12:00:03 GMT", 3 * time.Second, true},
		{"date in the past waits nothing", "Sat, 01 Mar 2025 11:59:00 GMT", 0, true},
		{"seconds", "7", 7 * time.Second, true},
		{"none", "", 0, false},
		{"negative seconds", "-3", 0, false},
		{"garbage", "soon", 0, false},
		{"seconds with junk", "3s", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := RetryAfter(tc.v, now)
			if got != tc.want || ok != tc.ok {
				t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", tc.v, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestWaitsForRetryAfterDate: a 429 whose Retry-After is an HTTP date one
// second after the answer's Date holds the next call back a second (the
// date is read against the answer's Date, not this machine's clock, which
// the test sets an hour off); the call then succeeds, and only GET with
// the token header was sent.
func TestWaitsForRetryAfterDate(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodGet || r.Header.Get("Service-Private-API-Token") != "tok-123" {
			t.Errorf("got %s with token %q", r.Method, r.Header.Get("Service-Private-API-Token"))
		}
		arrivals = append(arrivals, time.Now())
		if len(arrivals) == 1 {
			now := time.Now().UTC().Truncate(time.Second)
			w.Header().Set("Date", now.Format(http.TimeFormat))
			w.Header().Set("Retry-After", now.Add(time.Second).Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		_, _ = w.Write([]byte(`{"data":{}}`))
	}))
	defer srv.Close()
	skewed := func() time.Time { return time.Now().Add(-time.Hour) }
	c := &Client{Base: srv.URL, Auth: Auth{Header: "Service-Private-API-Token", Token: "tok-123"}, Now: skewed}
	resp, err := c.Get(context.Background(), "/api/eshop")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 200 || len(arrivals) != 2 {
		t.Fatalf("status %d after %d calls", resp.Status, len(arrivals))
	}
	if gap := arrivals[1].Sub(arrivals[0]); gap < 950*time.Millisecond || gap > 5*time.Second {
		t.Errorf("the call after the 429 came %v after it; Retry-After asked for a second", gap)
	}
	if s := c.Stats(); s.Throttled != 1 || s.Calls != 2 || s.Waited != time.Second {
		t.Errorf("stats %+v", s)
	}
}

// TestHoldsEveryCall: a Retry-After holds back the calls of every worker,
// not only the one refused (the bucket is the token's).
func TestHoldsEveryCall(t *testing.T) {
	var refused atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/first" && refused.CompareAndSwap(false, true) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	defer srv.Close()
	c := &Client{Base: srv.URL}
	if _, err := c.Get(context.Background(), "/first"); err != nil {
		t.Fatal(err)
	}
	// The gate is passed; a second client call right after a fresh 429
	// on another path must wait too.
	refused.Store(false)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _, _ = c.Get(context.Background(), "/first") }()
	// Wait until that call got its 429 and the client holds calls back.
	for deadline := time.Now().Add(5 * time.Second); c.Stats().Throttled < 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first call never got its 429")
		}
	}
	start := time.Now()
	if _, err := c.Get(context.Background(), "/other"); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if waited := time.Since(start); waited < 700*time.Millisecond {
		t.Errorf("a call on another path went out %v after another call's 429 with Retry-After 1", waited)
	}
}

// TestNeverMoreThanThree: whatever concurrency is asked, at most three
// calls are in flight at once.
func TestNeverMoreThanThree(t *testing.T) {
	var active, peak atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := active.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		time.Sleep(30 * time.Millisecond)
		active.Add(-1)
	}))
	defer srv.Close()
	c := &Client{Base: srv.URL, Concurrency: 10}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Get(context.Background(), "/x"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p != MaxConcurrency {
		t.Errorf("peak %d concurrent calls, want %d", p, MaxConcurrency)
	}
	if s := c.Stats(); s.MaxActive != MaxConcurrency || s.Calls != 20 {
		t.Errorf("stats %+v", s)
	}
}

func TestRefusals(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			_, _ = w.Write([]byte(strings.Repeat("x", 2048)))
		case "/redirect":
			http.Redirect(w, r, other.URL+"/steal", http.StatusFound)
		case "/slow":
			time.Sleep(time.Second)
		case "/hour":
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/always":
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/maintenance":
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	c := &Client{Base: srv.URL, Auth: Auth{Header: "Service-Private-API-Token", Token: "secret"}, MaxBody: 1024, Timeout: 200 * time.Millisecond, Attempts: 3}
	for _, tc := range []struct{ path, want string }{
		{"/big", "larger than 1024 bytes"},
		{"/redirect", "redirect"},
		{"/slow", "Timeout"},
		{"/hour", "asks to wait 1h0m0s"},
		{"/always", "still 429 after 3 attempts"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			start := time.Now()
			_, err := c.Get(context.Background(), tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
	if !errors.Is(func() error { _, err := c.Get(context.Background(), "/redirect"); return err }(), ErrRedirect) {
		t.Error("a redirect is not ErrRedirect")
	}
	if elsewhere.Load() != 0 {
		t.Error("a redirect was followed: the token went to another server")
	}
	// 503 without Retry-After is an answer for the caller to report.
	resp, err := c.Get(context.Background(), "/maintenance")
	if err != nil || resp.Status != 503 {
		t.Errorf("503: %v %v", resp, err)
	}
}

func TestCheckBase(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
		insecure      bool
	}{
		{in: "https://api.example.com/", want: "https://api.example.com"},
		{in: "http://127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{in: "http://localhost:9000/", want: "http://localhost:9000"},
		{in: "http://[::1]:9000", want: "http://[::1]:9000"},
		{in: "http://api.example.com", err: "in the clear"},
		{in: "http://api.example.com", insecure: true, want: "http://api.example.com"},
		{in: "ftp://api.example.com", err: "scheme"},
		{in: "https://user:pw@api.example.com", err: "user information"},
		{in: "https://api.example.com/?x=1", err: "without a query"},
		{in: "", err: "no upstream URL"},
		{in: "https://", err: "no host"},
	} {
		got, err := CheckBase(tc.in, tc.insecure)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("CheckBase(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CheckBase(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

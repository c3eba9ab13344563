// Package upstream is the polite, read-only HTTP client that `sandbox
// record` and `sandbox diff` use to read an e-shop through its API: the
// real service or a sandbox standing in for it. It sends only GET, at
// most three calls at once (the spec's limit per token), waits as a 429
// or 503 answer's Retry-After says (an HTTP date, or seconds) before any
// further call, bounds every call by a timeout and every answer by a size,
// and never follows a redirect (which could carry the token elsewhere).
//
// The calls leave from the CLI, not from a sandbox server, so the
// sandbox's egress guard does not apply; these bounds are their guard.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// MaxConcurrency is the spec's limit of concurrent calls per token: a
// client never runs more, whatever it is asked.
const MaxConcurrency = 3

// Defaults of the bounds a zero Client field takes.
const (
	DefaultTimeout  = 30 * time.Second // one call, connection to last byte
	DefaultMaxBody  = 64 << 20         // one answer's body
	DefaultMaxWait  = 2 * time.Minute  // the longest Retry-After honoured
	DefaultAttempts = 8                // attempts of one call, the first included
	minWait         = 250 * time.Millisecond
)

// Auth is how a client proves its access: a private API token or an
// add-on's access token, in the header the service names.
type Auth struct {
	Header string // e.g. Service-Private-API-Token
	Token  string
}

// Client reads one e-shop's API. The zero values of the bounds take the
// defaults above; Concurrency is capped at MaxConcurrency.
type Client struct {
	Base        string // API base URL, e.g. https://api.example.com (no trailing slash needed)
	Auth        Auth
	Accept      string // media type sent as Accept and Content-Type ("" = application/json)
	Concurrency int
	Timeout     time.Duration
	MaxBody     int64
	MaxWait     time.Duration
	Attempts    int
	// Now is the clock used to turn a Retry-After date into a wait when
	// the answer has no Date header (nil: time.Now).
	Now func() time.Time
	// HTTP, when set, sends the calls (tests); its redirect policy is
	// replaced so that no redirect is followed.
	HTTP *http.Client

	once  sync.Once
	slots chan struct{}
	hc    *http.Client

	mu       sync.Mutex
	notUntil time.Time // no call starts before this (a shared Retry-After)
	stats    Stats
}

// Stats counts what a client did, for the summary a command prints.
type Stats struct {
	Calls     int           // calls sent, retries included
	Throttled int           // 429 and 503 answers waited out
	Waited    time.Duration // total time spent waiting for Retry-After
	MaxActive int           // the most calls that were in flight at once
	active    int
}

// Response is one answer, read in full.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// ErrRedirect is returned for an answer that redirects: the client never
// follows one, so the token is never sent to another address.
var ErrRedirect = errors.New("the upstream answered with a redirect, which is not followed (check the URL: use the API's base address)")

func (c *Client) init() {
	c.once.Do(func() {
		n := c.Concurrency
		if n <= 0 || n > MaxConcurrency {
			n = MaxConcurrency
		}
		c.slots = make(chan struct{}, n)
		if c.Timeout <= 0 {
			c.Timeout = DefaultTimeout
		}
		if c.MaxBody <= 0 {
			c.MaxBody = DefaultMaxBody
		}
		if c.MaxWait <= 0 {
			c.MaxWait = DefaultMaxWait
		}
		if c.Attempts <= 0 {
			c.Attempts = DefaultAttempts
		}
		if c.Now == nil {
			c.Now = time.Now
		}
		if c.Accept == "" {
			c.Accept = "application/json"
		}
		base := c.HTTP
		if base == nil {
			base = &http.Client{Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
				TLSHandshakeTimeout:   10 * time.Second,
				ResponseHeaderTimeout: c.Timeout,
				MaxIdleConnsPerHost:   MaxConcurrency,
				MaxConnsPerHost:       MaxConcurrency,
				IdleConnTimeout:       30 * time.Second,
			}}
		}
		hc := *base
		hc.Timeout = c.Timeout
		hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		c.hc = &hc
	})
}

// Stats returns what the client did so far.
func (c *Client) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Close releases idle connections.
func (c *Client) Close() {
	c.init()
	c.hc.CloseIdleConnections()
}

// Get sends GET base+path (path holds the query too) and returns the
// answer, whatever its status: a 429 or 503 with Retry-After is waited out
// and sent again, up to Attempts times; every other status is the caller's
// to judge. An error means no answer: unreachable, a timeout, a body over
// MaxBody, a redirect, or a wait the upstream asks for beyond MaxWait.
func (c *Client) Get(ctx context.Context, path string) (*Response, error) {
	c.init()
	u := strings.TrimSuffix(c.Base, "/") + path
	for attempt := 1; ; attempt++ {
		if err := c.waitGate(ctx); err != nil {
			return nil, err
		}
		resp, err := c.once1(ctx, u)
		if err != nil {
			return nil, err
		}
		if resp.Status != http.StatusTooManyRequests && resp.Status != http.StatusServiceUnavailable {
			return resp, nil
		}
		ra := resp.Header.Get("Retry-After")
		if resp.Status == http.StatusServiceUnavailable && ra == "" {
			return resp, nil // unavailable without a time to come back: the caller's to report
		}
		if attempt >= c.Attempts {
			return nil, fmt.Errorf("GET %s: still %d after %d attempts", path, resp.Status, attempt)
		}
		wait := c.retryWait(resp, attempt)
		if wait > c.MaxWait {
			return nil, fmt.Errorf("GET %s: the upstream asks to wait %s (Retry-After %q), more than the %s allowed", path, wait.Round(time.Second), ra, c.MaxWait)
		}
		c.hold(wait)
	}
}

// once1 sends one call within a concurrency slot.
func (c *Client) once1(ctx context.Context, u string) (*Response, error) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c.mu.Lock()
	c.stats.Calls++
	c.stats.active++
	c.stats.MaxActive = max(c.stats.MaxActive, c.stats.active)
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.stats.active--
		c.mu.Unlock()
		<-c.slots
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", c.Accept)
	req.Header.Set("Content-Type", c.Accept)
	if c.Auth.Header != "" {
		req.Header.Set(c.Auth.Header, c.Auth.Token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", redact(u), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, fmt.Errorf("GET %s: %d: %w", redact(u), resp.StatusCode, ErrRedirect)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: reading the answer: %w", redact(u), err)
	}
	if int64(len(body)) > c.MaxBody {
		return nil, fmt.Errorf("GET %s: the answer is larger than %d bytes", redact(u), c.MaxBody)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

// retryWait is how long to wait after a 429 or 503: until the Retry-After
// date (measured against the answer's own Date, so clock skew does not
// matter), or its seconds; without one, a back-off doubling from 1 s.
// Never less than a quarter second, so a date rounded to the current
// second does not turn into a tight loop.
func (c *Client) retryWait(resp *Response, attempt int) time.Duration {
	now := c.Now()
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		now = d
	}
	wait, ok := RetryAfter(resp.Header.Get("Retry-After"), now)
	if !ok {
		wait = time.Second << min(attempt-1, 6)
	}
	return max(wait, minWait)
}

// hold makes every call wait d from now (the bucket is the token's, not
// the call's), and counts the wait.
func (c *Client) hold(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	until := time.Now().Add(d)
	if until.After(c.notUntil) {
		c.notUntil = until
	}
	c.stats.Throttled++
	c.stats.Waited += d
}

// waitGate blocks until no Retry-After holds calls back.
func (c *Client) waitGate(ctx context.Context) error {
	for {
		c.mu.Lock()
		d := time.Until(c.notUntil)
		c.mu.Unlock()
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}

// RetryAfter reads a Retry-After value, an HTTP date or a number of
// seconds, as the wait from now. ok is false when there is none or it
// cannot be read.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var secs int
	if _, err := fmt.Sscanf(v, "%d", &secs); err == nil && fmt.Sprint(secs) == v {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// redact drops the query from a URL for messages (it may hold e-mails
// used as filters).
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.RawQuery = ""
	return p.String()
}

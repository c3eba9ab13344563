// Package limits enforces the spec's limits on API calls: concurrent
// connections per IP (50) and per token (3), the leaky bucket with its
// X-RateLimit-Bucket-Filling header and Retry-After when full, the lock
// on identical concurrent write requests (423), maintenance mode (503) and
// the deprecation headers. It is middleware outside the router, so a
// refused call costs no store work.
package limits

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Error codes of the limits.
const (
	CodeTooManyConnections = "too-many-connections"
	CodeRateLimited        = "rate-limit-exceeded"
	CodeLocked             = "locked"
	CodeMaintenance        = "maintenance"
)

// Limiter holds the live counters. It reads what the server resolved
// about a call (api.CallOf: operation, token, e-shop) and never routes or
// looks a token up itself.
type Limiter struct {
	clock   *sandbox.Clock
	headers sandbox.Headers

	mu          sync.Mutex
	cfg         sandbox.Limits
	perIP       map[string]int
	perToken    map[string]int
	buckets     map[string]*bucket
	locks       map[string]lock // lock key -> holder
	lockGen     uint64
	maintenance *Maintenance
	deprecated  map[string]time.Time // operation -> sunset
}

// Maintenance describes a maintenance window.
type Maintenance struct {
	Message string    `json:"message"`
	Until   time.Time `json:"until"` // zero: until switched off
}

// lock is a held write lock; gen tells holders apart so a request whose
// lock expired does not release its successor's.
type lock struct {
	expires time.Time
	gen     uint64
}

type bucket struct {
	level float64 // requests in the bucket; fractional because it leaks continuously
	at    time.Time
	// heldUntil keeps the bucket full until then, whatever its level (a
	// scripted 429 with retryAfter, see HoldFull).
	heldUntil time.Time
}

// New returns a limiter with the given settings.
func New(cfg sandbox.Limits, clock *sandbox.Clock, headers sandbox.Headers) *Limiter {
	return &Limiter{clock: clock, headers: headers, cfg: cfg,
		perIP: map[string]int{}, perToken: map[string]int{}, buckets: map[string]*bucket{},
		locks: map[string]lock{}, deprecated: map[string]time.Time{}}
}

// Config returns the settings in force.
func (l *Limiter) Config() sandbox.Limits {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cfg
}

// SetConfig replaces the settings (counters are kept).
func (l *Limiter) SetConfig(cfg sandbox.Limits) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cfg = cfg
}

// SetMaintenance switches maintenance mode on (m != nil) or off.
func (l *Limiter) SetMaintenance(m *Maintenance) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maintenance = m
}

// MaintenanceState reports the active maintenance window, if any.
func (l *Limiter) MaintenanceState() *Maintenance {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.activeMaintenance()
}

func (l *Limiter) activeMaintenance() *Maintenance {
	if l.maintenance == nil {
		return nil
	}
	if !l.maintenance.Until.IsZero() && !l.clock.Now().Before(l.maintenance.Until) {
		l.maintenance = nil
		return nil
	}
	return l.maintenance
}

// Deprecate marks an operation deprecated with a sunset date; a zero
// sunset removes the mark.
func (l *Limiter) Deprecate(operation string, sunset time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if sunset.IsZero() {
		delete(l.deprecated, operation)
		return
	}
	l.deprecated[operation] = sunset
}

// Reset forgets buckets, locks, maintenance and deprecations (counters of
// in-flight calls stay, they belong to running requests).
func (l *Limiter) Reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buckets = map[string]*bucket{}
	l.locks = map[string]lock{}
	l.maintenance = nil
	l.deprecated = map[string]time.Time{}
}

// Decorators are the limiter's two places in the server's pipeline:
// admission as soon as the headers have arrived (maintenance, the rate
// bucket, concurrent connections per IP and per token), and, once the body
// has been read and processing starts, the write lock on identical
// requests and the deprecation headers of the (now final) operation.
func (l *Limiter) Decorators() []api.Decorator {
	return []api.Decorator{
		{Stage: api.StageAdmit, Name: "limits", Wrap: l.Admit,
			What: "API calls: maintenance (503), the rate bucket (429), 3 calls per token and 50 per IP (429)"},
		{Stage: api.StageProcess, Name: "write-lock", Wrap: l.Process,
			What: "API calls: deprecation headers of the final operation, the lock on identical writes (423)"},
	}
}

// Admit applies the admission limits to API calls.
func (l *Limiter) Admit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := api.CallOf(r)
		if c == nil || c.Area != api.AreaAPI {
			next.ServeHTTP(w, r)
			return
		}
		release, err := l.admit(w, r, c)
		if err != nil {
			api.WriteError(w, r, l.headers, err)
			return
		}
		// The call stops counting against the connection limits once its
		// answer starts: a client that read a whole answer may call again
		// at once, even if this goroutine has not yet returned (an answer
		// larger than the server's buffer reaches the client during Write).
		aw := &answering{ResponseWriter: w, release: release}
		defer aw.done()
		next.ServeHTTP(aw, r)
	})
}

// answering releases the admission slots of a call when its answer
// starts (the status line is written), or when the handler returns.
type answering struct {
	http.ResponseWriter
	release  func()
	released bool
}

func (a *answering) done() {
	if !a.released {
		a.released = true
		a.release()
	}
}

func (a *answering) WriteHeader(status int) {
	if status >= 200 {
		a.done()
	}
	a.ResponseWriter.WriteHeader(status)
}

func (a *answering) Write(p []byte) (int, error) {
	a.done()
	return a.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the server's writer (Flush,
// deadlines).
func (a *answering) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Process sets the deprecation headers and takes the write lock of an API
// call when its processing starts.
func (l *Limiter) Process(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := api.CallOf(r)
		if c == nil || c.Area != api.AreaAPI {
			next.ServeHTTP(w, r)
			return
		}
		l.deprecation(w, c.Operation())
		release, err := l.lock(r, c)
		if err != nil {
			api.WriteError(w, r, l.headers, err)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	})
}

// deprecation marks the answer of a deprecated operation.
func (l *Limiter) deprecation(w http.ResponseWriter, op string) {
	if op == "" {
		return
	}
	l.mu.Lock()
	sunset, ok := l.deprecated[op]
	l.mu.Unlock()
	if ok {
		w.Header().Set(l.headers.Deprecated, "true")
		w.Header().Set("Sunset", sunset.UTC().Format(http.TimeFormat))
	}
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func isWrite(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// admit checks the admission limits in the spec's order of severity and,
// when the call may proceed, returns the function that releases what it
// holds.
func (l *Limiter) admit(w http.ResponseWriter, r *http.Request, c *api.Call) (func(), error) {
	now := l.clock.Now()
	tok, _ := c.Token()
	ip := clientIP(r)

	l.mu.Lock()
	defer l.mu.Unlock()
	cfg := l.cfg
	capacity := max(cfg.BucketCapacity, 1)
	// The bucket header goes on every API answer, limits on or off, the
	// maintenance 503 included.
	b := l.bucketOf(tok, ip, now)
	if m := l.activeMaintenance(); m != nil {
		// The call is not counted: the service did no work for it. Nor
		// does the 503 carry Retry-After, which the spec sends only when
		// the bucket is full; "retry in minutes" is all a client learns.
		l.setFilling(w, r, b, now, capacity)
		msg := m.Message
		if msg == "" {
			msg = "The service is under maintenance. Retry in a few minutes."
		}
		return nil, sandbox.Errorf(sandbox.KindUnavailable, CodeMaintenance, "unknown", "%s", msg)
	}
	full := !cfg.Off && (b.level+1 > float64(capacity) || now.Before(b.heldUntil))
	if !full {
		b.level++
	}
	l.setFilling(w, r, b, now, capacity)
	if full {
		return nil, l.refuseFull(w, b, now, capacity, cfg.BucketLeak)
	}
	if cfg.Off {
		return func() {}, nil
	}
	if cfg.PerIP > 0 && l.perIP[ip] >= cfg.PerIP {
		return nil, sandbox.Errorf(sandbox.KindTooManyRequests, CodeTooManyConnections, "unknown",
			"Too many concurrent connections from %s: at most %d at once.", ip, cfg.PerIP)
	}
	if cfg.PerToken > 0 && tok != "" && l.perToken[tok] >= cfg.PerToken {
		return nil, sandbox.Errorf(sandbox.KindTooManyRequests, CodeTooManyConnections, "access-token",
			"Too many concurrent connections with this token: at most %d at once.", cfg.PerToken)
	}
	l.perIP[ip]++
	if tok != "" {
		l.perToken[tok]++
	}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.perIP[ip]--; l.perIP[ip] <= 0 {
			delete(l.perIP, ip)
		}
		if tok != "" {
			if l.perToken[tok]--; l.perToken[tok] <= 0 {
				delete(l.perToken, tok)
			}
		}
	}, nil
}

// lock takes the write lock of an identical write request (423 while
// another holds it) and returns the function that releases it.
func (l *Limiter) lock(r *http.Request, c *api.Call) (func(), error) {
	key := lockKey(r, c)
	if key == "" {
		return func() {}, nil
	}
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg.Off {
		return func() {}, nil
	}
	if held, ok := l.locks[key]; ok && now.Before(held.expires) {
		return nil, sandbox.Errorf(sandbox.KindLocked, CodeLocked, "unknown",
			"An identical %s request to %s is being processed; retry later.", r.Method, r.URL.Path)
	}
	timeout := l.cfg.WriteLockTimeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	l.lockGen++
	gen := l.lockGen
	l.locks[key] = lock{expires: now.Add(timeout), gen: gen}
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if held, ok := l.locks[key]; ok && held.gen == gen {
			delete(l.locks, key)
		}
	}, nil
}

// refuseFull sets Retry-After for a full bucket and returns its 429. It
// is the only place that sets Retry-After: the spec sends it only when the
// bucket is full.
func (l *Limiter) refuseFull(w http.ResponseWriter, b *bucket, now time.Time, capacity int, leak time.Duration) error {
	until := now.Add(time.Duration((b.level + 1 - float64(capacity)) * float64(leak)))
	if until.Before(b.heldUntil) {
		until = b.heldUntil
	}
	// Rounded up: a client that waits until Retry-After finds room in
	// the bucket.
	at := sandbox.RetryAfterDate(until)
	w.Header().Set("Retry-After", at)
	return sandbox.Errorf(sandbox.KindTooManyRequests, CodeRateLimited, "access-token",
		"The rate limit bucket is full (%d/%d). Retry after %s.", capacity, capacity, at)
}

// setFilling sets the X-RateLimit-Bucket-Filling header, <current>/<capacity>
// with the current level rounded up (a held bucket reads full).
func (l *Limiter) setFilling(w http.ResponseWriter, r *http.Request, b *bucket, now time.Time, capacity int) {
	level := capacity
	if !now.Before(b.heldUntil) {
		level = min(int(b.level+0.999999), capacity)
	}
	api.SetExactValues(w.Header(), "X-RateLimit-Bucket-Filling", api.CallOf(r).HeaderValue(strconv.Itoa(level)+"/"+strconv.Itoa(capacity)))
}

// bucketOf returns the caller's bucket (its token's, else its IP's),
// leaked up to now. Callers hold mu.
func (l *Limiter) bucketOf(tok, ip string, now time.Time) *bucket {
	key := tok
	if key == "" {
		key = "ip:" + ip
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{at: now}
		l.buckets[key] = b
	}
	if l.cfg.BucketLeak > 0 {
		b.level -= float64(now.Sub(b.at)) / float64(l.cfg.BucketLeak)
	}
	if b.level < 0 {
		b.level = 0
	}
	b.at = now
	return b
}

// lockKey is the write lock a request takes: per e-shop (or, for a token
// that may not call, per token), method and URL; "" for reads.
func lockKey(r *http.Request, c *api.Call) string {
	if !isWrite(r.Method) {
		return ""
	}
	tok, _ := c.Token()
	owner := "t:" + tok
	if id := c.Identity(); id.Principal != nil {
		owner = "e:" + strconv.Itoa(id.Principal.EshopID())
	}
	return owner + " " + r.Method + " " + r.URL.RequestURI()
}

// FillBucket fills the caller's rate bucket to the brim, as a burst of
// calls would, and answers this call the 429 a full bucket gives (with
// Retry-After and the bucket header). Scripted faults use it; the bucket
// then leaks on the sandbox clock as usual.
func (l *Limiter) FillBucket(w http.ResponseWriter, r *http.Request) error {
	return l.fill(w, r, 0)
}

// HoldFull keeps the caller's rate bucket full for d on the sandbox clock
// and answers this call the 429 of a full bucket with Retry-After d ahead;
// then the bucket reads its own level again (it leaked on meanwhile), so
// the fault costs the caller no calls of its own. A scripted 429 with
// retryAfter uses it, so its Retry-After comes, as the spec says it only
// does, with a bucket that reads full, and calls before that date are
// refused as a full bucket refuses them.
func (l *Limiter) HoldFull(w http.ResponseWriter, r *http.Request, d time.Duration) error {
	return l.fill(w, r, d)
}

// fill fills the caller's bucket (held for hold when above zero) and
// returns the full bucket's 429.
func (l *Limiter) fill(w http.ResponseWriter, r *http.Request, hold time.Duration) error {
	now := l.clock.Now()
	tok := ""
	if c := api.CallOf(r); c != nil {
		tok, _ = c.Token()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucketOf(tok, clientIP(r), now)
	capacity := max(l.cfg.BucketCapacity, 1)
	if hold > 0 {
		b.heldUntil = now.Add(hold)
	} else {
		b.level = float64(capacity)
	}
	l.setFilling(w, r, b, now, capacity)
	return l.refuseFull(w, b, now, capacity, l.cfg.BucketLeak)
}

// HoldLock holds the write lock of the request's URL for d on the sandbox
// clock, as if an identical request were being processed, and returns the
// 423 that this request (and identical ones until then) gets. Scripted
// faults use it. For a read there is no lock to hold; the 423 is still
// returned.
func (l *Limiter) HoldLock(r *http.Request, d time.Duration) error {
	key := ""
	if c := api.CallOf(r); c != nil {
		key = lockKey(r, c)
	}
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if key != "" {
		l.lockGen++
		l.locks[key] = lock{expires: now.Add(d), gen: l.lockGen}
	}
	return sandbox.Errorf(sandbox.KindLocked, CodeLocked, "unknown",
		"An identical %s request to %s is being processed; retry later.", r.Method, r.URL.Path)
}

package scenario

import (
	"errors"
	"net/http"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// apply performs a fault's action on one call.
func (e *Engine) apply(f *Fault, w http.ResponseWriter, r *http.Request, next http.Handler) {
	now := e.d.Clock.Now()
	if f.Latency != nil {
		t := time.NewTimer(f.Latency.D())
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch {
	case f.Respond != nil:
		e.mark(f, r)
		e.respond(w, r, f.Respond)
	case f.Close:
		e.mark(f, r)
		closeConnection(w)
	case f.ExpireToken != nil:
		if e.expireToken(f, r) {
			e.mark(f, r)
		}
		next.ServeHTTP(w, r)
	case f.HoldLock != nil:
		e.mark(f, r)
		var err error
		if e.d.Limits != nil {
			err = e.d.Limits.HoldLock(r, f.HoldLock.For.D())
		} else {
			err = sandbox.Errorf(sandbox.KindLocked, limits.CodeLocked, "unknown", "An identical %s request to %s is being processed; retry later.", r.Method, r.URL.Path)
		}
		api.WriteError(w, r, e.d.Headers, err)
	case f.Job != nil:
		e.mark(f, r)
		if e.d.ArmJob != nil {
			e.d.ArmJob(api.CallOf(r).EshopID(), f.Job.Outcome)
		}
		next.ServeHTTP(w, r)
	case f.FillBucket:
		e.mark(f, r)
		var err error
		if e.d.Limits != nil {
			err = e.d.Limits.FillBucket(w, r)
		} else {
			w.Header().Set("Retry-After", sandbox.RetryAfterDate(now.Add(time.Second)))
			err = sandbox.Errorf(sandbox.KindTooManyRequests, limits.CodeRateLimited, "access-token", "The rate limit bucket is full.")
		}
		api.WriteError(w, r, e.d.Headers, err)
	case f.Maintenance != nil:
		e.mark(f, r)
		until := now.Add(f.Maintenance.For.D())
		if e.d.Limits != nil {
			e.d.Limits.SetMaintenance(&limits.Maintenance{Message: f.Maintenance.Message, Until: until})
		}
		msg := f.Maintenance.Message
		if msg == "" {
			msg = "The service is under maintenance. Retry in a few minutes."
		}
		// No Retry-After: the service sends it only with a full bucket.
		api.WriteError(w, r, e.d.Headers, sandbox.Errorf(sandbox.KindUnavailable, limits.CodeMaintenance, "unknown", "%s", msg))
	default: // latency alone
		e.mark(f, r)
		next.ServeHTTP(w, r)
	}
}

// closeConnection drops the connection without an answer: hijacked and
// closed where the writer allows it, otherwise by aborting the handler,
// which makes net/http close it.
func closeConnection(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// statusKinds maps the statuses a respond fault may give to error kinds,
// with the default errorCode, instance and message of each.
var statusKinds = map[int]struct {
	kind     sandbox.Kind
	code     string
	instance string
	message  string
}{
	400: {sandbox.KindInvalid, sandbox.CodeValidation, "unknown", "One or more item-level validations failed."},
	401: {sandbox.KindUnauthorized, sandbox.CodeExpiredToken, "access-token", "The API access token expired. Request a new one from the e-shop's OAuth server."},
	403: {sandbox.KindForbidden, sandbox.CodeNoRights, "access-token", "The token has no right for this endpoint."},
	404: {sandbox.KindNotFound, sandbox.CodeNotFound, "unknown", "The entity does not exist."},
	409: {sandbox.KindConflict, sandbox.CodeConflict, "unknown", "The request conflicts with the current state."},
	413: {sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "unknown", "The request names more entities than the endpoint allows; nothing was changed."},
	422: {sandbox.KindUnprocessable, sandbox.CodeSchemaMismatch, "unknown", "The request does not match the expected JSON schema."},
	423: {sandbox.KindLocked, limits.CodeLocked, "unknown", "An identical request to this URL is being processed; retry later."},
	429: {sandbox.KindTooManyRequests, limits.CodeTooManyConnections, "access-token", "Too many concurrent connections with this token."},
	500: {sandbox.KindInternal, sandbox.CodeInternal, "unknown", "Internal server error. Retry later."},
	503: {sandbox.KindUnavailable, limits.CodeMaintenance, "unknown", "The service is under maintenance. Retry in a few minutes."},
}

// fullBucket is what a 429 with retryAfter answers unless the fault says
// otherwise: the bucket is full, the only answer with Retry-After.
var fullBucket = statusKinds[429]

func init() {
	fullBucket.code, fullBucket.message = limits.CodeRateLimited, "The rate limit bucket is full."
}

// respond answers with the spec's error envelope. A 429 with retryAfter
// is a full rate bucket held for that long (Limiter.HoldFull): Retry-After
// comes, as the spec says, only with a bucket that reads full, and calls
// before the date are refused as a full bucket refuses them. No other
// answer carries Retry-After (Check refuses retryAfter elsewhere).
func (e *Engine) respond(w http.ResponseWriter, r *http.Request, rs *Respond) {
	def, ok := statusKinds[rs.Status]
	if !ok {
		def = statusKinds[500]
	}
	held := rs.Status == http.StatusTooManyRequests && rs.RetryAfter != nil
	if held {
		def = fullBucket
	}
	code, inst, msg := def.code, def.instance, def.message
	if rs.ErrorCode != "" {
		code = rs.ErrorCode
	}
	if rs.Instance != "" {
		inst = rs.Instance
	}
	if rs.Message != "" {
		msg = rs.Message
	}
	var err error = sandbox.Errorf(def.kind, code, inst, "%s", msg)
	if held {
		if e.d.Limits == nil {
			w.Header().Set("Retry-After", sandbox.RetryAfterDate(e.d.Clock.Now().Add(rs.RetryAfter.D())))
		} else if full := e.d.Limits.HoldFull(w, r, rs.RetryAfter.D()); rs.ErrorCode == "" && rs.Instance == "" && rs.Message == "" {
			err = full // its message names the date
		}
	}
	api.WriteError(w, r, e.d.Headers, err)
}

// expireToken counts the call against its token and, once the token has
// had its After calls, expires it in the store (so authentication answers
// 401 expired-token from now on). It reports whether it expired the token
// on this call.
func (e *Engine) expireToken(f *Fault, r *http.Request) bool {
	c := api.CallOf(r)
	if c == nil {
		return false
	}
	tok, _ := c.Token()
	if tok == "" {
		return false
	}
	key := f.Name + "\x00" + tok
	e.mu.Lock()
	e.expiries[key]++
	n := e.expiries[key]
	e.mu.Unlock()
	if n != f.ExpireToken.After+1 {
		return false
	}
	err := e.d.Store.Update(func(tx *store.Tx) error { return auth.ExpireTokenNow(tx, tok) })
	if err != nil {
		if !errors.Is(err, sandbox.ErrNotFound) {
			e.d.Log.Error("scenario: expire token", "fault", f.Name, "err", err)
		}
		return false
	}
	c.Reidentify() // the endpoint must see the token expired
	return true
}

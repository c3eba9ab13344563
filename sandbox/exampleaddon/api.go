package exampleaddon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// APIError is an API answer with an error status, with the envelope's
// errors.
type APIError struct {
	Status int
	Errors []struct {
		ErrorCode string `json:"errorCode"`
		Message   string `json:"message"`
		Instance  string `json:"instance"`
	}
}

// Error implements the error interface.
func (e *APIError) Error() string {
	if len(e.Errors) == 0 {
		return fmt.Sprintf("HTTP %d", e.Status)
	}
	return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Errors[0].ErrorCode, e.Errors[0].Message)
}

// Code is the first errorCode of the answer ("" when none).
func (e *APIError) Code() string {
	if len(e.Errors) == 0 {
		return ""
	}
	return e.Errors[0].ErrorCode
}

// call sends one API request for an installation and decodes the
// envelope's data into out (when not nil). It follows the rules every
// client of the API must follow:
//
//   - Content-Type on every request, GET and DELETE included;
//   - at most MaxConcurrentCalls calls open at once with one API token
//     (notifications are processed in parallel, so the calls queue here);
//   - the API token in <prefix>-Access-Token, reused until it expires;
//   - on 401 expired-token, a new token and one more try;
//   - on 423 and 429, a pause as long as Retry-After says (an HTTP date,
//     counted from the answer's Date, or seconds), or exponential back-off
//     without it, then another try, at most MaxRetries times.
func (a *Addon) call(ctx context.Context, in *installation, method, path string, body, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	refreshed, retries := false, 0
	for {
		tok, err := a.apiToken(ctx, in)
		if err != nil {
			return err
		}
		release, err := in.acquire(ctx)
		if err != nil {
			return err
		}
		status, header, raw, err := a.send(ctx, method, path, tok, payload)
		release()
		if err != nil {
			return err
		}
		if status/100 == 2 {
			return decodeData(raw, out)
		}
		apiErr := &APIError{Status: status}
		var env struct {
			Errors json.RawMessage `json:"errors"`
		}
		if json.Unmarshal(raw, &env) == nil && len(env.Errors) > 0 {
			_ = json.Unmarshal(env.Errors, &apiErr.Errors)
		}
		switch {
		case status == http.StatusUnauthorized && apiErr.Code() == "expired-token" && !refreshed:
			a.log.Info("API token expired; fetching a new one", "eshop", in.EshopID)
			a.dropToken(in, tok)
			refreshed = true
			continue
		case (status == http.StatusLocked || status == http.StatusTooManyRequests) && retries < a.cfg.MaxRetries:
			d := retryDelay(header.Get("Retry-After"), retries, answerTime(header, a.Now()), a.cfg.MaxBackoff)
			retries++
			a.log.Warn("backing off", "status", status, "path", path, "wait", d)
			if err := a.Sleep(ctx, d); err != nil {
				return err
			}
			continue
		}
		return apiErr
	}
}

// MaxConcurrentCalls is the spec's limit of calls open at once with one
// API token: a 4th is refused with 429 too-many-connections.
const MaxConcurrentCalls = 3

// acquire waits for one of the installation's MaxConcurrentCalls call
// slots (or for ctx to end) and returns the function that frees it. A
// call holds its slot only while it is on the wire, not while it backs
// off.
func (in *installation) acquire(ctx context.Context) (func(), error) {
	in.slotsOnce.Do(func() { in.slots = make(chan struct{}, MaxConcurrentCalls) })
	select {
	case in.slots <- struct{}{}:
		return func() { <-in.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (a *Addon) send(ctx context.Context, method, path, tok string, payload []byte) (int, http.Header, []byte, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(a.cfg.APIURL, "/")+path, body)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(a.cfg.HeaderPrefix+"-Access-Token", tok)
	resp, err := a.HTTP.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, resp.Header, raw, err
}

func decodeData(raw []byte, out any) error {
	if out == nil {
		return nil
	}
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("answer is not the API envelope: %w", err)
	}
	if len(env.Data) == 0 || string(env.Data) == "null" {
		return errors.New("answer holds no data")
	}
	return json.Unmarshal(env.Data, out)
}

// answerTime is when the server dated an answer (its Date header), or now
// when it did not: a Retry-After date is on the server's clock, so the wait
// is Retry-After minus Date, whatever this machine's clock says (the
// sandbox's clock may have been moved days ahead).
func answerTime(h http.Header, now time.Time) time.Time {
	if t, err := http.ParseTime(h.Get("Date")); err == nil {
		return t
	}
	return now
}

// retryDelay is how long to wait before retrying after a 423 or 429:
// what Retry-After says (delta seconds, or an HTTP date measured against
// now), or else 1 s, 2 s, 4 s, ... up to max.
func retryDelay(retryAfter string, attempt int, now time.Time, max time.Duration) time.Duration {
	if retryAfter = strings.TrimSpace(retryAfter); retryAfter != "" {
		if secs, err := strconv.Atoi(retryAfter); err == nil && secs >= 0 {
			return time.Duration(secs) * time.Second
		}
		if at, err := http.ParseTime(retryAfter); err == nil {
			if d := at.Sub(now); d > 0 {
				return d
			}
			return 0
		}
	}
	d := time.Second << attempt
	if d > max || d <= 0 {
		d = max
	}
	return d
}

package api

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// MaxBodyBytes caps request bodies, for every route: a larger body answers
// 413 too-many-entities and is not read further.
const MaxBodyBytes = 8 << 20

// readBody reads the request body once, when the request has been
// admitted and processing starts, as a proxy that buffers bodies in front
// of the real service would: at most MaxBodyBytes (413 beyond), within the
// body timeout (a stalled body answers 408 and the connection is closed).
// Handlers get it from the call (Request.Body, Request.RawBody); the
// request's Body reads it again for the few that parse forms.
func (s *Server) readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := CallOf(r)
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			c.bodyRead = true
			w.Header().Del("Connection")
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > MaxBodyBytes {
			s.refuseTooLarge(w, r, 0)
			return
		}
		rc := http.NewResponseController(w)
		deadline := rc.SetReadDeadline(time.Now().Add(s.bodyTimeout)) == nil
		waitingForBody(r.Context(), true)
		raw, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		waitingForBody(r.Context(), false)
		if deadline {
			if err == nil && len(raw) <= MaxBodyBytes {
				_ = rc.SetReadDeadline(time.Time{})
			} else {
				// The rest of the body is not wanted: a deadline in the past
				// makes net/http close the connection at once instead of
				// waiting to discard it (refuseTooLarge drains it first).
				_ = rc.SetReadDeadline(time.Now())
			}
		}
		switch {
		case isTimeout(err):
			w.Header().Set("Connection", "close")
			s.writeError(w, r, sandbox.Errorf(sandbox.KindTimeout, sandbox.CodeRequestTimeout, "body",
				"The request body did not arrive within %s; the connection is closed.", s.bodyTimeout))
			return
		case err != nil:
			w.Header().Set("Connection", "close")
			s.writeError(w, r, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body could not be read: %s.", bodyReadError(err)))
			return
		case len(raw) > MaxBodyBytes:
			s.refuseTooLarge(w, r, int64(len(raw)))
			return
		}
		c.body, c.bodyRead = raw, true
		w.Header().Del("Connection") // see Server.ServeHTTP: the body is in, keep-alive may go on
		r.Body = io.NopCloser(bytes.NewReader(raw))
		next.ServeHTTP(w, r)
	})
}

// Bounds of the rest of an over-limit body that is read and discarded
// after the 413, so that the client sees the answer (see refuseTooLarge).
const (
	drainBytes   = 4 * MaxBodyBytes
	drainTimeout = 10 * time.Second
)

// refuseTooLarge answers 413 to a body over MaxBodyBytes, of which read
// bytes were read. Most clients send the whole body before they read the
// answer (no Expect: 100-continue); closing a connection with unread
// bytes resets it, and such a client sees the reset, not the 413. So
// the answer is sent first, then the rest of the body is read and
// discarded, up to drainBytes within drainTimeout, and only then is the
// connection closed. A client that waits for 100 Continue has not sent
// its body: nothing to drain.
func (s *Server) refuseTooLarge(w http.ResponseWriter, r *http.Request, read int64) {
	w.Header().Set("Connection", "close")
	rc := http.NewResponseController(w)
	drain := !strings.EqualFold(r.Header.Get("Expect"), "100-continue") &&
		(r.ContentLength < 0 || r.ContentLength-read <= drainBytes) &&
		rc.EnableFullDuplex() == nil
	s.writeError(w, r, tooLarge())
	if !drain {
		return
	}
	if rc.Flush() != nil {
		return
	}
	timeout := drainTimeout
	if s.bodyTimeout > 0 && s.bodyTimeout < timeout {
		timeout = s.bodyTimeout
	}
	if rc.SetReadDeadline(time.Now().Add(timeout)) != nil {
		return
	}
	_, _ = io.CopyN(io.Discard, r.Body, drainBytes)
}

func tooLarge() error {
	return sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "body",
		"The request body is larger than %d MiB.", MaxBodyBytes>>20)
}

func isTimeout(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// bodyReadError says why a body could not be read without internals.
func bodyReadError(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "the connection ended before the whole body arrived"
	}
	return "the body is malformed (" + truncate(err.Error(), 80) + ")"
}

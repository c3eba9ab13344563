// Package api is the HTTP core of the sandbox: the gorilla/mux router, the
// middleware chain (recover, request id, content type, authentication and
// rights), the response envelope, the one table that turns error kinds
// into HTTP statuses, request parsing (paging, include, language, bodies)
// and rendering of stored records. Behaviour packages only register
// handlers that return (data, error).
package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Envelope is the shape of every JSON response.
type Envelope struct {
	Data     any          `json:"data"`
	Errors   []ErrorItem  `json:"errors"`
	Metadata EnvelopeMeta `json:"metadata"`
}

// EnvelopeMeta carries the request id used for support and tracing.
type EnvelopeMeta struct {
	RequestID string `json:"requestId"`
}

// ErrorItem is one entry of the envelope's errors array.
type ErrorItem struct {
	ErrorCode string `json:"errorCode"`
	Message   string `json:"message"`
	Instance  string `json:"instance"`
}

// EncodedJSON is envelope data already encoded as JSON (for example a
// cached rendering); the envelope embeds it without encoding it again. It
// must be one valid JSON value.
type EncodedJSON []byte

// MarshalJSON embeds the encoded value, so EncodedJSON also works inside
// other data.
func (e EncodedJSON) MarshalJSON() ([]byte, error) { return e, nil }

// Result lets a handler choose a status other than 200 or return data
// together with skipped rows (multi-record PATCH answers 200 with errors).
type Result struct {
	Status int
	Data   any
	Errors []ErrorItem
}

// Raw is a non-JSON response (PDF, ISDOC, HTML, an image, a redirect).
type Raw struct {
	Status      int
	ContentType string
	Body        []byte
	// Header holds further headers of the answer (Location,
	// Cache-Control, ...), keys in canonical form.
	Header http.Header
}

// statusFor is the one place where error kinds become HTTP statuses.
var statusFor = map[sandbox.Kind]int{
	sandbox.KindInvalid:          http.StatusBadRequest,
	sandbox.KindUnauthorized:     http.StatusUnauthorized,
	sandbox.KindForbidden:        http.StatusForbidden,
	sandbox.KindNotFound:         http.StatusNotFound,
	sandbox.KindConflict:         http.StatusConflict,
	sandbox.KindTooLarge:         http.StatusRequestEntityTooLarge,
	sandbox.KindUnprocessable:    http.StatusUnprocessableEntity,
	sandbox.KindLocked:           http.StatusLocked,
	sandbox.KindTooManyRequests:  http.StatusTooManyRequests,
	sandbox.KindUnavailable:      http.StatusServiceUnavailable,
	sandbox.KindInternal:         http.StatusInternalServerError,
	sandbox.KindMisdirected:      http.StatusMisdirectedRequest,
	sandbox.KindUnsupportedMedia: http.StatusUnsupportedMediaType,
	sandbox.KindTimeout:          http.StatusRequestTimeout,
}

// StatusOf returns the HTTP status for an error.
func StatusOf(err error) int {
	if s, ok := statusFor[sandbox.AsError(err).Kind]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// writeJSON writes an envelope with the given status.
func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, status int, data any, errs []ErrorItem) {
	if err := WriteEnvelope(w, r, s.headers, status, data, errs); err != nil {
		s.log.Error("encode response", "requestId", RequestIDOf(r), "err", err)
	}
}

// envelopeHead opens an envelope whose data follows; envelopeTail and
// envelopeEnd close it around the request id.
const (
	envelopeHead = `{"data":`
	envelopeTail = `,"errors":null,"metadata":{"requestId":"`
	envelopeEnd  = "\"}}\n"
)

// WriteEnvelope writes data and errors in the envelope with the request's
// id, answering in the vendor media type when the client sent it. It is
// exported for middleware outside the router (limits, faults) that must
// answer in the same shape. An unencodable value becomes a 500 envelope
// and the encoding error is returned for logging.
func WriteEnvelope(w http.ResponseWriter, r *http.Request, h sandbox.Headers, status int, data any, errs []ErrorItem) error {
	id := RequestIDOf(r)
	if raw, ok := data.(EncodedJSON); ok && errs == nil {
		// Fast path for data rendered (and cached) beforehand: no
		// re-encoding. The envelope goes out in one write with its length
		// announced: three writes cost net/http a third write system call
		// per answer, far more than copying the cached bytes into a pooled
		// buffer (profiled: system calls are half of a read's time).
		hdr := w.Header()
		c := CallOf(r)
		hdr["Content-Type"] = c.HeaderValue(ResponseType(r, h))
		n := len(envelopeHead) + len(raw) + len(envelopeTail) + len(id) + len(envelopeEnd)
		hdr["Content-Length"] = c.HeaderValue(strconv.Itoa(n))
		w.WriteHeader(status)
		bp := envelopeBufs.Get().(*[]byte)
		b := append(append(append(append(append((*bp)[:0], envelopeHead...), raw...), envelopeTail...), id...), envelopeEnd...)
		if c != nil {
			// raw is cached and never changed: observers keep it as it is
			// and copy only the head and the tail around it.
			c.markShared(b, raw, len(envelopeHead))
		}
		_, _ = w.Write(b)
		if c != nil {
			c.markShared(nil, nil, 0)
		}
		if cap(b) <= maxPooledEnvelope {
			*bp = b
			envelopeBufs.Put(bp)
		}
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(Envelope{Data: data, Errors: errs, Metadata: EnvelopeMeta{RequestID: id}})
	if err != nil {
		buf.Reset()
		_ = enc.Encode(Envelope{Errors: []ErrorItem{{ErrorCode: sandbox.CodeInternal, Message: "Internal server error. The sandbox logged the details with the request id.", Instance: "unknown"}}, Metadata: EnvelopeMeta{RequestID: id}})
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", ResponseType(r, h))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
	return err
}

// WriteError writes the envelope of an error (its status from the one
// kind-to-status table).
func WriteError(w http.ResponseWriter, r *http.Request, h sandbox.Headers, err error) {
	_ = WriteEnvelope(w, r, h, StatusOf(err), nil, []ErrorItem{ErrorItemOf(err)})
}

// writeError writes the envelope of an error, logging internal causes.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := sandbox.AsError(err)
	status := StatusOf(e)
	if status >= 500 {
		s.log.Error("request failed", "requestId", RequestIDOf(r), "method", r.Method, "path", r.URL.Path, "err", err)
	} else if e.Err != nil {
		s.log.Debug("request refused", "requestId", RequestIDOf(r), "err", e.Err)
	}
	instance := e.Instance
	if instance == "" {
		instance = "unknown"
	}
	s.writeJSON(w, r, status, nil, []ErrorItem{{ErrorCode: e.Code, Message: e.Message, Instance: instance}})
}

// ResponseType answers in the vendor media type when the client sent it.
func ResponseType(r *http.Request, h sandbox.Headers) string {
	if ct := headerValue(r.Header, "Content-Type"); len(ct) >= len(h.VendorMediaType) && strings.EqualFold(ct[:len(h.VendorMediaType)], h.VendorMediaType) {
		return h.VendorResponse
	}
	return "application/json"
}

// ErrorItemOf turns an error into an envelope error item, for handlers
// that report skipped rows of a multi-record request.
func ErrorItemOf(err error) ErrorItem {
	e := sandbox.AsError(err)
	inst := e.Instance
	if inst == "" {
		inst = "unknown"
	}
	return ErrorItem{ErrorCode: e.Code, Message: e.Message, Instance: inst}
}

// SetExact sets a response header keeping the name's letter case on the
// wire. The service spells X-Request-ID and X-RateLimit-Bucket-Filling
// that way and its client library matches them case-sensitively, while
// http.Header.Set would send X-Request-Id and X-Ratelimit-Bucket-Filling.
func SetExact(h http.Header, name, value string) {
	SetExactValues(h, name, []string{value})
}

// SetExactValues is SetExact with the value list given, for instance
// from Call.HeaderValue.
func SetExactValues(h http.Header, name string, values []string) {
	delete(h, canonicalKey(name))
	h[name] = values
}

// envelopeBufs are the buffers cached answers are written from; answers
// larger than maxPooledEnvelope get a buffer of their own.
var envelopeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

const maxPooledEnvelope = 256 << 10

// canonicalKeys caches the canonical form of the few exact header names
// the sandbox writes: computing it allocated on every answer.
var canonicalKeys sync.Map // exact name -> canonical name

func canonicalKey(name string) string {
	if c, ok := canonicalKeys.Load(name); ok {
		return c.(string)
	}
	c := http.CanonicalHeaderKey(name)
	canonicalKeys.Store(name, c)
	return c
}

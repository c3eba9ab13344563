// Package sandboxtest starts a sandbox inside a Go test, in the manner of
// net/http/httptest: on 127.0.0.1 with a free port, seeded from the
// embedded fixtures (or a Config of your choosing), closed when the test
// ends. Add-on authors use it in their own tests; the sandbox's tests use
// it too.
package sandboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Server is a running sandbox.
type Server struct {
	URL     string // the sandbox's address, e.g. http://127.0.0.1:41234 (its base URL unless Config.PublicURL names another)
	App     *app.App
	Headers sandbox.Headers
	Client  *http.Client
	// Control is the typed client of the sandbox's control plane, for
	// what the helpers below do not cover.
	Control *controlclient.Client

	// The test's e-shop: the first of the fixtures (1001 with the
	// default ones), its address ({eshop_url}) and a private token with
	// every right, for calls made as the e-shop's owner.
	EshopID      int
	EshopURL     string
	PrivateToken string

	// WaitTimeout bounds the WaitFor helpers (DefaultWaitTimeout when 0).
	WaitTimeout time.Duration

	t   testing.TB
	ctl *controlSchemas
}

// New starts a sandbox for the test. Zero Config fields take their
// defaults (Seed 0: each sandbox draws its own random ids; set a Seed to
// reproduce ids from run to run), except two: Addr defaults to 127.0.0.1:0, and when Limits is
// nil the spec's limits apply but the rate bucket's capacity is raised to
// a million, so a fast test suite (or one on a frozen clock, where the
// bucket never drains) is not throttled by accident. Set Config.Limits to
// test the bucket itself.
func New(t testing.TB, cfg sandbox.Config) *Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Limits == nil {
		l := sandbox.DefaultLimits()
		l.BucketCapacity = 1_000_000
		cfg.Limits = &l
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a, err := app.Open(cfg, log)
	if err != nil {
		t.Fatalf("sandbox: %v", err)
	}
	a.Start()
	s := &Server{URL: a.ListenURL(), App: a, Headers: sandbox.NewHeaders(a.Config.HeaderPrefix), Client: &http.Client{Timeout: 30 * time.Second}, t: t, ctl: &controlSchemas{}}
	s.Control = controlclient.New(s.URL, &http.Client{Transport: checkingTransport{s: s, next: http.DefaultTransport}})
	s.Control.Unrecorded = true
	t.Cleanup(func() {
		// A connection the client dialled but never used (its transport
		// dials while it waits for a busy one) counts as active to
		// http.Server.Shutdown for five seconds: close those first.
		s.Client.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Errorf("sandbox close: %v", err)
		}
	})
	s.eshopFacts()
	return s
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(p, "\n")))
	return len(p), nil
}

// Response is a decoded answer.
type Response struct {
	Operation string // the route that answered ("" for unknown paths)
	Status    int
	Header    http.Header
	Body      []byte
	Env       Envelope
}

// Envelope is the response envelope, decoded loosely for assertions.
type Envelope struct {
	Data     json.RawMessage `json:"data"`
	Errors   []ErrorItem     `json:"errors"`
	Metadata struct {
		RequestID string `json:"requestId"`
	} `json:"metadata"`
}

// ErrorItem is one envelope error.
type ErrorItem struct {
	ErrorCode string `json:"errorCode"`
	Message   string `json:"message"`
	Instance  string `json:"instance"`
}

// Call describes one request.
type Call struct {
	Method       string
	Path         string // with query
	PrivateToken string
	AccessToken  string
	Body         any               // marshalled as JSON; a []byte or string is sent as is
	ContentType  string            // default application/json; "-" sends none
	Header       map[string]string // extra headers
	Headers      http.Header       // extra headers, every value sent (a header twice, say)
	Host         string            // the Host header, when not the server's own address
}

// Do sends a call and decodes the envelope (when the body is JSON).
func (s *Server) Do(c Call) *Response {
	s.t.Helper()
	var body io.Reader
	var sent []byte
	switch b := c.Body.(type) {
	case nil:
	case []byte:
		sent = b
	case string:
		sent = []byte(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatalf("marshal body: %v", err)
		}
		sent = raw
	}
	if c.Body != nil {
		body = bytes.NewReader(sent)
	}
	method := c.Method
	if method == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequest(method, s.URL+c.Path, body)
	if err != nil {
		s.t.Fatalf("request: %v", err)
	}
	switch c.ContentType {
	case "":
		req.Header.Set("Content-Type", "application/json")
	case "-":
	default:
		req.Header.Set("Content-Type", c.ContentType)
	}
	if c.PrivateToken != "" {
		req.Header.Set(s.Headers.PrivateToken, c.PrivateToken)
	}
	if c.AccessToken != "" {
		req.Header.Set(s.Headers.AccessToken, c.AccessToken)
	}
	for k, v := range c.Header {
		req.Header.Set(k, v)
	}
	for k, vs := range c.Headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if c.Host != "" {
		req.Host = c.Host
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, c.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("read body: %v", err)
	}
	out := &Response{Status: resp.StatusCode, Header: resp.Header, Body: raw, Operation: s.App.Server.Operation(req, sent)}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.Env); err != nil {
			s.t.Fatalf("%s %s: body is not an envelope: %v\n%s", method, c.Path, err, raw)
		}
		s.checkSchema(out)
	}
	return out
}

// checkControlSchema validates a successful control-plane answer against
// the answer schema its operation declares in the control plane's
// OpenAPI, so a handler and its documented answer cannot drift apart.
func (s *Server) checkControlSchema(r *Response) {
	s.t.Helper()
	if r.Status < 200 || r.Status > 299 {
		return
	}
	sch := s.controlSchema(r.Operation)
	if sch == nil {
		return
	}
	v, err := schemas.Decode(bytes.NewReader(r.Body))
	if err != nil {
		s.t.Fatalf("%s: answer is not JSON: %v", r.Operation, err)
	}
	if err := sch.Validate(v); err != nil {
		s.t.Errorf("%s: the answer does not match its schema in %s: %v\n%s", r.Operation, "/_sandbox/openapi-control.json", err, truncate(r.Body, 2000))
	}
}

// checkSchema validates every JSON answer of an API endpoint against the
// endpoint's response schema, so drift between the sandbox and the
// reference fails the test that saw it.
func (s *Server) checkSchema(r *Response) {
	s.t.Helper()
	if r.Operation == "" {
		return
	}
	if strings.HasPrefix(r.Operation, "sandbox.") {
		s.checkControlSchema(r)
		return
	}
	sch := s.App.Schemas.Response(r.Operation)
	if sch == nil {
		return
	}
	v, err := schemas.Decode(bytes.NewReader(r.Body))
	if err != nil {
		s.t.Fatalf("%s: response is not JSON: %v", r.Operation, err)
	}
	if err := sch.Validate(v); err != nil {
		s.t.Errorf("%s: response does not match its schema: %v\n%s", r.Operation, err, truncate(r.Body, 2000))
	}
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// Data decodes the envelope's data into v.
func (r *Response) Data(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Env.Data, v); err != nil {
		t.Fatalf("decode data: %v\n%s", err, r.Body)
	}
}

package traffic

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

var t0 = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

// recordOne runs one request through the middleware around h and returns
// the call it published.
func recordOne(t *testing.T, o Options, h http.Handler, req *http.Request) *bus.Call {
	t.Helper()
	b := bus.New()
	var got *bus.Call
	b.Hook(func(m bus.Message) {
		if m.Topic == bus.TopicCall {
			got = m.Data.(*bus.Call)
		}
	})
	r := New(Deps{Bus: b, Clock: sandbox.NewFrozenClock(t0)}, o)
	// The tap in a real server pipeline, with h answering in place of
	// the endpoints: the server reads the body, the tap shows it.
	req.Host = "127.0.0.1" // a name the sandbox answers to
	answer := api.Decorator{Stage: api.StageProcess, Name: "answer", Wrap: func(http.Handler) http.Handler { return h }}
	api.NewServer(api.Options{Decorators: []api.Decorator{r.Decorator(), answer}}).ServeHTTP(httptest.NewRecorder(), req)
	if got == nil {
		t.Fatal("no call published")
	}
	return got
}

// TestMiddlewareCapture checks what one call records: status, headers as
// sent, bodies cut at the cap and marked, the routing facts, the sandbox
// clock, and the 500 of a panicking handler.
func TestMiddlewareCapture(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Seen", r.Header.Get("X-Sent"))
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(body)
		w.Header().Set("X-Too-Late", "1") // after the status: not sent, not recorded
	})
	tests := []struct {
		name      string
		limit     int
		handler   http.Handler
		body      string
		status    int
		reqBody   string
		respBody  string
		truncated bool
	}{
		{"small body kept whole", 64, echo, "hello", 201, "hello", "hello", false},
		{"long body cut at the cap", 4, echo, "abcdefgh", 201, "abcd", "abcd", true},
		{"body never read by the handler is still recorded", 64, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
		}), `{"data":{}}`, 401, `{"data":{}}`, "", false},
		{"nothing written means 200", 64, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), "", 200, "", "", false},
		{"panic means 500", 64, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), "", 500, "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader = http.NoBody
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req := httptest.NewRequest(http.MethodPost, "/api/things?page=2&x=%C3%A9", body)
			req.Header.Set("X-Sent", "yes")
			c := recordOne(t, Options{BodyLimit: tc.limit}, tc.handler, req)
			if c.Status != tc.status || string(c.ReqBody) != tc.reqBody || c.RespBody.String() != tc.respBody || c.Truncated != tc.truncated {
				t.Fatalf("got status %d req %q resp %q truncated %v", c.Status, c.ReqBody, c.RespBody.String(), c.Truncated)
			}
			if c.Method != "POST" || c.Path != "/api/things?page=2&x=%C3%A9" || !c.Time.Equal(t0) || c.Duration < 0 {
				t.Fatalf("call: %+v", c)
			}
			if c.ReqHeader.Get("X-Sent") != "yes" || c.ReqHeader.Get("Host") == "" {
				t.Fatalf("request headers: %v", c.ReqHeader)
			}
			if c.ReqBodySize != int64(len(tc.body)) {
				t.Fatalf("request size %d, want %d", c.ReqBodySize, len(tc.body))
			}
			if tc.status == 201 && (c.RespHeader.Get("X-Seen") != "yes" || c.RespHeader.Get("X-Too-Late") != "") {
				t.Fatalf("response headers: %v", c.RespHeader)
			}
		})
	}
}

// BenchmarkMiddleware measures what recording adds to one small call
// (headers cloned, bodies copied, one bus message).
func BenchmarkMiddleware(b *testing.B) {
	bs := bus.New()
	r := New(Deps{Bus: bs, Clock: sandbox.NewClock()}, Options{})
	_ = r.Start(context.Background())
	defer func() { _ = r.Stop(context.Background()) }()
	h := r.Middleware(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, _ = io.ReadAll(req.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data":{"ok":true},"errors":null,"metadata":{"requestId":"x"}}`))
	}))
	body := `{"data":{"name":"Gift wrapping","priority":3}}`
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPatch, "/api/products/surcharge-parameters/gift", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}

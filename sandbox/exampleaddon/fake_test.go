package exampleaddon_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeService is a scripted stand-in for the e-shop service, for the
// rules the sandbox cannot be made to break on demand (423 and 429 with
// Retry-After, maximum_tokens_reached). It serves the OAuth server and a
// few API endpoints; script answers each API call in turn.
type fakeService struct {
	URL     string
	eshopID int

	mu           sync.Mutex
	apiScript    []func(w http.ResponseWriter) // answers for GET /api/orders, in order
	tokenScript  []func(w http.ResponseWriter) // answers for getAccessToken before a normal one
	tokensIssued int
	calls        []string // method path token of every API call
	signatureKey string
}

func newFake(t *testing.T) *fakeService {
	t.Helper()
	f := &fakeService{eshopID: 5, signatureKey: "fake-signature-key"}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /eshops/5/action/ApiOAuthServer/token", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		_ = json.NewDecoder(r.Body).Decode(&body)
		if body["code"] == "" || body["client_secret"] != "secret" || body["grant_type"] != "authorization_code" || body["scope"] != "api" {
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"error":"invalid_grant","error_description":"bad exchange"}`)
			return
		}
		_, _ = io.WriteString(w, `{"access_token":"oauth-token"}`)
	})
	mux.HandleFunc("GET /eshops/5/action/ApiOAuthServer/getAccessToken", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer oauth-token" {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"access_token":"","expires_in":0,"error":"invalid_token"}`)
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.tokenScript) > 0 {
			next := f.tokenScript[0]
			f.tokenScript = f.tokenScript[1:]
			next(w)
			return
		}
		f.tokensIssued++
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "api-token-" + string(rune('0'+f.tokensIssued)), "expires_in": 1800, "error": nil})
	})
	api := func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.calls = append(f.calls, r.Method+" "+r.URL.Path+" "+r.Header.Get("Service-Access-Token")+" "+r.Header.Get("Content-Type"))
		var next func(http.ResponseWriter)
		if r.URL.Path == "/api/orders" && len(f.apiScript) > 0 {
			next = f.apiScript[0]
			f.apiScript = f.apiScript[1:]
		}
		key := f.signatureKey
		f.mu.Unlock()
		if next != nil {
			next(w)
			return
		}
		switch r.URL.Path {
		case "/api/eshop":
			_, _ = io.WriteString(w, `{"data":{"contactInformation":{"eshopId":5}},"errors":null}`)
		case "/api/webhooks/renew-signature-key":
			_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]string{"signatureKey": key}, "errors": nil})
		case "/api/webhooks":
			_, _ = io.WriteString(w, `{"data":{"webhooks":[]},"errors":null}`)
		default:
			if strings.HasPrefix(r.URL.Path, "/api/orders/") {
				_, _ = io.WriteString(w, `{"data":{"order":{"code":"`+strings.TrimPrefix(r.URL.Path, "/api/orders/")+`","status":{"name":"New"}}},"errors":null}`)
				return
			}
			_, _ = io.WriteString(w, `{"data":{"orders":[]},"errors":null}`)
		}
	}
	mux.HandleFunc("/api/", api)
	f.URL = listen(t, mux)
	return f
}

func (f *fakeService) callLog() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func listen(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

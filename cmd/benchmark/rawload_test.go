package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The lean generator against a net/http server: answers framed by length
// and in chunks are read on kept-alive connections, the API headers
// arrive, and a non-2xx answer counts as an error.
func TestRawLoad(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Service-Private-API-Token") != "tok" || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/length":
			w.Header().Set("Content-Length", "2")
			_, _ = w.Write([]byte("ok"))
		case "/chunked":
			_, _ = w.Write([]byte(strings.Repeat("x", 100)))
			w.(http.Flusher).Flush()
			_, _ = w.Write([]byte("tail"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	for _, c := range []struct {
		paths  []string
		token  string
		errors bool
	}{
		{[]string{"/length"}, "tok", false},
		{[]string{"/chunked", "/length"}, "tok", false},
		{[]string{"/missing"}, "tok", true},
		{[]string{"/length"}, "", true},
	} {
		r := rawLoad(2, 200*time.Millisecond, srv.URL, rawGets(srv.URL, c.token, c.paths))
		if r.requests == 0 || r.rps <= 0 {
			t.Errorf("%v: no requests answered: %+v", c.paths, r)
		}
		if got := r.errors > 0; got != c.errors {
			t.Errorf("%v token %q: %d errors of %d", c.paths, c.token, r.errors, r.requests)
		}
		if c.errors && r.errors != r.requests {
			t.Errorf("%v: %d errors of %d, want all", c.paths, r.errors, r.requests)
		}
	}
}

// TestRawPost: the lean generator's POST arrives whole, with its body and
// the API headers, request after request on kept-alive connections, and
// wrk's POST script sends the same body.
func TestRawPost(t *testing.T) {
	body := []byte(`{"data":{"email":"bench@example.test","items":[{"amount":"1.000"}]}}`)
	var got atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != "/api/orders" || string(raw) != string(body) ||
			r.Header.Get("Service-Private-API-Token") != token || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "not the order", http.StatusBadRequest)
			return
		}
		got.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	r := rawLoad(2, 200*time.Millisecond, srv.URL, rawPost(srv.URL, "/api/orders", token, body))
	if r.requests == 0 || r.errors != 0 || int64(r.requests) != got.Load() {
		t.Fatalf("%d requests, %d errors, %d orders received", r.requests, r.errors, got.Load())
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		t.Log("wrk not installed: its POST is not exercised")
		return
	}
	before := got.Load()
	wr, err := runWrkPost(wrk, srv.URL+"/api/orders", body, 2, 1)
	if err != nil || wr.requests == 0 || wr.errors != 0 || got.Load() == before {
		t.Fatalf("wrk POST: %+v %v, %d orders received", wr, err, got.Load()-before)
	}
}

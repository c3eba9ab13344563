package app_test

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestLimitsThroughTheSandbox checks, through the real server, that every
// API answer carries the bucket header (errors too), that maintenance
// mode answers 503 in the envelope, and that the bucket refuses with 429
// and Retry-After once full.
func TestLimitsThroughTheSandbox(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.BucketCapacity = 5
	s := sandboxtest.New(t, sandbox.Config{Limits: &lim})
	f := loadFacts(t)
	for _, c := range []sandboxtest.Call{
		{Path: "/api/eshop", PrivateToken: f.FullToken},
		{Path: "/api/orders", AccessToken: f.AddonToken},
		{Path: "/api/eshop"},
		{Path: "/api/products/nope", PrivateToken: f.OrdersReadToken},
	} {
		r := s.Do(c)
		if r.Header.Get("X-RateLimit-Bucket-Filling") == "" {
			t.Fatalf("%s (%d): no bucket header", c.Path, r.Status)
		}
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/maintenance", Body: map[string]any{"on": true, "message": "Upgrading the database."}}); r.Status != 200 {
		t.Fatalf("maintenance on: %d %s", r.Status, r.Body)
	}
	r := s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.OtherToken})
	if r.Status != 503 || r.Env.Errors[0].ErrorCode != "maintenance" || r.Env.Errors[0].Message != "Upgrading the database." {
		t.Fatalf("during maintenance: %d %s", r.Status, r.Body)
	}
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/maintenance", Body: map[string]any{"on": false}})
	var last *sandboxtest.Response
	for i := 0; i < 6; i++ {
		last = s.Do(sandboxtest.Call{Path: "/api/orders/statuses", PrivateToken: f.OtherToken})
	}
	if last.Status != 429 || last.Header.Get("Retry-After") == "" || last.Header.Get("X-RateLimit-Bucket-Filling") != "5/5" {
		t.Fatalf("full bucket: %d %v", last.Status, last.Header)
	}
}

// TestHeaderSpellingOnTheWire checks the exact letter case of the
// headers the service's client library matches case-sensitively.
func TestHeaderSpellingOnTheWire(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	f := loadFacts(t)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/orders/statuses HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nService-Private-API-Token: %s\r\nConnection: close\r\n\r\n", f.FullToken)
	raw, _ := io.ReadAll(conn)
	head := string(raw[:bytes.Index(raw, []byte("\r\n\r\n"))])
	for _, want := range []string{"\r\nX-Request-ID: ", "\r\nX-RateLimit-Bucket-Filling: "} {
		if !strings.Contains(head, want) {
			t.Errorf("header %q not spelled exactly on the wire:\n%s", strings.TrimSpace(want), head)
		}
	}
}

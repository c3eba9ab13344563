package app_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// The edge guards of the request pipeline (issue 13), each through a real
// socket.

// TestHostCheck: the API, the control plane and the e-shop pages answer
// only to loopback names, the host of --addr and the host of --public-url;
// any other Host (a DNS-rebinding page) gets 421 in the envelope, naming
// the flag that allows it.
func TestHostCheck(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	pub := sandboxtest.New(t, sandbox.Config{PublicURL: "http://sandbox.test:8080"})
	paths := []sandboxtest.Call{
		{Path: "/api/eshop", PrivateToken: f.FullToken},
		{Path: "/_sandbox/eshops"},
		{Path: "/_sandbox/traffic.har"},
		{Path: "/_sandbox/traffic?follow=1"},
		{Path: "/eshops/1001/"},
	}
	tests := []struct {
		srv    *sandboxtest.Server
		host   string
		status int
	}{
		{s, "127.0.0.1", 200},
		{s, "localhost:8080", 200},
		{s, "LOCALHOST.", 200},
		{s, "[::1]:8080", 200},
		{s, "127.0.0.2", 200},
		{s, "rebind.attacker.example", 421},
		{s, "rebind.attacker.example:8080", 421},
		{s, "sandbox.test:8080", 421},
		{s, "10.1.2.3", 421},
		{pub, "sandbox.test:8080", 200},
		{pub, "sandbox.test", 200},
		{pub, "127.0.0.1", 200},
		{pub, "other.test", 421},
	}
	for _, tc := range tests {
		for _, c := range paths {
			if strings.Contains(c.Path, "follow") && tc.status == 200 {
				continue // a stream that is let in never ends
			}
			c.Host = tc.host
			r := tc.srv.Do(c)
			if r.Status != tc.status {
				t.Errorf("Host %s %s: %d, want %d: %.200s", tc.host, c.Path, r.Status, tc.status, r.Body)
				continue
			}
			if tc.status == 421 {
				e := r.Env.Errors
				if len(e) != 1 || e[0].ErrorCode != sandbox.CodeMisdirected || e[0].Instance != "Host" || !strings.Contains(e[0].Message, "--public-url") {
					t.Errorf("Host %s %s: envelope %s", tc.host, c.Path, r.Body)
				}
				if strings.Contains(string(r.Body), f.FullToken) {
					t.Errorf("Host %s %s: a refused answer leaks a token", tc.host, c.Path)
				}
			}
		}
	}
}

// TestControlPlaneRefusesCrossSiteChanges: a state-changing control
// request that a web page could send (a CORS-simple body, a foreign
// Origin, Sec-Fetch-Site: cross-site) is refused and changes nothing;
// reading the control plane from a foreign Origin gets no CORS permission.
func TestControlPlaneRefusesCrossSiteChanges(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	brand := func() int {
		return s.Do(sandboxtest.Call{Path: "/api/brands/cross-site-probe", PrivateToken: f.FullToken}).Status
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/brands", PrivateToken: f.FullToken, Body: `{"data":{"name":"Cross Site Probe"}}`}); r.Status != 201 {
		t.Fatalf("create brand: %d %s", r.Status, r.Body)
	}
	clock := func() string { // its offset from the wall clock: a refused move leaves it at 0s
		var c struct {
			Offset string `json:"offset"`
		}
		s.Do(sandboxtest.Call{Path: "/_sandbox/clock"}).Data(t, &c)
		return c.Offset
	}
	before := clock()
	own := s.URL
	tests := []struct {
		name   string
		call   sandboxtest.Call
		status int
		code   string
	}{
		{"reset as text/plain", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", Body: `{}`, ContentType: "text/plain"}, 415, sandbox.CodeInvalidContentType},
		{"reset as a form", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", Body: `a=1`, ContentType: "application/x-www-form-urlencoded"}, 415, sandbox.CodeInvalidContentType},
		{"reset as multipart", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", Body: "--x--\r\n", ContentType: "multipart/form-data; boundary=x"}, 415, sandbox.CodeInvalidContentType},
		{"reset, empty form", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", ContentType: "application/x-www-form-urlencoded"}, 415, sandbox.CodeInvalidContentType},
		{"clock as text/plain", sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, ContentType: "text/plain"}, 415, sandbox.CodeInvalidContentType},
		{"body without a type", sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, ContentType: "-"}, 415, sandbox.CodeInvalidContentType},
		{"reset from a foreign origin", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", Header: map[string]string{"Origin": "http://attacker.example"}}, 403, sandbox.CodeCrossSite},
		{"clock from a foreign origin", sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, Header: map[string]string{"Origin": "http://localhost:3000"}}, 403, sandbox.CodeCrossSite},
		{"null origin", sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", Header: map[string]string{"Origin": "null"}}, 403, sandbox.CodeCrossSite},
		{"cross-site fetch", sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, Header: map[string]string{"Sec-Fetch-Site": "cross-site"}}, 403, sandbox.CodeCrossSite},
		{"limits as text/plain", sandboxtest.Call{Method: "PATCH", Path: "/_sandbox/limits", Body: `{"perToken":1}`, ContentType: "text/plain"}, 415, sandbox.CodeInvalidContentType},
	}
	for _, tc := range tests {
		r := s.Do(tc.call)
		if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != tc.code || len(r.Env.Errors[0].Message) < 20 {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.Status, r.Body, tc.status, tc.code)
		}
	}
	if got := brand(); got != 200 {
		t.Fatalf("a refused reset reset the sandbox: the brand answers %d", got)
	}
	if got := clock(); got != before {
		t.Fatalf("a refused clock change moved the clock: %s -> %s", before, got)
	}
	if r := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops", Header: map[string]string{"Origin": "http://attacker.example"}}); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("a foreign origin was granted CORS: %v", r.Header)
	}
	// The sandbox's own clients: JSON, or no body, from no or its own origin.
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: `{"advance":"3h"}`, Header: map[string]string{"Origin": own}}); r.Status != 200 {
		t.Fatalf("JSON from the own origin: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", ContentType: "-", Header: map[string]string{"Sec-Fetch-Site": "same-origin"}}); r.Status != 200 {
		t.Fatalf("reset without a body: %d %s", r.Status, r.Body)
	}
	if got := brand(); got != 404 {
		t.Fatalf("the accepted reset did not reset: the brand answers %d", got)
	}
}

// TestUncleanPathsAnswer404: dot segments and double slashes answer 404
// in the envelope for every method, never a bare redirect.
func TestUncleanPathsAnswer404(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	for _, p := range []string{"/api//orders", "/api/products/%2e%2e", "/api/./orders", "/api/orders/../products", "//api/orders", "/_sandbox//health", "/eshops/1001//"} {
		for _, m := range []string{"GET", "POST", "PATCH", "PUT", "DELETE"} {
			r := s.Do(sandboxtest.Call{Method: m, Path: p, PrivateToken: f.FullToken, Body: `{"data":{}}`})
			if r.Status != 404 || len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != sandbox.CodeNotFound || r.Header.Get("Location") != "" {
				t.Errorf("%s %s: %d %v %s", m, p, r.Status, r.Header, r.Body)
			}
		}
	}
}

// TestNumbersBeyondTheirType: numbers a field's type cannot hold answer
// 422 schema-mismatch naming the field, and nothing is stored or cleared.
func TestNumbersBeyondTheirType(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	const path = "/api/products/surcharge-parameters/gift-wrapping"
	priority := func() string {
		var d struct {
			SurchargeParameter struct {
				Priority any `json:"priority"`
			} `json:"surchargeParameter"`
		}
		s.Do(sandboxtest.Call{Path: path, PrivateToken: f.FullToken}).Data(t, &d)
		return fmt.Sprint(d.SurchargeParameter.Priority)
	}
	before := priority()
	if before == "<nil>" {
		t.Fatal("the fixture's priority is null; the test needs a value to see it kept")
	}
	for _, v := range []string{"1e309", "-1e309", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890"} {
		r := s.Do(sandboxtest.Call{Method: "PATCH", Path: path, PrivateToken: f.FullToken, Body: `{"data":{"priority":` + v + `}}`})
		if r.Status != 422 || len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != sandbox.CodeSchemaMismatch || r.Env.Errors[0].Instance != "data.priority" {
			t.Errorf("priority %s: %d %s", v, r.Status, r.Body)
		}
		if got := priority(); got != before {
			t.Fatalf("priority %s changed the record: %s -> %s", v, before, got)
		}
	}
	// A number field (not integer): finite doubles only.
	r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/orders/status-change", PrivateToken: f.FullToken, Body: `{"data":{"statusId":1e400,"orderCodes":["2025000001"]}}`})
	if r.Status != 422 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "data.statusId" {
		t.Errorf("statusId 1e400: %d %s", r.Status, r.Body)
	}
	// The largest values that fit are taken.
	if r := s.Do(sandboxtest.Call{Method: "PATCH", Path: path, PrivateToken: f.FullToken, Body: `{"data":{"priority":9223372036854775807}}`}); r.Status != 200 {
		t.Errorf("priority at the int64 maximum: %d %s", r.Status, r.Body)
	}
}

// TestConflictingTokenHeaders: a token header sent twice, or both token
// headers with different tokens, answer 401 naming the headers; the
// first token never wins silently.
func TestConflictingTokenHeaders(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	h := s.Headers
	tests := []struct {
		name    string
		headers http.Header
		status  int
		mention []string
	}{
		{"private header twice", http.Header{h.PrivateToken: {f.FullToken, f.OrdersReadToken}}, 401, []string{h.PrivateToken, "2 times"}},
		{"private header twice, same token", http.Header{h.PrivateToken: {f.FullToken, f.FullToken}}, 401, []string{h.PrivateToken}},
		{"access header twice", http.Header{h.AccessToken: {f.AddonToken, f.ExpiredToken}}, 401, []string{h.AccessToken}},
		{"both headers, different tokens", http.Header{h.PrivateToken: {f.FullToken}, h.AccessToken: {f.AddonToken}}, 401, []string{h.PrivateToken, h.AccessToken}},
		{"one header", http.Header{h.PrivateToken: {f.FullToken}}, 200, nil},
	}
	for _, tc := range tests {
		r := s.Do(sandboxtest.Call{Path: "/api/eshop", Headers: tc.headers})
		if r.Status != tc.status {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
			continue
		}
		if tc.status == 401 {
			e := r.Env.Errors
			if len(e) != 1 || e[0].ErrorCode != sandbox.CodeInvalidToken || e[0].Instance != "access-token" {
				t.Errorf("%s: %s", tc.name, r.Body)
				continue
			}
			for _, m := range tc.mention {
				if !strings.Contains(e[0].Message, m) {
					t.Errorf("%s: message %q does not name %q", tc.name, e[0].Message, m)
				}
			}
		}
	}
}

// TestLimitsCountCallsWhoseBodyIsArriving: a call is counted against its
// token's 3 concurrent calls from the moment its headers have arrived,
// while its body still trickles in, so a 4th is refused at once.
func TestLimitsCountCallsWhoseBodyIsArriving(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	addr := strings.TrimPrefix(s.URL, "http://")
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	hold := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST /api/brands HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s: %s\r\nContent-Length: 100\r\n\r\n{\"data\":", addr, s.Headers.PrivateToken, f.FullToken)
		return c
	}
	for i := 0; i < 3; i++ {
		held = append(held, hold())
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		r := s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken})
		if r.Status == 429 && r.Env.Errors[0].ErrorCode == "too-many-connections" {
			break
		}
		// A probe that reached the sandbox before a held call's headers
		// took that call's place, and the held call was answered 429: a
		// held call that got an answer is replaced by a new one, so the
		// three are all in progress together before the next probe.
		for i, c := range held {
			_ = c.SetReadDeadline(time.Now().Add(time.Millisecond))
			if n, _ := c.Read(make([]byte, 1)); n > 0 {
				c.Close()
				held[i] = hold()
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("three calls with their bodies arriving are not counted: the 4th answers %d %s", r.Status, r.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, c := range held {
		c.Close()
	}
	held = nil
	deadline = time.Now().Add(15 * time.Second)
	for {
		r := s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken})
		if r.Status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the token stays blocked after its calls were dropped: %d %s", r.Status, r.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStalledBodyGets408: a body that stops arriving answers 408 in the
// envelope after the body timeout, and the connection is closed.
func TestStalledBodyGets408(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{BodyTimeout: 300 * time.Millisecond})
	addr := strings.TrimPrefix(s.URL, "http://")
	for _, path := range []string{"/api/brands", "/_sandbox/clock", "/eshops/1001/action/ApiOAuthServer/token"} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%s: %s\r\nContent-Length: 100\r\n\r\n{\"da", path, addr, s.Headers.PrivateToken, f.FullToken)
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: no answer to a stalled body: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 408 || !strings.Contains(string(body), `"errorCode":"request-timeout"`) || !resp.Close {
			t.Errorf("%s: %d close=%v %s", path, resp.StatusCode, resp.Close, body)
		}
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if n, err := c.Read(make([]byte, 1)); err == nil || isTimeout(err) {
			t.Errorf("%s: the connection stays open after the 408 (read %d bytes, %v)", path, n, err)
		}
		c.Close()
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// TestShutdownDoesNotWaitForUnusedConnections: a client that opened a
// connection and never sent a request does not hold a shutdown up
// (net/http alone waits 5 seconds for it).
func TestShutdownDoesNotWaitForUnusedConnections(t *testing.T) {
	a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	c, err := net.Dial("tcp", strings.TrimPrefix(a.ListenURL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Accepted and tracked: connections are accepted one after another in
	// the order they arrived, so once a later one's request is answered,
	// the unused one was accepted (and tracked) before it.
	probe := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	resp, err := probe.Get(a.ListenURL() + "/_sandbox/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	began := time.Now()
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Fatalf("shutdown took %s with one unused connection open", d)
	}
}

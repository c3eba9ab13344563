package traffic_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

var t0 = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

// tokens reads the fixture tokens from the control plane, so the tests
// never hard-code them.
type tokens struct{ private1001, private1002 string }

func fixtureTokens(t *testing.T, s *sandboxtest.Server) tokens {
	t.Helper()
	var data struct {
		Eshops []struct {
			ID            int `json:"id"`
			PrivateTokens []struct {
				Token string `json:"token"`
				All   bool   `json:"allGroups"`
			} `json:"privateTokens"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &data)
	var tk tokens
	for _, e := range data.Eshops {
		for _, p := range e.PrivateTokens {
			if !p.All {
				continue
			}
			switch {
			case e.ID == 1001 && tk.private1001 == "":
				tk.private1001 = p.Token
			case e.ID == 1002 && tk.private1002 == "":
				tk.private1002 = p.Token
			}
		}
	}
	if tk.private1001 == "" || tk.private1002 == "" {
		t.Fatalf("fixtures lack full private tokens: %+v", data)
	}
	return tk
}

// history polls GET /_sandbox/traffic until it holds want events (the
// feed is asynchronous by design) and returns them.
func history(t *testing.T, s *sandboxtest.Server, query string, want int) traffic.Snapshot {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var snap traffic.Snapshot
		r := s.Do(sandboxtest.Call{Path: traffic.HistoryPath + query})
		if r.Status != 200 {
			t.Fatalf("history: %d %s", r.Status, r.Body)
		}
		r.Data(t, &snap)
		if len(snap.Events) >= want || time.Now().After(deadline) {
			if len(snap.Events) < want {
				t.Fatalf("history has %d events, want %d", len(snap.Events), want)
			}
			return snap
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRecordsCalls sends calls of every kind through a real sandbox and
// checks each recorded row: e-shop, token kind, operation, status, the
// request id the client saw, headers and bodies. The traffic endpoints
// themselves are not recorded.
func TestRecordsCalls(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Clock: sandbox.NewFrozenClock(t0)})
	tk := fixtureTokens(t, s)
	tests := []struct {
		name      string
		call      sandboxtest.Call
		status    int
		eshop     int
		tokenKind string
		operation string
	}{
		{"private token, e-shop 1001", sandboxtest.Call{Path: "/api/eshop?include=orderStatuses", PrivateToken: tk.private1001}, 200, 1001, "private", "GetEshopInfo"},
		{"private token, e-shop 1002", sandboxtest.Call{Path: "/api/orders?page=1", PrivateToken: tk.private1002}, 200, 1002, "private", "GetListOfOrders"},
		{"no token", sandboxtest.Call{Path: "/api/eshop"}, 401, 0, "", "GetEshopInfo"}, // the route is known even when the call is refused
		{"body refused by the schema", sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/x", PrivateToken: tk.private1001,
			Body: map[string]any{"data": map[string]any{"required": "yes"}}}, 422, 1001, "private", "UpdateSurchargeParameter"},
		{"unknown path", sandboxtest.Call{Path: "/api/nowhere"}, 404, 0, "", ""},
		{"control plane", sandboxtest.Call{Path: "/_sandbox/health"}, 200, 0, "", "sandbox.health"},
	}
	var sent []*sandboxtest.Response
	for _, tc := range tests {
		sent = append(sent, s.Do(tc.call))
	}
	s.Do(sandboxtest.Call{Path: traffic.HARPath})
	// eshops lookup + the calls above; the history and HAR reads are not recorded
	snap := history(t, s, "", len(tests)+1)
	if len(snap.Events) != len(tests)+1 {
		t.Fatalf("%d events, want %d (traffic reads must not be recorded)", len(snap.Events), len(tests)+1)
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := snap.Events[i+1]
			c := ev.Call
			if ev.Type != traffic.TypeCall || c == nil {
				t.Fatalf("event %+v", ev)
			}
			method := tc.call.Method
			if method == "" {
				method = "GET"
			}
			if c.Method != method || c.Path != tc.call.Path || c.Status != tc.status || c.Eshop != tc.eshop || c.TokenKind != tc.tokenKind || c.Operation != tc.operation {
				t.Fatalf("recorded %s %s %d eshop %d %q %q", c.Method, c.Path, c.Status, c.Eshop, c.TokenKind, c.Operation)
			}
			// The tap keeps the header names as sent on the wire:
			// X-Request-ID, not Go's canonical X-Request-Id.
			if c.ID == "" || c.ID != sent[i].Header.Get("X-Request-ID") || len(c.RespHeader["X-Request-ID"]) != 1 || c.RespHeader["X-Request-ID"][0] != c.ID {
				t.Fatalf("request id %q, client saw %q", c.ID, sent[i].Header.Get("X-Request-ID"))
			}
			if !bytes.Equal(c.RespBody.Bytes(), sent[i].Body) || c.RespBodySize != int64(len(sent[i].Body)) || c.Truncated {
				t.Fatalf("response body differs:\n%s\n%s", c.RespBody.Bytes(), sent[i].Body)
			}
			if tc.call.Body != nil {
				want, _ := json.Marshal(tc.call.Body)
				if !bytes.Equal(c.ReqBody, want) {
					t.Fatalf("request body %s, want %s", c.ReqBody, want)
				}
			}
			if tc.call.PrivateToken != "" && c.ReqHeader.Get(s.Headers.PrivateToken) != tc.call.PrivateToken {
				t.Fatalf("request headers %v", c.ReqHeader)
			}
			if !c.Time.Equal(t0) {
				t.Fatalf("time %v is not the sandbox clock", c.Time)
			}
		})
	}
	if snap.Info.BaseURL != s.URL || len(snap.Info.Eshops) != 2 || snap.Info.History != traffic.DefaultHistory || !snap.Info.Now.Equal(t0) {
		t.Fatalf("info %+v", snap.Info)
	}
	if e := snap.Info.Eshops[0]; e.ID != 1001 || len(e.Tokens) == 0 || e.URL != s.URL+"/eshops/1001" {
		t.Fatalf("e-shop info %+v", e)
	}
	if got := history(t, s, "?limit=2", 2); len(got.Events) != 2 || got.Events[1].Call.Path != "/_sandbox/health" {
		t.Fatalf("limit=2: %+v", got.Events)
	}
	if got := history(t, s, "?since=6", 1); len(got.Events) != 1 || got.Events[0].Seq != 7 {
		t.Fatalf("since=6: %+v", got.Events)
	}
}

// TestBadParameters checks that wrong query parameters get the envelope
// with a 400 naming the parameter, for the history, the stream and HAR.
func TestBadParameters(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	for _, path := range []string{
		traffic.HistoryPath + "?limit=0",
		traffic.HistoryPath + "?limit=ten",
		traffic.HistoryPath + "?since=-1",
		traffic.HistoryPath + "?follow=maybe",
		traffic.HistoryPath + "?follow=1&since=x",
		traffic.HARPath + "?limit=-5",
	} {
		r := s.Do(sandboxtest.Call{Path: path})
		want := path[strings.Index(path, "?")+1 : strings.Index(path, "=")]
		if strings.Contains(path, "follow=1&") {
			want = "since"
		}
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != "invalid-parameter" || r.Env.Errors[0].Instance != want {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
}

// TestStream follows the live stream: info first, then the history, then
// a call made afterwards; a reconnect with since resumes after it.
func TestStream(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	tk := fixtureTokens(t, s)
	history(t, s, "", 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msgs := make(chan traffic.StreamMessage, 100)
	errc := make(chan error, 1)
	go func() {
		_, err := traffic.Follow(ctx, s.Client, s.URL, 0, func(m traffic.StreamMessage) { msgs <- m })
		errc <- err
	}()
	next := func() traffic.StreamMessage {
		t.Helper()
		select {
		case m := <-msgs:
			return m
		case err := <-errc:
			t.Fatalf("stream ended: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatal("no stream message within 5s")
		}
		return traffic.StreamMessage{}
	}
	if m := next(); m.Info == nil || m.Info.BaseURL != s.URL {
		t.Fatalf("first message %+v", m)
	}
	if m := next(); m.Event == nil || m.Event.Call.Path != "/_sandbox/eshops" {
		t.Fatalf("history message %+v", m)
	}
	live := s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: tk.private1001})
	m := next()
	if m.Event == nil || m.Event.Call.ID != live.Header.Get("X-Request-ID") || m.Event.Seq != 2 {
		t.Fatalf("live message %+v", m)
	}
	s.App.Bus.Emit(bus.TopicClock, bus.ClockMove{Now: t0, Offset: time.Hour})
	if m := next(); m.Event == nil || m.Event.Clock == nil || m.Event.Clock.Offset != time.Hour {
		t.Fatalf("clock message %+v", m)
	}
	cancel()
	<-errc

	var resumed []string
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	last, _ := traffic.Follow(ctx2, s.Client, s.URL, 1, func(m traffic.StreamMessage) {
		if m.Event != nil {
			resumed = append(resumed, m.Event.Call.Path)
			if len(resumed) == 1 {
				cancel2()
			}
		}
	})
	if len(resumed) != 1 || resumed[0] != "/api/eshop" || last != 2 {
		t.Fatalf("resumed after 1: %v (last %d)", resumed, last)
	}
}

// TestNeverBlocksTheServer stalls every consumer (a bus subscriber that
// never reads, a stream client that never reads) and checks that calls
// still all complete quickly, with the losses counted.
func TestNeverBlocksTheServer(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	stuck := s.App.Bus.Subscribe(8) // a UI that stopped reading
	defer stuck.Close()
	resp, err := s.Client.Get(s.URL + traffic.HistoryPath + "?follow=1") // a stream nobody reads
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()

	const n = 240
	big := strings.Repeat("x", 16<<10) // fills the stalled stream's socket buffers fast
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < 6; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n/6; i++ {
				r, err := http.Post(s.URL+"/_sandbox/health", "text/plain", strings.NewReader(big))
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				r.Body.Close()
			}
		}()
	}
	wg.Wait()
	// A reader that could hold requests up would deadlock them; the bound
	// is loose so a loaded CI machine does not fail the test.
	if took := time.Since(start); took > time.Minute {
		t.Fatalf("%d calls took %v with stalled readers", n, took)
	}
	if got := stuck.Dropped(); got != n-8 {
		t.Fatalf("stalled subscriber dropped %d, want %d", got, n-8)
	}
}

// TestShutdownEndsStreams checks that an open stream does not hold up a
// graceful shutdown.
func TestShutdownEndsStreams(t *testing.T) {
	a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0", Seed: 1}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	a.Start()
	resp, err := http.Get(a.BaseURL() + traffic.HistoryPath + "?follow=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	// Without the tap ending its streams, Shutdown waits for them
	// until the deadline and reports it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatalf("close with a stream open: %v", err)
	}
	if _, err := io.ReadAll(resp.Body); err != nil {
		t.Fatalf("the stream did not end cleanly: %v", err)
	}
}

// TestHARValidates exports calls and webhook attempts as HAR and checks
// the document against a HAR 1.2 JSON Schema, then a few facts a browser
// would show.
func TestHARValidates(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Clock: sandbox.NewFrozenClock(t0)})
	tk := fixtureTokens(t, s)
	s.Do(sandboxtest.Call{Path: "/api/orders?page=1&itemsPerPage=2", PrivateToken: tk.private1001})
	s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/x", PrivateToken: tk.private1001, Body: `{"data":{"required":"yes"}}`})
	// A binary body on an API path: read (then refused for its content type).
	s.Do(sandboxtest.Call{Method: "POST", Path: "/api/orders", Body: []byte{0xff, 0xfe, 0x00}, ContentType: "application/octet-stream"})
	next := t0.Add(time.Minute)
	s.App.Bus.Emit(bus.TopicDelivery, &bus.Delivery{ID: "dlv-1", Attempt: 1, Time: t0, Duration: 3 * time.Millisecond, Eshop: 1001,
		Event: "order:create", Instance: "2025000001", URL: "http://127.0.0.1:9/hook", Signature: "abc123", Status: 0,
		Error: "connection refused", ReqBody: []byte(`{"eshopId":1001}`), NextTry: &next, Fault: "receiver-down"})
	s.App.Bus.Emit(bus.TopicDelivery, bus.Delivery{ID: "dlv-1", Attempt: 2, Time: next, Duration: 2 * time.Millisecond, Eshop: 1001,
		Event: "order:create", Instance: "2025000001", URL: "http://127.0.0.1:9/hook", Signature: "abc123", Status: 200, Succeeded: true, Final: true,
		ReqBody: []byte(`{"eshopId":1001}`), RespBody: []byte("ok")})
	history(t, s, "", 6)

	r := s.Do(sandboxtest.Call{Path: traffic.HARPath})
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("HAR: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	schema := compileHARSchema(t)
	var doc any
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Fatalf("HAR does not validate: %v", err)
	}
	var har traffic.HAR
	if err := json.Unmarshal(r.Body, &har); err != nil {
		t.Fatal(err)
	}
	e := har.Log.Entries
	if har.Log.Version != "1.2" || len(e) != 6 {
		t.Fatalf("version %s, %d entries", har.Log.Version, len(e))
	}
	byType := map[string][]traffic.HAREntry{}
	for _, x := range e {
		byType[x.Type] = append(byType[x.Type], x)
	}
	if len(byType["call"]) != 4 || len(byType["webhook"]) != 2 {
		t.Fatalf("types %v", byType)
	}
	orders := byType["call"][1]
	if orders.Request.URL != s.URL+"/api/orders?page=1&itemsPerPage=2" || len(orders.Request.QueryString) != 2 || orders.Response.Status != 200 || orders.Eshop != 1001 || orders.Operation != "GetListOfOrders" {
		t.Fatalf("orders entry %+v", orders)
	}
	if p := byType["call"][2].Request.PostData; p == nil || p.Text != `{"data":{"required":"yes"}}` || p.MimeType != "application/json" {
		t.Fatalf("post data %+v", p)
	}
	if p := byType["call"][3].Request.PostData; p == nil || p.Encoding != "base64" {
		t.Fatalf("binary post data %+v", p)
	}
	w := byType["webhook"]
	if w[0].Response.Status != 0 || w[0].Error != "connection refused" || w[0].Fault != "receiver-down" || w[1].Response.Status != 200 || w[1].Attempt != 2 || w[0].Request.Headers[1].Value != "abc123" {
		t.Fatalf("webhook entries %+v", w)
	}
}

func compileHARSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/har-1.2.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("har.json", bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("har.json")
	if err != nil {
		t.Fatal(err)
	}
	// The schema must be able to fail: an entry without a response is not HAR.
	bad := map[string]any{"log": map[string]any{"version": "1.2", "creator": map[string]any{"name": "x", "version": "1"},
		"entries": []any{map[string]any{"startedDateTime": "2025-06-01T10:00:00.000Z", "time": 1, "request": map[string]any{}, "cache": map[string]any{}, "timings": map[string]any{}}}}}
	if sch.Validate(bad) == nil {
		t.Fatal("the HAR schema accepts an entry without a response")
	}
	return sch
}

// TestRecordsCallerOfRefusedCalls checks that a refused call sent with a
// token the sandbox knows is recorded with that token's e-shop and kind,
// whatever the refusal (401, 403, 422), through a real socket; unknown
// tokens stay anonymous.
func TestRecordsCallerOfRefusedCalls(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Clock: sandbox.NewFrozenClock(t0)})
	var data struct {
		Eshops []struct {
			ID            int `json:"id"`
			PrivateTokens []struct {
				Token string `json:"token"`
				All   bool   `json:"allGroups"`
			} `json:"privateTokens"`
			Addons []struct {
				APITokens []struct {
					Token   string `json:"token"`
					Expired bool   `json:"expired"`
				} `json:"apiTokens"`
			} `json:"addons"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &data)
	var full, readOnly, expired string
	for _, e := range data.Eshops {
		if e.ID != 1001 {
			continue
		}
		for _, p := range e.PrivateTokens {
			if p.All && full == "" {
				full = p.Token
			} else if !p.All && readOnly == "" {
				readOnly = p.Token
			}
		}
		for _, a := range e.Addons {
			for _, tk := range a.APITokens {
				if tk.Expired && expired == "" {
					expired = tk.Token
				}
			}
		}
	}
	if full == "" || readOnly == "" || expired == "" {
		t.Fatalf("fixtures lack a full, a read-only private and an expired add-on token in e-shop 1001: %+v", data)
	}
	tests := []struct {
		name      string
		call      sandboxtest.Call
		status    int
		eshop     int
		tokenKind string
	}{
		{"private token in the add-on header", sandboxtest.Call{Path: "/api/eshop", AccessToken: full}, 401, 1001, "private"},
		{"expired add-on token", sandboxtest.Call{Path: "/api/eshop", AccessToken: expired}, 401, 1001, "addon"},
		{"token without the rights", sandboxtest.Call{Path: "/api/products", PrivateToken: readOnly}, 403, 1001, "private"},
		{"no Content-Type", sandboxtest.Call{Path: "/api/eshop", PrivateToken: full, ContentType: "-"}, 422, 1001, "private"},
		{"unknown token", sandboxtest.Call{Path: "/api/eshop", PrivateToken: "sbx_prv_nobody"}, 401, 0, ""},
	}
	for _, tc := range tests {
		s.Do(tc.call)
	}
	snap := history(t, s, "", len(tests)+1)
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := snap.Events[i+1].Call
			if c == nil || c.Status != tc.status || c.Eshop != tc.eshop || c.TokenKind != tc.tokenKind {
				t.Fatalf("recorded %+v, want %d e-shop %d token %q", c, tc.status, tc.eshop, tc.tokenKind)
			}
		})
	}
}

// TestUnrecordedControlReads: a control-plane GET carrying
// Sandbox-Unrecorded (the terminal UI's view refreshes) stays out of the
// history; the header changes nothing for API calls, control-plane
// writes or unclean paths.
func TestUnrecordedControlReads(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Clock: sandbox.NewFrozenClock(t0)})
	tk := fixtureTokens(t, s) // recorded: event 1
	quiet := map[string]string{traffic.UnrecordedHeader: "1"}
	want := []string{"/_sandbox/eshops"}
	for _, tc := range []struct {
		call     sandboxtest.Call
		recorded bool
	}{
		{sandboxtest.Call{Path: "/_sandbox/faults", Header: quiet, ContentType: "-"}, false},
		{sandboxtest.Call{Path: "/_sandbox/report", Header: quiet, ContentType: "-"}, false},
		{sandboxtest.Call{Path: "/_sandbox/health", ContentType: "-"}, true},
		{sandboxtest.Call{Path: "/api/eshop", PrivateToken: tk.private1001, Header: quiet}, true},
		{sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: map[string]any{"advance": "1s"}, Header: quiet}, true},
		{sandboxtest.Call{Path: "/_sandbox/../api/eshop", PrivateToken: tk.private1001, Header: quiet}, true},
	} {
		s.Do(tc.call)
		if tc.recorded {
			want = append(want, tc.call.Path)
		}
	}
	snap := history(t, s, "", len(want))
	var got []string
	for _, ev := range snap.Events {
		if ev.Call != nil {
			got = append(got, ev.Call.Path)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("recorded %v, want %v", got, want)
	}
}

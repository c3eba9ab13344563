package app_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestScenarioFaultsThroughTheSandbox: a scenario in the Config applies
// its faults to the API (the tap marks the faulted call), the
// control plane lists them with hits, and the contract report judges the
// traffic.
func TestScenarioFaultsThroughTheSandbox(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{ScenarioName: "inline.yaml", Scenario: []byte(`name: inline
faults:
  - name: orders-down
    match: {operation: GetListOfOrders, tokenKind: addon, nth: 1}
    respond: {status: 429, retryAfter: 1m}
  - name: by-name
    trigger: header
    respond: {status: 409}
`)})
	r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: f.AddonToken})
	if r.Status != 429 || r.Env.Errors[0].ErrorCode != "rate-limit-exceeded" || r.Header.Get("Retry-After") == "" || r.Header.Get("X-RateLimit-Bucket-Filling") != "1000000/1000000" {
		t.Fatalf("faulted call: %d %s %v", r.Status, r.Body, r.Header)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: f.AddonToken}); r.Status != 429 {
		t.Fatalf("second call (Retry-After ignored on purpose), refused by the bucket held full: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken, Header: map[string]string{s.Headers.SandboxFault: "by-name"}}); r.Status != 409 {
		t.Fatalf("header fault: %d", r.Status)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken, Header: map[string]string{s.Headers.SandboxFault: "rate-limited"}}); r.Status != 429 || r.Header.Get("X-RateLimit-Bucket-Filling") != "1000000/1000000" {
		t.Fatalf("built-in fill-bucket through the real limiter: %d %v", r.Status, r.Header)
	}

	var faults struct {
		Faults []struct {
			Name    string `json:"name"`
			Hits    int    `json:"hits"`
			Builtin bool   `json:"builtin"`
		} `json:"faults"`
		Scenario string `json:"scenario"`
	}
	r = s.Do(sandboxtest.Call{Path: "/_sandbox/faults", ContentType: "-"})
	if err := json.Unmarshal(r.Env.Data, &faults); err != nil || faults.Scenario != "inline" {
		t.Fatalf("faults: %v %s", err, r.Body)
	}
	hits := map[string]int{}
	for _, x := range faults.Faults {
		hits[x.Name] = x.Hits
	}
	if hits["orders-down"] != 1 || hits["by-name"] != 1 || hits["rate-limited"] != 1 || hits["expired-token"] != 0 {
		t.Fatalf("hits %v", hits)
	}

	var rep struct {
		Clean    bool `json:"clean"`
		Findings []struct {
			Rule      string `json:"rule"`
			Operation string `json:"operation"`
		} `json:"findings"`
	}
	r = s.Do(sandboxtest.Call{Path: "/_sandbox/report", ContentType: "-"})
	if err := json.Unmarshal(r.Env.Data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Clean || len(rep.Findings) != 1 || rep.Findings[0].Rule != "ignored-retry-after" || rep.Findings[0].Operation != "GetListOfOrders" {
		t.Fatalf("report %s", r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/report", ContentType: "-"}); r.Status != 200 || !strings.Contains(string(r.Body), `"clean":true`) {
		t.Fatalf("clear: %d %s", r.Status, r.Body)
	}
}

// TestBrokenScenarioStopsOpen: a scenario with a mistake stops the start
// with its position.
func TestBrokenScenarioStopsOpen(t *testing.T) {
	_, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0", ScenarioName: "broken.yaml", Scenario: []byte("name: b\nfaults:\n  - name: x\n    respond: {status: 418}\n")},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err == nil || !strings.Contains(err.Error(), "broken.yaml:4:23: faults[0].respond.status: value must be one of") {
		t.Fatalf("Open: %v", err)
	}
}

// TestReportJudgesOverlappingCalls: through the sandbox's own socket, a
// call that was already in flight when another call of the same token was
// answered 429 is not "ignoring Retry-After" (it is recorded later, as it
// ends later), while a call sent after the 429, before its date, is.
func TestReportJudgesOverlappingCalls(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{ScenarioName: "overlap.yaml", Scenario: []byte(`name: overlap
faults:
  - name: slow
    match: {operation: GetListOfProducts, nth: 1}
    latency: 400ms
  - name: refuse
    match: {operation: GetListOfOrders, nth: 1}
    respond: {status: 429, retryAfter: 5s}
`)})
	get := func(c *http.Client, path string) int {
		req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(s.Headers.AccessToken, f.AddonToken)
		resp, err := c.Do(req)
		if err != nil {
			t.Error(err)
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	slowConn := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	refusedConn := &http.Client{Transport: &http.Transport{}, Timeout: 10 * time.Second}
	done := make(chan int)
	go func() { done <- get(slowConn, "/api/products") }()
	// The slow call is on its way: its fault has met it (and holds it 400 ms).
	s.WaitFor("the slow call to reach the sandbox", func() bool { return s.Fault("slow").Matched >= 1 })
	if st := get(refusedConn, "/api/orders"); st != 429 {
		t.Fatalf("the refused call: %d", st)
	}
	if st := <-done; st != 200 {
		t.Fatalf("the slow call: %d", st)
	}
	report := func() []string {
		var rep struct {
			Findings []struct {
				Rule string `json:"rule"`
				Path string `json:"path"`
			} `json:"findings"`
		}
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/report", ContentType: "-"})
		if err := json.Unmarshal(r.Env.Data, &rep); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, x := range rep.Findings {
			out = append(out, x.Rule+" "+x.Path)
		}
		return out
	}
	if got := report(); len(got) != 0 {
		t.Fatalf("the call in flight when the 429 was answered is a finding: %v", got)
	}
	if st := get(refusedConn, "/api/orders"); st != 429 { // sent after the 429, long before its date: the bucket is still full
		t.Fatalf("the early retry: %d", st)
	}
	if got := report(); len(got) != 1 || got[0] != "ignored-retry-after /api/orders" {
		t.Fatalf("findings %v, want the early retry", got)
	}
}

// TestRuntimeFaultsThroughTheControlPlane: a fault posted to a running
// sandbox in the scenario file's syntax acts on the add-on's own calls
// (matched by add-on), is marked in the traffic, is listed with how often
// it matched and acted, and is removed by id, all at once, or by a reset.
func TestRuntimeFaultsThroughTheControlPlane(t *testing.T) {
	f := loadFacts(t)
	s := sandboxtest.New(t, sandbox.Config{})
	post := func(body string) *sandboxtest.Response {
		return s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/faults", Body: body})
	}
	r := post(`{"match": {"operation": "GetListOfOrders", "addon": "example-addon", "times": 1}, "respond": {"status": 429, "retryAfter": "1s"}}`)
	var added struct {
		ID, Name, Source string
	}
	if err := json.Unmarshal(r.Env.Data, &added); r.Status != 201 || err != nil || added.ID != "f1" || added.Name != "f1" || added.Source != "runtime" {
		t.Fatalf("POST /_sandbox/faults: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken}); r.Status != 200 {
		t.Fatalf("a private call is not the add-on's: %d", r.Status)
	}
	r = s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: f.AddonToken})
	if r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("the add-on's call: %d %v", r.Status, r.Header)
	}
	faultedID := r.Env.Metadata.RequestID
	// The 429 held the add-on's bucket full for its retryAfter: past it,
	// the fault, done after one call, acts no more.
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/clock", Body: map[string]any{"advance": "2s"}})
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: f.AddonToken}); r.Status != 200 {
		t.Fatalf("times: 1 acts once: %d", r.Status)
	}

	var hist struct {
		Events []struct {
			Call *struct {
				ID    string `json:"id"`
				Fault string `json:"fault"`
			} `json:"call"`
		} `json:"events"`
	}
	deadline := time.Now().Add(5 * time.Second)
	marked := ""
	for marked == "" && time.Now().Before(deadline) {
		r = s.Do(sandboxtest.Call{Path: "/_sandbox/traffic?limit=50", ContentType: "-"})
		if err := json.Unmarshal(r.Env.Data, &hist); err != nil {
			t.Fatal(err)
		}
		for _, e := range hist.Events {
			if e.Call != nil && e.Call.ID == faultedID {
				marked = e.Call.Fault
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if marked != "f1" {
		t.Fatalf("the faulted call is marked %q in the traffic, want f1", marked)
	}

	list := func() map[string][2]int {
		var v struct {
			Faults []struct {
				ID      string `json:"id"`
				Source  string `json:"source"`
				Matched int    `json:"matched"`
				Hits    int    `json:"hits"`
			} `json:"faults"`
		}
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/faults", ContentType: "-"})
		if err := json.Unmarshal(r.Env.Data, &v); err != nil {
			t.Fatal(err)
		}
		out := map[string][2]int{}
		for _, x := range v.Faults {
			if x.Source == "runtime" {
				out[x.ID] = [2]int{x.Matched, x.Hits}
			}
		}
		return out
	}
	if got := list(); len(got) != 1 || got["f1"] != [2]int{2, 1} {
		t.Fatalf("runtime faults listed %v, want f1 matched 2, acted 1", got)
	}

	r = post(`{"match": {"operation": "GetOrderDetial"}, "respond": {"status": 418}}`)
	if r.Status != 422 || r.Env.Errors[0].ErrorCode != "schema-mismatch" || r.Env.Errors[0].Instance != "respond.status" ||
		!strings.Contains(r.Env.Errors[0].Message, "1:66: respond.status: value must be one of") {
		t.Fatalf("a bad fault: %d %s", r.Status, r.Body)
	}
	if r := post(`{"name": "f1", "close": true}`); r.Status != 409 {
		t.Fatalf("a taken name: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/faults/f1", ContentType: "-"}); r.Status != 200 {
		t.Fatalf("DELETE f1: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/faults/f1", ContentType: "-"}); r.Status != 404 {
		t.Fatalf("DELETE f1 again: %d %s", r.Status, r.Body)
	}
	post(`{"latency": "10ms"}`)
	post(`{"close": true, "match": {"path": "/api/nowhere"}}`)
	r = s.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/faults", ContentType: "-"})
	if r.Status != 200 || !strings.Contains(string(r.Env.Data), `"removed":2`) || len(list()) != 0 {
		t.Fatalf("DELETE all: %d %s", r.Status, r.Body)
	}
	post(`{"latency": "10ms"}`)
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset", ContentType: "-"}); r.Status != 200 {
		t.Fatalf("reset: %d", r.Status)
	}
	if got := list(); len(got) != 0 {
		t.Fatalf("after a reset: %v", got)
	}
}

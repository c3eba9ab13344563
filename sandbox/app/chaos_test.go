package app_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// chaosRun starts a sandbox with --chaos 0.5 and the seed, makes n add-on
// calls one after another (and a private one after each) through a real
// socket, and returns what each add-on call got, the faults the traffic
// recorder marked, and the contract report.
func chaosRun(t *testing.T, seed uint64, n int) (got, marked []string, rep scenario.ReportView) {
	f := loadFacts(t)
	lim := sandbox.DefaultLimits()
	lim.Off = true // the bucket must not refuse calls before they draw
	s := sandboxtest.New(t, sandbox.Config{ChaosRate: 0.5, ChaosSeed: seed, Limits: &lim})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for i := 0; i < n; i++ {
		req, _ := http.NewRequest("GET", s.URL+"/api/orders", nil)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(s.Headers.AccessToken, f.AddonToken)
		resp, err := client.Do(req)
		if err != nil {
			got = append(got, "closed")
		} else {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			got = append(got, fmt.Sprint(resp.StatusCode))
		}
		if r := s.Do(sandboxtest.Call{Path: "/api/orders", PrivateToken: f.FullToken}); r.Status != 200 {
			t.Fatalf("a private-token call got %d: chaos is for the add-on's calls only", r.Status)
		}
	}
	// A call is recorded when it ends, which for a closed connection or
	// a late answer may be after the client has moved on: read the list
	// until every add-on call is in it.
	for deadline := time.Now().Add(10 * time.Second); ; {
		var traffic struct {
			Events []struct {
				Call *struct {
					Path      string `json:"path"`
					TokenKind string `json:"tokenKind"`
					Fault     string `json:"fault"`
				} `json:"call"`
			} `json:"events"`
		}
		r := s.Do(sandboxtest.Call{Path: "/_sandbox/traffic", ContentType: "-"})
		if err := json.Unmarshal(r.Env.Data, &traffic); err != nil {
			t.Fatalf("traffic: %v", err)
		}
		marked = marked[:0]
		for _, e := range traffic.Events {
			if c := e.Call; c != nil && c.Path == "/api/orders" && c.TokenKind != "private" {
				marked = append(marked, c.Fault)
			}
		}
		if len(marked) >= n || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(marked) != n {
		t.Fatalf("the traffic list holds %d of the %d add-on calls: %v", len(marked), n, marked)
	}
	r := s.Do(sandboxtest.Call{Path: scenario.ReportPath, ContentType: "-"})
	if err := json.Unmarshal(r.Env.Data, &rep); err != nil {
		t.Fatalf("report: %v %s", err, r.Body)
	}
	return got, marked, rep
}

// TestChaosThroughTheSandbox: --chaos faults about half of the add-on's
// calls with the spec's platform faults and none of the private ones; the
// same seed gives the same answers to the same calls; the traffic list
// marks every injected fault; the contract report says how the add-on
// coped.
func TestChaosThroughTheSandbox(t *testing.T) {
	const n = 24
	got1, marked1, rep := chaosRun(t, 7, n)
	got2, marked2, _ := chaosRun(t, 7, n)
	// The answers come in call order; the traffic list records a call when
	// it ends, and a closed connection may end after the next call began,
	// so the marks are compared as a set.
	if strings.Join(got1, " ") != strings.Join(got2, " ") || strings.Join(sorted(marked1), " ") != strings.Join(sorted(marked2), " ") {
		t.Fatalf("seed 7 twice:\n%v\n%v\nmarked\n%v\n%v", got1, got2, marked1, marked2)
	}
	faulted, injected := 0, 0
	for _, g := range got1 {
		if g != "200" {
			faulted++
		}
	}
	for _, m := range marked1 {
		if m != "" {
			injected++
			if !strings.HasPrefix(m, scenario.ChaosPrefix) {
				t.Errorf("traffic marks %q", m)
			}
		}
	}
	if faulted < n/5 || faulted > n*4/5 {
		t.Fatalf("rate 0.5 answered %d of %d calls with a fault: %v", faulted, n, got1)
	}
	// A latency fault answers 200 late; every other kind shows in the answer.
	if injected < faulted {
		t.Fatalf("%d faulted answers, %d marked in the traffic list: %v / %v", faulted, injected, got1, marked1)
	}
	total := 0
	for _, c := range rep.Chaos {
		total += c.Injected
		if c.Recovered+c.Open != c.Injected || c.Summary == "" {
			t.Errorf("coping: %+v", c)
		}
	}
	if total != injected {
		t.Fatalf("report counts %d injected faults, traffic %d: %+v", total, injected, rep.Chaos)
	}
	got3, _, _ := chaosRun(t, 8, n)
	if strings.Join(got1, " ") == strings.Join(got3, " ") {
		t.Fatalf("seeds 7 and 8 answered alike: %v", got1)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}

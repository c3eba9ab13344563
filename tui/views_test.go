package tui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// viewModel is a UI on a real control plane (HTTPControl), at 120x40.
func viewModel(t *testing.T, base string) *Model {
	t.Helper()
	m := New(Options{Source: newFakeSource(), Control: NewHTTPControl(base), Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	m.Update(sizeMsg(120, 40))
	return m
}

// TestViewsReadARealSandbox opens every control-plane view of a real
// sandbox through its socket: each decodes what the sandbox answers, and
// the report and faults show what was done to them.
func TestViewsReadARealSandbox(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	token := ""
	var data struct {
		Eshops []struct {
			PrivateTokens []struct{ Token string } `json:"privateTokens"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &data)
	token = data.Eshops[0].PrivateTokens[0].Token
	s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: token, ContentType: "-"}) // a report finding
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/faults", Body: map[string]any{
		"name": "slow-brands", "match": map[string]any{"operation": "GetListofBrands"}, "latency": "10ms"}}); r.Status != http.StatusCreated {
		t.Fatalf("add a fault: %d %s", r.Status, r.Body)
	}
	m := viewModel(t, s.URL)
	for _, tc := range []struct {
		key, label, want string
	}{
		{"3", "[Report 1]", "missing-content-type"},
		{"4", "[Faults ", "slow-brands"},
		{"5", "[Outbox 0]", "No e-mail yet"},
		{"6", "[Jobs 0]", "No job yet"},
		{"7", "[Installs 0]", "No install yet"},
	} {
		press(m, tc.key)
		if vt := m.views[m.tab]; vt.err != "" || !vt.fetched {
			t.Fatalf("%s: fetched %v, error %q", m.tab, vt.fetched, vt.err)
		}
		if v := m.View(); !strings.Contains(v, tc.label) || !strings.Contains(v, tc.want) {
			t.Fatalf("%s: no %q and %q in\n%s", m.tab, tc.label, tc.want, v)
		}
	}
	// The views' reads stay out of the sandbox's traffic history: it
	// holds the three calls above and a health check sent last (the
	// recorder is fed asynchronously: once the last call is in, any view
	// read recorded would be too).
	s.Do(sandboxtest.Call{Path: "/_sandbox/health", ContentType: "-"})
	var paths []string
	for deadline := time.Now().Add(5 * time.Second); ; {
		var snap traffic.Snapshot
		s.Do(sandboxtest.Call{Path: traffic.HistoryPath, ContentType: "-"}).Data(t, &snap)
		paths = paths[:0]
		for _, ev := range snap.Events {
			if ev.Call != nil {
				paths = append(paths, ev.Call.Method+" "+ev.Call.Path)
			}
		}
		if len(paths) > 0 && paths[len(paths)-1] == "GET /_sandbox/health" || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := strings.Join(paths, ", "); got != "GET /_sandbox/eshops, GET /api/eshop, POST /_sandbox/faults, GET /_sandbox/health" {
		t.Fatalf("traffic history after the views were read: %s", got)
	}
}

// TestViewRefreshPacing checks when a view is read again: on opening, on
// R, after traffic (at most every 2 s), and every 15 s anyway; never
// because of the control plane's own calls.
func TestViewRefreshPacing(t *testing.T) {
	now := t0
	src, ctl := newFakeSource(), &fakeControl{}
	m := New(Options{Source: src, Control: ctl, Now: func() time.Time { return now }, Renderer: plainRenderer()})
	m.Update(sizeMsg(80, 24))
	reads := func() int { return len(ctl.readLog()) }
	tick := func() { // what Update does on a tick: redraw, read the view again when due
		m.onTick()
		if cmd := m.refreshView(false); cmd != nil {
			m.Update(cmd())
		}
	}
	press(m, "6")
	if reads() != 1 {
		t.Fatalf("%d reads on opening", reads())
	}
	now = now.Add(time.Second)
	m.Update(itemsMsg{items: items(nil, callEvents(1, 1))})
	tick()
	if reads() != 1 {
		t.Fatal("read again within 2 s")
	}
	now = now.Add(time.Second)
	tick()
	if reads() != 2 {
		t.Fatalf("%d reads: not read again 2 s after traffic", reads())
	}
	now = now.Add(5 * time.Second)
	ctlCall := testCall(50, "GET", "/_sandbox/jobs", 200, 0)
	m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeCall, Call: ctlCall}})})
	tick()
	if reads() != 2 {
		t.Fatal("the control plane's own call made the view read again")
	}
	now = now.Add(10 * time.Second)
	tick()
	if reads() != 3 {
		t.Fatalf("%d reads: not read again after 15 s", reads())
	}
	press(m, "R")
	if reads() != 4 {
		t.Fatalf("%d reads: R did not read", reads())
	}
	press(m, "1")
	now = now.Add(time.Minute)
	tick()
	if reads() != 4 {
		t.Fatal("a view not on screen was read")
	}
}

// TestViewErrors checks that a view the control plane cannot answer says
// so, keeps the rows it had, and that no control plane is explained.
func TestViewErrors(t *testing.T) {
	m, _, ctl, _ := busyModel(t)
	press(m, "3")
	ctl.mu.Lock()
	ctl.views = map[string]any{}
	ctl.mu.Unlock()
	press(m, "R")
	v := m.View()
	if !strings.Contains(v, "could not read GET /_sandbox/report: GET /_sandbox/report: 404") || !strings.Contains(v, "missing-content-type") {
		t.Fatalf("error not shown, or rows lost:\n%s", v)
	}
	none := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	none.Update(sizeMsg(80, 24))
	press(none, "6")
	if !strings.Contains(none.View(), "could not read GET /_sandbox/jobs: no control plane here") {
		t.Fatalf("no control plane:\n%s", none.View())
	}
	if _, err := loadJobs([]byte(`{"jobs":"nope"}`), m.st); err == nil {
		t.Fatal("a malformed answer decodes")
	}
}

// TestViewSortAndFilter sorts a view by a column, both ways, and filters
// its rows by text, e-shop and body.
func TestViewSortAndFilter(t *testing.T) {
	m, _, _, _ := busyModel(t)
	press(m, "6", "o", "o", "o") // STATUS
	status := func() []string {
		var out []string
		for _, r := range m.viewRows(tabJobs) {
			out = append(out, r.cells[2])
		}
		return strings.Fields(strings.Join(out, " "))
	}
	if got := strings.Join(status(), ","); got != "completed,failed,running" {
		t.Fatalf("by status: %s", got)
	}
	press(m, "O")
	if got := strings.Join(status(), ","); got != "running,failed,completed" || !strings.Contains(m.View(), "sort: status↓") {
		t.Fatalf("by status, reversed: %s\n%s", got, m.View())
	}
	press(m, "e", "e")
	if got := strings.Join(status(), ","); got != "running" {
		t.Fatalf("e-shop 1002: %s", got)
	}
	press(m, "c", "/")
	typeText(m, "!snapshot")
	press(m, "enter")
	if got := strings.Join(status(), ","); got != "failed" {
		t.Fatalf("!snapshot: %s", got)
	}
	press(m, "c", "b")
	typeText(m, "exploded")
	press(m, "enter")
	if got := strings.Join(status(), ","); got != "failed" {
		t.Fatalf("body search in the log: %s", got)
	}
}

// TestReplayShowsAtOnce follows a real sandbox from its bus: a webhook to
// a receiver that refuses, then a replay while the first waits for its
// retry. The replay is on screen as queued, with the time it can go out,
// before any attempt of it.
func TestReplayShowsAtOnce(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer refuse.Close()
	s := sandboxtest.New(t, sandbox.Config{Clock: sandbox.NewFrozenClock(t0), WebhookBackoff: time.Minute, WebhookAttempts: 3})
	src := NewBusSource(s.App.Bus, func() traffic.Info { return *testInfo() }, 1024)
	defer src.Close()
	m := viewModel(t, s.URL)
	m.opts.Source = src
	feed := func(until func() bool, what string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for !until() {
			select {
			case it := <-src.Items():
				m.Update(itemsMsg{items: []Item{it}})
				m.render()
			case <-deadline:
				t.Fatalf("%s never came:\n%s", what, m.View())
			}
		}
	}
	var data struct {
		Eshops []struct {
			PrivateTokens []struct{ Token string } `json:"privateTokens"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &data)
	token := data.Eshops[0].PrivateTokens[0].Token
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/api/webhooks", PrivateToken: token,
		Body: map[string]any{"data": []map[string]string{{"event": "brand:create", "url": refuse.URL}}}}); r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/events", Body: map[string]any{"eshop": 1001, "event": "brand:create", "instance": "b1"}}); r.Status != 200 {
		t.Fatalf("emit: %d %s", r.Status, r.Body)
	}
	press(m, "2")
	feed(func() bool { return strings.Contains(m.View(), "retry  10:01:00") }, "the failed first attempt")
	rows := m.hookRows()
	id := rows[len(rows)-1].d.ID
	press(m, "r")
	if got := m.flash; !strings.Contains(got, "replayed delivery "+id) {
		t.Fatalf("flash %q", got)
	}
	feed(func() bool { return strings.Contains(m.View(), "queued 10:01:00") }, "the queued replay")
	rows = m.hookRows()
	last := rows[len(rows)-1]
	if !last.queued || last.d.ID == id || last.d.Event != "brand:create" || last.next() != "10:01:00" {
		t.Fatalf("last row %+v", last)
	}
}

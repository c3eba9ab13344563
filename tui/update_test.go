package tui

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// keyMsg builds the message a terminal sends for a key name.
func keyMsg(k string) tea.KeyMsg {
	special := map[string]tea.KeyType{
		"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome,
		"end": tea.KeyEnd, "enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"ctrl+c": tea.KeyCtrlC, "ctrl+u": tea.KeyCtrlU, "ctrl+d": tea.KeyCtrlD, "ctrl+w": tea.KeyCtrlW, " ": tea.KeySpace,
		"shift+tab": tea.KeyShiftTab,
	}
	if t, ok := special[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends keys and runs the command each returns, feeding its message
// back as the program would (one level: actions and copies).
func press(m *Model, keys ...string) (last tea.Msg) {
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		last = runCmd(m, cmd)
	}
	return last
}

func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(keyMsg(string(r)))
	}
}

func runCmd(m *Model, cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch msg.(type) {
	case actionMsg, clipboardMsg, viewMsg:
		m.Update(msg)
	}
	return msg
}

// busyModel is an 80x24 UI that has seen the busy fixture.
func busyModel(t *testing.T) (*Model, *fakeSource, *fakeControl, *[]string) {
	t.Helper()
	src, ctl := newFakeSource(), &fakeControl{}
	copied := &[]string{}
	m := New(Options{Source: src, Control: ctl, Now: func() time.Time { return t0 }, Renderer: plainRenderer(),
		Clipboard: func(s string) (string, error) {
			*copied = append(*copied, s)
			return "copied to the clipboard (test)", nil
		}})
	m.Update(sizeMsg(80, 24))
	m.Update(itemsMsg{items: items(testInfo(), busyEvents())})
	return m, src, ctl, copied
}

func selectedCallID(m *Model) string {
	if c := m.selectedCall(); c != nil {
		return c.ID
	}
	return ""
}

func callID(i int) string { return testCall(i, "GET", "/", 200, 0).ID }

// visibleCallIDs are the request ids of the calls table's rows.
func visibleCallIDs(m *Model) []string {
	var ids []string
	for _, r := range m.callRows() {
		ids = append(ids, r.c.ID)
	}
	return ids
}

// assertView checks a view tab: shown, read from its control-plane path,
// its rows on screen.
func assertView(t *testing.T, m *Model, ctl *fakeControl, want tab, path, label, text string) {
	t.Helper()
	v := m.View()
	if m.tab != want || !strings.Contains(v, label) || !strings.Contains(v, text) {
		t.Fatalf("tab %s, want %s with %q and %q:\n%s", m.tab, want, label, text, v)
	}
	if got := ctl.readLog(); len(got) != 1 || got[0] != path {
		t.Fatalf("reads %v, want %s", got, path)
	}
}

// TestKeyBindings drives every key binding with synthetic key messages and
// checks the state it leaves. A binding added to keyMap without a case
// here fails the test.
func TestKeyBindings(t *testing.T) {
	tests := []struct {
		binding string
		setup   []string // keys pressed before
		keys    []string
		check   func(t *testing.T, m *Model, ctl *fakeControl, copied []string, last tea.Msg)
	}{
		{"Up", nil, []string{"up"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			// 26 is a control-plane call, hidden by default
			if selectedCallID(m) != callID(25) || m.callCur.follow {
				t.Fatalf("selected %s follow %v", selectedCallID(m), m.callCur.follow)
			}
		}},
		{"Down", []string{"k", "k"}, []string{"j"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if selectedCallID(m) != callID(25) {
				t.Fatalf("selected %s", selectedCallID(m))
			}
		}},
		{"PageUp", nil, []string{"pgup"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			ids := visibleCallIDs(m)
			if want := ids[len(ids)-1-(m.listHeight()-2)]; selectedCallID(m) != want {
				t.Fatalf("selected %s, want %s", selectedCallID(m), want)
			}
		}},
		{"PageDown", []string{"g"}, []string{"pgdown"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if want := visibleCallIDs(m)[m.listHeight()-2]; selectedCallID(m) != want {
				t.Fatalf("selected %s, want %s", selectedCallID(m), want)
			}
		}},
		{"Oldest", nil, []string{"home"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if selectedCallID(m) != callID(1) || !strings.Contains(m.View(), "> 10:00:01.000") {
				t.Fatalf("selected %s\n%s", selectedCallID(m), m.View())
			}
		}},
		{"Newest", []string{"g"}, []string{"G"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeCall, Call: testCall(99, "GET", "/api/brands", 200, 1001)}})})
			if !m.callCur.follow || selectedCallID(m) != callID(99) {
				t.Fatalf("not following: selected %s", selectedCallID(m))
			}
		}},
		{"Detail", []string{"up"}, []string{"enter"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			// split view: enter hands the keys to the detail pane, the list stays
			if m.state != stateList || !m.focusDetail || !strings.Contains(m.View(), "▶ Call · request id "+callID(25)) ||
				!strings.Contains(m.View(), "> 10:00:25.000") {
				t.Fatalf("state %d focus %v\n%s", m.state, m.focusDetail, m.View())
			}
			press(m, "esc", "v", "enter") // without the split view: the whole screen
			if m.state != stateDetail || m.shown.call.ID != callID(25) || strings.Contains(m.View(), "> 10:00:25.000") {
				t.Fatalf("state %d\n%s", m.state, m.View())
			}
		}},
		{"Back", []string{"enter"}, []string{"esc"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.state != stateList || m.focusDetail {
				t.Fatalf("state %d focus %v", m.state, m.focusDetail)
			}
			press(m, "s", "esc")
			if m.filter.active() {
				t.Fatalf("esc in the list keeps filter %s", m.filter)
			}
		}},
		{"Split", nil, []string{"v"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.split || strings.Contains(m.View(), "Call · request id") || strings.Count(m.View(), "\n  10:00:") < 18 {
				t.Fatalf("split %v\n%s", m.split, m.View())
			}
			press(m, "v")
			if !m.split || !strings.Contains(m.View(), "Call · request id "+callID(27)) {
				t.Fatalf("split back on:\n%s", m.View())
			}
		}},
		{"Switch", nil, []string{"tab"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.tab != tabWebhooks || !strings.Contains(m.View(), "[Webhooks 6]") {
				t.Fatalf("tab %d\n%s", m.tab, m.View())
			}
			press(m, "tab")
			if m.tab != tabReport {
				t.Fatalf("tab %s after webhooks", m.tab)
			}
			press(m, "tab", "tab", "tab", "tab", "tab")
			if m.tab != tabCalls {
				t.Fatalf("tab %s does not wrap round to calls", m.tab)
			}
		}},
		{"SwitchBack", nil, []string{"shift+tab"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.tab != tabInstalls {
				t.Fatalf("tab %s", m.tab)
			}
		}},
		{"Calls", []string{"tab"}, []string{"1"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.tab != tabCalls {
				t.Fatal("not on calls")
			}
		}},
		{"Webhooks", nil, []string{"2"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.tab != tabWebhooks {
				t.Fatal("not on webhooks")
			}
		}},
		{"Report", nil, []string{"3"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			assertView(t, m, ctl, tabReport, "/_sandbox/report", "[Report 3]", "install-answered-before-exchange")
		}},
		{"Faults", nil, []string{"4"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			assertView(t, m, ctl, tabFaults, "/_sandbox/faults", "[Faults 3]", "flaky-receiver")
		}},
		{"Outbox", nil, []string{"5"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			assertView(t, m, ctl, tabOutbox, "/_sandbox/outbox", "[Outbox 2]", "jana.novakova@example.com")
		}},
		{"Jobs", nil, []string{"6"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			assertView(t, m, ctl, tabJobs, "/_sandbox/jobs", "[Jobs 3]", "/api/orders/snapshot")
		}},
		{"Installs", nil, []string{"7"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			assertView(t, m, ctl, tabInstalls, "/_sandbox/installs", "[Installs 2]", "payments-demo")
		}},
		{"Refresh", []string{"3"}, []string{"R"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if got := ctl.readLog(); len(got) != 2 || got[1] != "/_sandbox/report" {
				t.Fatalf("reads %v", got)
			}
			press(m, "1", "R")
			if got := ctl.readLog(); len(got) != 2 || !strings.Contains(m.View(), "calls and webhooks are live") {
				t.Fatalf("R on calls read %v\n%s", got, m.View())
			}
		}},
		{"Help", nil, []string{"?"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.state != stateHelp || !strings.Contains(m.View(), "next view") {
				t.Fatalf("help:\n%s", m.View())
			}
			press(m, "down", "down")
			if m.helpTop != 2 || !strings.Contains(m.View(), "3-") {
				t.Fatalf("help does not scroll: top %d\n%s", m.helpTop, m.View())
			}
			press(m, "pgdown", "pgdown", "pgdown", "pgdown")
			if !strings.Contains(m.View(), "toggle maintenance mode") || strings.Contains(m.View(), "next view") {
				t.Fatalf("help does not scroll to its end:\n%s", m.View())
			}
			m.Update(sizeMsg(120, 40))
			if !strings.Contains(m.View(), "next view") || !strings.Contains(m.View(), "toggle maintenance mode") {
				t.Fatalf("the whole help does not fit 120x40:\n%s", m.View())
			}
			press(m, "?")
			if m.state != stateList {
				t.Fatal("? does not close help")
			}
		}},
		{"Info", nil, []string{"i"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.state != stateInfo || !strings.Contains(m.View(), "sbx_prv_00000000000000000000000000001001") {
				t.Fatalf("info:\n%s", m.View())
			}
			press(m, "esc")
			if m.state != stateList {
				t.Fatal("esc does not close info")
			}
		}},
		{"Quit", nil, []string{"q"}, func(t *testing.T, _ *Model, _ *fakeControl, _ []string, last tea.Msg) {
			if _, ok := last.(tea.QuitMsg); !ok {
				t.Fatalf("q gave %T", last)
			}
		}},
		{"Filter", nil, []string{"/"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			typeText(m, "api/orders")
			if m.filter.text.raw != "api/orders" || !strings.Contains(m.View(), "filter (text !not ~regex): api/orders█") {
				t.Fatalf("live filter %q\n%s", m.filter.text.raw, m.View())
			}
			press(m, "enter")
			for _, r := range m.callRows() {
				if !strings.Contains(r.c.Path, "api/orders") {
					t.Fatalf("row %s passes filter api/orders", r.c.Path)
				}
			}
			press(m, "/", "backspace", "backspace", "esc")
			if m.filter.text.raw != "api/orders" || len(m.callRows()) != 9 {
				t.Fatalf("esc must restore the filter, got %q", m.filter.text.raw)
			}
		}},
		{"Search", nil, []string{"b"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			typeText(m, "from the test")
			press(m, "enter")
			rows := m.callRows()
			if len(rows) != 9 || m.filter.body.raw != "from the test" {
				t.Fatalf("%d rows for the body search %q", len(rows), m.filter.body.raw)
			}
			for _, r := range rows {
				if !strings.Contains(string(r.c.ReqBody), "from the test") {
					t.Fatalf("row %s %s has no such body", r.c.Method, r.c.Path)
				}
			}
			if !strings.Contains(m.View(), "match 1/1") {
				t.Fatalf("the detail does not show the match:\n%s", m.View())
			}
		}},
		{"NextMatch", []string{"b", "\"", "enter"}, []string{"n"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if len(m.matches) < 3 || m.matchAt != 1 || m.detail.YOffset != min(m.matches[1], m.detail.TotalLineCount()-m.detail.Height) ||
				!strings.Contains(m.View(), fmt.Sprintf("match 2/%d", len(m.matches))) {
				t.Fatalf("matches %v at %d offset %d\n%s", m.matches, m.matchAt, m.detail.YOffset, m.View())
			}
		}},
		{"PrevMatch", []string{"b", "\"", "enter"}, []string{"N"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if last := len(m.matches) - 1; last < 1 || m.matchAt != last || m.detail.YOffset != min(m.matches[last], m.detail.TotalLineCount()-m.detail.Height) {
				t.Fatalf("matches %v at %d offset %d", m.matches, m.matchAt, m.detail.YOffset)
			}
		}},
		{"Status", nil, []string{"s", "s", "s", "s"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.filter.class != class5xx {
				t.Fatalf("class %s", m.filter.class)
			}
			for _, r := range m.callRows() {
				if r.c.Status < 500 {
					t.Fatalf("status %d passes 5xx", r.c.Status)
				}
			}
			press(m, "s", "s")
			if m.filter.class != classAll {
				t.Fatalf("class %s does not cycle back", m.filter.class)
			}
		}},
		{"Eshop", nil, []string{"e", "e"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.filter.eshop != 1002 {
				t.Fatalf("e-shop %d", m.filter.eshop)
			}
			for _, r := range m.callRows() {
				if r.c.Eshop != 1002 {
					t.Fatalf("e-shop %d passes", r.c.Eshop)
				}
			}
			press(m, "e")
			if m.filter.eshop != 0 {
				t.Fatal("e-shop filter does not cycle back to all")
			}
		}},
		{"Method", nil, []string{"m", "m"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.filter.method != "POST" || len(m.callRows()) != 3 {
				t.Fatalf("method %q rows %d", m.filter.method, len(m.callRows()))
			}
		}},
		{"ControlPlane", nil, []string{"a"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if !m.showControl || len(m.callRows()) != 27 || !strings.Contains(m.View(), "/_sandbox/health") {
				t.Fatalf("control plane shown %v, %d rows\n%s", m.showControl, len(m.callRows()), m.View())
			}
			press(m, "a")
			if m.showControl || len(m.callRows()) != 24 || m.hiddenControl() != 3 || !strings.Contains(m.View(), "3 control") {
				t.Fatalf("control plane hidden again %v, %d rows\n%s", m.showControl, len(m.callRows()), m.View())
			}
		}},
		{"Clear", []string{"s", "e", "m", "b", "x", "enter"}, []string{"c"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.filter.active() || len(m.callRows()) != 24 {
				t.Fatalf("filter %s", m.filter)
			}
		}},
		{"Sort", nil, []string{"o", "o", "o", "o", "o"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			rows := m.callRows()
			for i := 1; i < len(rows); i++ {
				if rows[i-1].c.Status > rows[i].c.Status || rows[i-1].c.Status == rows[i].c.Status && rows[i-1].seq > rows[i].seq {
					t.Fatalf("not by code, then time: %d after %d", rows[i].c.Status, rows[i-1].c.Status)
				}
			}
			if !strings.Contains(m.View(), "sort: code↑") || !strings.Contains(m.View(), "COD↑") {
				t.Fatalf("sort not shown:\n%s", m.View())
			}
			press(m, "o", "o", "o", "o")
			if m.sorts[tabCalls].col != 0 {
				t.Fatalf("sort does not come back to time: %+v", m.sorts[tabCalls])
			}
		}},
		{"SortReverse", []string{"o"}, []string{"O"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			rows := m.callRows()
			if rows[0].c.Eshop != 1002 || rows[len(rows)-1].c.Eshop != 0 || !strings.Contains(m.View(), "sort: shop↓") {
				t.Fatalf("first %d last %d\n%s", rows[0].c.Eshop, rows[len(rows)-1].c.Eshop, m.View())
			}
			press(m, "2", "o")
			if !strings.Contains(m.View(), "webhooks keep each notification's attempts together") {
				t.Fatalf("webhooks sorted:\n%s", m.View())
			}
		}},
		{"Pause", nil, []string{"p"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeCall, Call: testCall(99, "GET", "/api/brands", 200, 1001)}})})
			m.render()
			if !m.paused || m.hist.calls.len() != 27 || !strings.Contains(m.View(), "PAUSED +1") || m.counts.calls != 28 {
				t.Fatalf("paused view:\n%s", m.View())
			}
			press(m, " ")
			if m.paused || m.hist.calls.len() != 28 || selectedCallID(m) != callID(99) {
				t.Fatalf("resume: paused %v calls %d", m.paused, m.hist.calls.len())
			}
		}},
		{"Copy", []string{"up"}, []string{"y"}, func(t *testing.T, m *Model, _ *fakeControl, copied []string, _ tea.Msg) {
			want := "curl -X DELETE 'http://127.0.0.1:8080/api/pricelists/7' -H 'Content-Type: application/json' -H 'Service-Private-Api-Token: sbx_prv_00000000000000000000000000001002'"
			if len(copied) != 1 || copied[0] != want {
				t.Fatalf("copied %q", copied)
			}
			if !strings.Contains(m.View(), "curl command copied to the clipboard (test)") {
				t.Fatalf("no confirmation:\n%s", m.View())
			}
		}},
		{"PrintOnExit", nil, []string{"Y", "enter", "Y"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			got := m.CurlOnExit()
			if len(got) != 2 || !strings.Contains(got[0], "--data-raw '{\"data\":{\"statusId\":-2,\"note\":\"from the test\"}}'") || got[0] != got[1] {
				t.Fatalf("print on exit %q", got)
			}
		}},
		{"Replay", []string{"tab"}, []string{"r"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if got := ctl.log(); len(got) != 1 || got[0] != "replay dlv-0004" || !strings.Contains(m.View(), "replayed delivery dlv-0004") {
				t.Fatalf("control %v\n%s", got, m.View())
			}
		}},
		{"Emit", []string{"tab"}, []string{"E", "enter"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if got := ctl.log(); len(got) != 1 || got[0] != "emit 1002 customer:create b1c2d3e4-0000-4000-8000-000000000001" {
				t.Fatalf("control %v", got)
			}
			press(m, "1", "E")
			typeText(m, "2025000009")
			press(m, "enter")
			if got := ctl.log(); len(got) != 2 || got[1] != "emit 1001 order:create 2025000009" {
				t.Fatalf("control %v", got)
			}
		}},
		{"Clock", nil, []string{"+"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if !strings.Contains(m.View(), "advance the clock by: 1h█") {
				t.Fatalf("prompt:\n%s", m.View())
			}
			press(m, "backspace", "backspace")
			typeText(m, "3d")
			press(m, "enter")
			if got := ctl.log(); len(got) != 1 || got[0] != "clock 3d" || !strings.Contains(m.View(), "clock advanced by 3d") {
				t.Fatalf("control %v\n%s", got, m.View())
			}
			m.Update(itemsMsg{items: items(nil, []traffic.Event{{Type: traffic.TypeClock, Clock: &bus.ClockMove{Offset: 72 * time.Hour}}})})
			m.render()
			if !strings.Contains(m.View(), "2025-06-04 10:00:00 (+3d)") {
				t.Fatalf("clock not shown moved:\n%s", m.View())
			}
		}},
		{"Approve", nil, []string{"A", "enter"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if got := ctl.log(); len(got) != 1 || got[0] != "approve 1001 example-addon" {
				t.Fatalf("control %v", got)
			}
		}},
		{"Maintenance", nil, []string{"M"}, func(t *testing.T, m *Model, ctl *fakeControl, _ []string, _ tea.Msg) {
			if !m.maintOn || !strings.Contains(m.View(), "MAINTENANCE") {
				t.Fatalf("maintenance not shown on:\n%s", m.View())
			}
			press(m, "M")
			if got := ctl.log(); m.maintOn || len(got) != 2 || got[0] != "maintenance true" || got[1] != "maintenance false" {
				t.Fatalf("control %v on %v", got, m.maintOn)
			}
		}},
	}
	covered := map[string]bool{}
	for _, tc := range tests {
		covered[tc.binding] = true
		t.Run(tc.binding, func(t *testing.T) {
			m, _, ctl, copied := busyModel(t)
			for _, k := range tc.setup {
				press(m, k)
			}
			last := press(m, tc.keys...)
			tc.check(t, m, ctl, *copied, last)
			assertFits(t, m)
		})
	}
	kt := reflect.TypeOf(keyMap{})
	for i := 0; i < kt.NumField(); i++ {
		if !covered[kt.Field(i).Name] {
			t.Errorf("key binding %s has no test case", kt.Field(i).Name)
		}
	}
}

// TestWebhookDetail checks the detail pane of a failed attempt: target,
// signature, error, fault, and the payload pretty-printed.
func TestWebhookDetail(t *testing.T) {
	m, _, _, _ := busyModel(t)
	press(m, "v", "tab", "up", "up", "up", "up", "enter")
	v := m.View()
	for _, want := range []string{"delivery id dlv-0002 · attempt 1", "POST http://127.0.0.1:9100/webhooks", "500 Internal Server Error",
		"signature aa11bb22cc33dd44ee55ff6677889900aabbccdd", "fault applied: flaky-receiver", `"eventInstance": "2025000001"`} {
		if !strings.Contains(v, want) {
			t.Fatalf("no %q in:\n%s", want, v)
		}
	}
	press(m, "r")
	if !strings.Contains(m.View(), "replayed delivery dlv-0002") {
		t.Fatalf("replay from the detail pane:\n%s", m.View())
	}
}

// TestDetailScrolls checks the detail pane's scrolling keys.
func TestDetailScrolls(t *testing.T) {
	m, _, _, _ := busyModel(t)
	press(m, "enter")
	if m.detail.YOffset != 0 {
		t.Fatal("detail does not open at the top")
	}
	press(m, "down", "down")
	if m.detail.YOffset != 2 {
		t.Fatalf("offset %d after two downs", m.detail.YOffset)
	}
	press(m, "up")
	if m.detail.YOffset != 1 {
		t.Fatalf("offset %d after up", m.detail.YOffset)
	}
	press(m, "end")
	if !m.detail.AtBottom() || !strings.Contains(m.View(), `"requestId": "`+callID(27)+`"`) {
		t.Fatalf("end does not reach the body:\n%s", m.View())
	}
	press(m, "pgup", "home")
	if m.detail.YOffset != 0 {
		t.Fatal("home does not go to the top")
	}
	press(m, "pgdown")
	if m.detail.YOffset == 0 {
		t.Fatal("pgdown does not scroll")
	}
	press(m, "enter")
	if m.state != stateList {
		t.Fatal("enter does not close the detail pane")
	}
}

// TestActionFailures checks that a failing or missing control plane and
// malformed prompts are explained on the message line, never silent.
func TestActionFailures(t *testing.T) {
	m, _, ctl, _ := busyModel(t)
	ctl.fail = errors.New("POST /_sandbox/clock: 404 No endpoint POST /_sandbox/clock")
	press(m, "+", "enter")
	if !strings.Contains(m.View(), "clock advanced by 1h failed: POST /_sandbox/clock: 404") {
		t.Fatalf("failure not shown:\n%s", m.View())
	}
	press(m, "M")
	if m.maintOn {
		t.Fatal("a failed toggle must not change the state shown")
	}
	for _, tc := range []struct{ keys, text, want string }{
		{"E", "nonsense", "emit: type the e-shop, the event and the instance"},
		{"A", "x", "approve: type the e-shop and the add-on"},
		{"+", "", "clock: type a duration"},
	} {
		press(m, tc.keys, "ctrl+u")
		typeText(m, tc.text)
		press(m, "enter")
		if !strings.Contains(m.View(), tc.want) {
			t.Errorf("%s %q: no %q\n%s", tc.keys, tc.text, tc.want, m.View())
		}
	}
	press(m, "r")
	if !strings.Contains(m.View(), "select a webhook first") {
		t.Fatalf("replay on a call:\n%s", m.View())
	}
	press(m, "2", "y")
	if !strings.Contains(m.View(), "select a call first") {
		t.Fatalf("curl on a webhook:\n%s", m.View())
	}

	none := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	none.Update(sizeMsg(80, 24))
	press(none, "M")
	if !strings.Contains(none.View(), "no control plane") {
		t.Fatalf("no control plane:\n%s", none.View())
	}
}

// TestPromptEditing checks the line editor's keys.
func TestPromptEditing(t *testing.T) {
	m, _, _, _ := busyModel(t)
	press(m, "/")
	typeText(m, "api orders")
	press(m, "ctrl+w")
	if m.input.text() != "api " {
		t.Fatalf("ctrl+w left %q", m.input.text())
	}
	press(m, "ctrl+u")
	if m.input.text() != "" || !m.filter.text.empty() {
		t.Fatalf("ctrl+u left %q", m.input.text())
	}
	if _, ok := press(m, "ctrl+c").(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c does not quit from a prompt")
	}
}

package tui

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/traffic"
)

func sizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// keyMsg builds the message a terminal sends for a key name.
func keyMsg(k string) tea.KeyMsg {
	special := map[string]tea.KeyType{
		"up": tea.KeyUp, "down": tea.KeyDown, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome,
		"end": tea.KeyEnd, "enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"ctrl+c": tea.KeyCtrlC, "ctrl+u": tea.KeyCtrlU, "ctrl+d": tea.KeyCtrlD, "ctrl+w": tea.KeyCtrlW, " ": tea.KeySpace,
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
	case actionMsg, clipboardMsg:
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
		Clipboard: func(s string) error { *copied = append(*copied, s); return nil }})
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
			if selectedCallID(m) != callID(26) || m.callCur.follow {
				t.Fatalf("selected %s follow %v", selectedCallID(m), m.callCur.follow)
			}
		}},
		{"Down", []string{"k", "k"}, []string{"j"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if selectedCallID(m) != callID(26) {
				t.Fatalf("selected %s", selectedCallID(m))
			}
		}},
		{"PageUp", nil, []string{"pgup"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if want := callID(27 - (m.bodyHeight() - 2)); selectedCallID(m) != want {
				t.Fatalf("selected %s, want %s", selectedCallID(m), want)
			}
		}},
		{"PageDown", []string{"g"}, []string{"pgdown"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if want := callID(1 + m.bodyHeight() - 2); selectedCallID(m) != want {
				t.Fatalf("selected %s, want %s", selectedCallID(m), want)
			}
		}},
		{"Oldest", nil, []string{"home"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if selectedCallID(m) != callID(1) || !strings.Contains(m.View(), "> 10:00:01") {
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
			if m.state != stateDetail || m.detailCall.ID != callID(26) || !strings.Contains(m.View(), "request id "+callID(26)) {
				t.Fatalf("state %d\n%s", m.state, m.View())
			}
		}},
		{"Back", []string{"enter"}, []string{"esc"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.state != stateList {
				t.Fatalf("state %d", m.state)
			}
			press(m, "s", "esc")
			if m.filter.active() {
				t.Fatalf("esc in the list keeps filter %s", m.filter)
			}
		}},
		{"Switch", nil, []string{"tab"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.tab != tabWebhooks || !strings.Contains(m.View(), "[Webhooks 5]") {
				t.Fatalf("tab %d\n%s", m.tab, m.View())
			}
			press(m, "tab")
			if m.tab != tabCalls {
				t.Fatal("tab does not switch back")
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
		{"Help", nil, []string{"?"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.state != stateHelp || !strings.Contains(m.View(), "filter by text") {
				t.Fatalf("help:\n%s", m.View())
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
			if m.filter.text != "api/orders" || !strings.Contains(m.View(), "filter: api/orders█") {
				t.Fatalf("live filter %q\n%s", m.filter.text, m.View())
			}
			press(m, "enter")
			for _, r := range m.callRows() {
				if !strings.Contains(r.c.Path, "api/orders") {
					t.Fatalf("row %s passes filter api/orders", r.c.Path)
				}
			}
			press(m, "/", "backspace", "backspace", "esc")
			if m.filter.text != "api/orders" || len(m.callRows()) != 9 {
				t.Fatalf("esc must restore the filter, got %q", m.filter.text)
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
		{"Clear", []string{"s", "e", "m"}, []string{"c"}, func(t *testing.T, m *Model, _ *fakeControl, _ []string, _ tea.Msg) {
			if m.filter.active() || len(m.callRows()) != 27 {
				t.Fatalf("filter %s", m.filter)
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
		{"Copy", []string{"up", "up"}, []string{"y"}, func(t *testing.T, m *Model, _ *fakeControl, copied []string, _ tea.Msg) {
			want := "curl -X DELETE 'http://127.0.0.1:8080/api/pricelists/7' -H 'Content-Type: application/json' -H 'Service-Private-Api-Token: sbx_prv_00000000000000000000000000001002'"
			if len(copied) != 1 || copied[0] != want {
				t.Fatalf("copied %q", copied)
			}
			if !strings.Contains(m.View(), "copied to the clipboard") {
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
			if got := ctl.log(); len(got) != 1 || got[0] != "replay dlv-0003" || !strings.Contains(m.View(), "replayed delivery dlv-0003") {
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
	press(m, "tab", "up", "up", "up", "enter")
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
	if m.input.text() != "" || m.filter.text != "" {
		t.Fatalf("ctrl+u left %q", m.input.text())
	}
	if _, ok := press(m, "ctrl+c").(tea.QuitMsg); !ok {
		t.Fatal("ctrl+c does not quit from a prompt")
	}
}

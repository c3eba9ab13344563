package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// TestConfirmQuit checks that with Options.ConfirmQuit (sandbox up with
// its store in memory) q asks first: n, esc or any other key keeps the UI,
// y or a second ctrl+c quits; from a prompt too.
func TestConfirmQuit(t *testing.T) {
	const question = "Quitting stops the sandbox; its in-memory data is lost. Quit? y/n"
	newModel := func() *Model {
		m := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 }, Renderer: plainRenderer(), ConfirmQuit: question})
		m.Update(sizeMsg(80, 24))
		m.Update(itemsMsg{items: items(testInfo(), busyEvents())})
		return m
	}
	tests := []struct {
		keys []string
		quit bool
	}{
		{[]string{"q", "n"}, false},
		{[]string{"q", "esc"}, false},
		{[]string{"q", "x"}, false},
		{[]string{"q", "y"}, true},
		{[]string{"ctrl+c", "ctrl+c"}, true},
		{[]string{"/", "ctrl+c", "y"}, true},
		{[]string{"?", "q", "n"}, false},
	}
	for _, tc := range tests {
		m := newModel()
		last := press(m, tc.keys[:len(tc.keys)-1]...)
		if _, quit := last.(tea.QuitMsg); quit {
			t.Fatalf("%v: quit before the answer", tc.keys)
		}
		if m.state != stateConfirm || !strings.Contains(m.View(), question) {
			t.Fatalf("%v: no question\n%s", tc.keys, m.View())
		}
		before := m.under
		_, quit := press(m, tc.keys[len(tc.keys)-1]).(tea.QuitMsg)
		if quit != tc.quit {
			t.Fatalf("%v: quit %v", tc.keys, quit)
		}
		if !quit && (m.state != before || !strings.Contains(m.View(), "still running")) {
			t.Fatalf("%v: state %d, want %d\n%s", tc.keys, m.state, before, m.View())
		}
	}
	m, _, _, _ := busyModel(t) // no question: sandbox tui, or a data file
	if _, quit := press(m, "q").(tea.QuitMsg); !quit {
		t.Fatal("q without ConfirmQuit does not quit at once")
	}
}

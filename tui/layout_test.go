package tui

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// assertFits checks the frame has exactly the terminal's height in lines
// and no line wider than the terminal.
func assertFits(t *testing.T, m *Model) {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != m.height {
		t.Fatalf("%d lines for height %d:\n%s", len(lines), m.height, m.View())
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Fatalf("line %d is %d wide for width %d: %q", i, w, m.width, l)
		}
	}
}

// TestFitsEverySize resizes through small, standard and large terminals
// in every state and checks each frame fits.
func TestFitsEverySize(t *testing.T) {
	states := map[string][]string{
		"calls":    nil,
		"webhooks": {"tab"},
		"focus":    {"enter"},
		"detail":   {"v", "enter"},
		"hookdet":  {"tab", "enter"},
		"nosplit":  {"v"},
		"help":     {"?"},
		"info":     {"i"},
		"prompt":   {"/"},
		"confirm":  {"b", "x"},
		"filtered": {"s", "e", "m"},
		"sorted":   {"o", "o", "O"},
		"control":  {"a"},
		"report":   {"3"},
		"faults":   {"4"},
		"outbox":   {"5"},
		"jobs":     {"6"},
		"installs": {"7", "enter"},
	}
	for name, keys := range states {
		t.Run(name, func(t *testing.T) {
			m, _, _, _ := busyModel(t)
			press(m, keys...)
			for _, sz := range [][2]int{{80, 24}, {40, 10}, {120, 40}, {200, 60}, {81, 25}, {100, 30}, {60, 15}} {
				m.Update(sizeMsg(sz[0], sz[1]))
				assertFits(t, m)
			}
		})
	}
	m, _, _, _ := busyModel(t)
	m.Update(sizeMsg(30, 8))
	if !strings.Contains(m.View(), "terminal too small") {
		t.Fatalf("tiny terminal: %q", m.View())
	}
	m.Update(sizeMsg(80, 24))
	assertFits(t, m)
}

// TestSplitLayout checks the split view's two layouts: the detail beside
// the list from 120 columns, under it below; both show the selection.
func TestSplitLayout(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		side bool
	}{{120, 40, true}, {200, 50, true}, {119, 40, false}, {80, 24, false}} {
		m, _, _, _ := busyModel(t)
		m.Update(sizeMsg(tc.w, tc.h))
		lines := strings.Split(m.View(), "\n")
		beside := strings.Contains(lines[2], "│") && strings.Contains(lines[2], "Call · request id 0000")
		below := false
		for _, l := range lines[3:] {
			if strings.HasPrefix(l, "  Call · request id "+callID(27)) {
				below = true
			}
		}
		if beside != tc.side || below == tc.side {
			t.Fatalf("%dx%d: beside %v below %v\n%s", tc.w, tc.h, beside, below, m.View())
		}
		if !strings.Contains(m.View(), "> 10:00:27.000") {
			t.Fatalf("%dx%d: no selection\n%s", tc.w, tc.h, m.View())
		}
		assertFits(t, m)
	}
}

// TestNoColor checks that NO_COLOR takes every escape sequence out of the
// frame while the text stays the same as with colours on.
func TestNoColor(t *testing.T) {
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("COLORTERM", "truecolor")
	frame := func() string {
		m := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 },
			Renderer: lipgloss.NewRenderer(io.Discard, termenv.WithUnsafe())})
		m.Update(sizeMsg(80, 24))
		m.Update(itemsMsg{items: items(testInfo(), busyEvents())})
		press(m, "up")
		return m.View()
	}
	t.Setenv("NO_COLOR", "")
	colour := frame()
	if !strings.Contains(colour, "\x1b[") {
		t.Fatal("no escape sequences with colours on; the test proves nothing")
	}
	t.Setenv("NO_COLOR", "1")
	plain := frame()
	if strings.Contains(plain, "\x1b") {
		t.Fatalf("escape sequences with NO_COLOR:\n%q", plain)
	}
	if ansi.Strip(colour) != plain {
		t.Fatalf("the text differs without colour:\n%s\n---\n%s", ansi.Strip(colour), plain)
	}
	if !strings.Contains(plain, "> 10:00:25.000") {
		t.Fatal("without colour the selection must still show")
	}
}

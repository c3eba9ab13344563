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
		"detail":   {"enter"},
		"hookdet":  {"tab", "enter"},
		"help":     {"?"},
		"info":     {"i"},
		"prompt":   {"/"},
		"filtered": {"s", "e", "m"},
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
	if !strings.Contains(plain, "> 10:00:26") {
		t.Fatal("without colour the selection must still show")
	}
}

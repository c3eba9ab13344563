package tui

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestGoldenViews runs the UI as a bubbletea program (teatest) at 80x24
// and 120x40, without colour, with a fixed clock and deterministic ids,
// and compares the final frame with testdata/TestGoldenViews/*.golden.
// Regenerate with: go test ./tui -run TestGoldenViews -update
func TestGoldenViews(t *testing.T) {
	views := []struct {
		name string
		feed bool     // the busy fixture, or only the sandbox info
		keys []string // pressed before the frame is taken
	}{
		{"empty", false, nil},
		{"busy", true, nil},
		{"detail", true, []string{"up", "up", "enter"}},
		{"filtered", true, []string{"/", "o", "r", "d", "e", "r", "s", "enter", "e", "s"}},
		{"webhooks", true, []string{"tab", "up"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, v := range views {
			t.Run(fmt.Sprintf("%s_%dx%d", v.name, size[0], size[1]), func(t *testing.T) {
				m, src, _ := newTestModel()
				defer src.Close()
				tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
				var evs = busyEvents()
				if !v.feed {
					evs = nil
				}
				src.ch <- Item{Info: testInfo()}
				for _, it := range items(nil, evs) {
					src.ch <- it
				}
				// The feed arrives through the program's own read loop; wait
				// until the frame shows all of it before pressing keys.
				want := "e-shops 1001 1002"
				if v.feed {
					want = "calls 27  errors 12  deliveries 5  failed 3"
				}
				teatest.WaitFor(t, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(want)) },
					teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
				for _, k := range v.keys {
					tm.Send(keyMsg(k))
				}
				tm.Send(keyMsg("q"))
				fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
				golden.RequireEqual(t, []byte(fm.View()))
			})
		}
	}
}

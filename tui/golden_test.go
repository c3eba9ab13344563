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
		wait string   // shown once the keys took effect (a view's fetch answered)
	}{
		{"empty", false, nil, ""},
		{"busy", true, nil, ""},                                      // the split view: stacked at 80x24, side by side at 120x40
		{"list", true, []string{"v"}, ""},                            // the split view off: the table alone
		{"detail", true, []string{"v", "up", "up", "enter"}, ""},     // the detail on the whole screen
		{"focus", true, []string{"up", "enter", "down", "down"}, ""}, // the split view's detail has the keys
		{"filtered", true, []string{"/", "o", "r", "d", "e", "r", "s", " ", "!", "~", "^", "G", "E", "T", "enter", "e", "s"}, ""},
		{"search", true, []string{"b", "s", "t", "a", "t", "u", "s", "I", "d", "enter"}, ""},
		{"sorted", true, []string{"o", "o", "o", "o", "o", "O"}, ""},
		{"control", true, []string{"a"}, ""},
		{"webhooks", true, []string{"tab", "up"}, ""},
		{"queued", true, []string{"2"}, ""},
		{"report", true, []string{"3"}, "[Report 3]"},
		{"faults", true, []string{"4", "up"}, "[Faults 3]"},
		{"outbox", true, []string{"5"}, "[Outbox 2]"},
		{"jobs", true, []string{"6", "up"}, "[Jobs 3]"},
		{"installs", true, []string{"7"}, "[Installs 2]"},
		{"help", true, []string{"?"}, ""},
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
				for i, k := range v.keys {
					tm.Send(keyMsg(k))
					if i == 0 && v.wait != "" { // the view is read by the program's own command
						teatest.WaitFor(t, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(v.wait)) },
							teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
					}
				}
				tm.Send(keyMsg("q"))
				fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
				golden.RequireEqual(t, []byte(fm.View()))
			})
		}
	}
}

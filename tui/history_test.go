package tui

import (
	"net/http"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// TestResetDropsQueuedNotifications: a reset that went through empties
// the webhook queues, so the notifications shown as queued go; attempts
// already made stay, and a refused reset or another call changes nothing.
func TestResetDropsQueuedNotifications(t *testing.T) {
	queued := func(h *history) (q, made int) {
		for i := 0; i < h.attempts.len(); i++ {
			if h.attempts.at(i).queued {
				q++
			} else {
				made++
			}
		}
		return q, made
	}
	for _, tc := range []struct {
		name      string
		call      bus.Call
		wantQueue int
	}{
		{"reset", bus.Call{Method: http.MethodPost, Path: "/_sandbox/reset", Operation: "sandbox.reset", Status: 200}, 0},
		{"reset with a query", bus.Call{Method: http.MethodPost, Path: "/_sandbox/reset?eshop=1001", Operation: "sandbox.reset", Status: 200}, 0},
		{"refused reset", bus.Call{Method: http.MethodPost, Path: "/_sandbox/reset", Operation: "sandbox.reset", Status: 403}, 2},
		{"another call", bus.Call{Method: http.MethodPost, Path: "/_sandbox/clock", Operation: "sandbox.clock.move", Status: 200}, 2},
		{"a read of the reset path", bus.Call{Method: http.MethodGet, Path: "/_sandbox/reset", Status: 200}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(10)
			h.addAttempt(&bus.Delivery{ID: "n1", Attempt: 1, Status: 500}, false)
			h.addAttempt(&bus.Delivery{ID: "n1", Attempt: 2}, true)
			h.addAttempt(&bus.Delivery{ID: "n2", Attempt: 1}, true)
			c := tc.call
			h.addCall(&c)
			if q, made := queued(h); q != tc.wantQueue || made != 1 {
				t.Fatalf("%d queued, %d made; want %d queued, 1 made", q, made, tc.wantQueue)
			}
		})
	}
}

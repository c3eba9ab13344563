package certify

import (
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
)

// TestMaxOpen: calls overlap when one starts before another's answer
// ended; a call that starts as another ends does not overlap it; tokens
// are counted apart.
func TestMaxOpen(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	call := func(id, tok string, start, ms int) *bus.Call {
		h := http.Header{}
		h.Set("Service-Access-Token", tok)
		return &bus.Call{ID: id, ReqHeader: h, Received: t0.Add(time.Duration(start) * time.Millisecond), Duration: time.Duration(ms) * time.Millisecond}
	}
	for _, tc := range []struct {
		name  string
		calls []*bus.Call
		most  int
		peak  []string
	}{
		{"none", nil, 0, nil},
		{"one after another", []*bus.Call{call("a", "t", 0, 10), call("b", "t", 10, 10), call("c", "t", 20, 10)}, 1, []string{"a"}},
		{"three at once", []*bus.Call{call("a", "t", 0, 100), call("b", "t", 10, 100), call("c", "t", 20, 100), call("d", "t", 100, 10)}, 3, []string{"a", "b", "c"}},
		{"four at once", []*bus.Call{call("a", "t", 0, 100), call("b", "t", 1, 100), call("c", "t", 2, 100), call("d", "t", 3, 100)}, 4, []string{"a", "b", "c", "d"}},
		{"two tokens are counted apart", []*bus.Call{call("a", "t", 0, 100), call("b", "t", 1, 100), call("c", "u", 2, 100), call("d", "u", 3, 100)}, 2, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			most, peak := maxOpen(tc.calls, "Service-Access-Token")
			if most != tc.most || len(peak) != len(tc.peak) {
				t.Fatalf("maxOpen = %d %v, want %d %v", most, ids(peak), tc.most, tc.peak)
			}
			for i, c := range peak {
				if c.ID != tc.peak[i] {
					t.Fatalf("peak %v, want %v", ids(peak), tc.peak)
				}
			}
		})
	}
}

func ids(cs []*bus.Call) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

package certify

import (
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
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

// TestRetriesIn: a 400/422 round counts as retries only resends of its
// own refused request sent after the refusal; the refused call itself,
// flagged because an earlier round refused the same read, is not one.
func TestRetriesIn(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	call := func(id, path string, start int) *bus.Call {
		return &bus.Call{ID: id, Method: http.MethodGet, Path: path, RemoteAddr: "127.0.0.1:5000",
			Received: t0.Add(time.Duration(start) * time.Millisecond), Duration: time.Millisecond}
	}
	refused := call("refused", "/api/orders/statuses", 0)
	parallel := &bus.Call{ID: "parallel", Method: http.MethodGet, Path: "/api/orders/statuses", RemoteAddr: "127.0.0.1:5001", Received: t0}
	resent := call("resent", "/api/orders/statuses", 20)
	other := call("other", "/api/orders/2025000001", 30)
	r := round{name: "certify-422", calls: []*bus.Call{refused, parallel, resent, other}, faulted: refused}
	finding := func(id string) scenario.Finding { // as the contract report writes it: on the call it judged
		for _, c := range r.calls {
			if c.ID == id {
				return scenario.Finding{Rule: scenario.RuleRetriedUnchanged, RequestID: id, Method: c.Method, Path: c.Path}
			}
		}
		t.Fatalf("no call %s", id)
		return scenario.Finding{}
	}
	for _, tc := range []struct {
		name string
		fs   findings
		want []string
	}{
		{"a resend after the refusal", findings{finding("resent")}, []string{"resent"}},
		{"the refused call, flagged against an earlier round", findings{finding("refused")}, nil},
		{"a parallel call on its way", findings{finding("parallel")}, nil},
		{"another request", findings{finding("other")}, nil},
		{"another rule", findings{{Rule: scenario.RuleIgnoredRetryAfter, RequestID: "resent"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range retriesIn(tc.fs, r) {
				got = append(got, f.RequestID)
			}
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Fatalf("retries %v, want %v", got, tc.want)
			}
		})
	}
}

// TestResentOrWaited: the 429 round lasts until the add-on sent the
// refused request again or called once the Retry-After time came; a
// call sent beside the refused one, refused too, does not end it (the
// next round's fault would meet the add-on's retry).
func TestResentOrWaited(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	call := func(path string, ms int) *bus.Call {
		at := t0.Add(time.Duration(ms) * time.Millisecond)
		return &bus.Call{ID: path, Method: http.MethodGet, Path: path, Time: at, Received: at, Duration: time.Millisecond}
	}
	faulted := call("/api/orders/1", 0)
	faulted.Status, faulted.RespHeader = 429, http.Header{"Retry-After": {t0.Add(2 * time.Second).Format(http.TimeFormat)}}
	for _, tc := range []struct {
		name  string
		later []*bus.Call
		want  bool
	}{
		{"no call after it", nil, false},
		{"another read sent beside it", []*bus.Call{call("/api/orders/statuses", 1)}, false},
		{"the same request at once", []*bus.Call{call("/api/orders/1", 5)}, true},
		{"another call once the time came", []*bus.Call{call("/api/orders/statuses", 1), call("/api/orders/statuses", 2000)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := round{faulted: faulted, calls: append([]*bus.Call{faulted}, tc.later...)}
			if got := resentOrWaited(r); got != tc.want {
				t.Fatalf("resentOrWaited = %v, want %v", got, tc.want)
			}
		})
	}
}

package runner

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// trafficLog keeps, losslessly, every call and delivery of a run (fed by a
// bus hook) so expectations can look back and wait for what comes.
type trafficLog struct {
	mu         sync.Mutex
	calls      []*bus.Call
	deliveries []bus.Delivery
	acted      map[string]int // scripted fault name -> times it acted (on any call or delivery)
	changed    chan struct{}  // closed and replaced on every addition
}

func newTrafficLog() *trafficLog {
	return &trafficLog{acted: map[string]int{}, changed: make(chan struct{})}
}

// hook is the bus consumer; it only appends.
func (l *trafficLog) hook(m bus.Message) {
	switch m.Topic {
	case bus.TopicCall:
		c := m.Call()
		if c == nil || isOwn(c) {
			return
		}
		l.add(func() { l.calls = append(l.calls, c) })
	case bus.TopicDelivery:
		if d := m.Delivery(); d != nil {
			l.add(func() { l.deliveries = append(l.deliveries, *d) })
		}
	case bus.TopicFault:
		if f, ok := m.Data.(bus.Fault); ok {
			l.mu.Lock()
			l.acted[f.Name]++
			l.mu.Unlock()
		}
	}
}

// actedCount reports how often a scripted fault acted so far.
func (l *trafficLog) actedCount(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.acted[name]
}

// isOwn tells the runner's own calls (and the control plane) apart from
// the add-on's.
func isOwn(c *bus.Call) bool {
	return strings.HasPrefix(c.Path, "/_sandbox") || c.ReqHeader.Get("User-Agent") == scenario.RunnerAgent
}

func (l *trafficLog) add(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f()
	close(l.changed)
	l.changed = make(chan struct{})
}

// marks returns how many calls and deliveries are logged so far.
func (l *trafficLog) marks() (int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.calls), len(l.deliveries)
}

// since returns the calls and deliveries logged after the marks, and a
// channel closed at the next addition.
func (l *trafficLog) since(calls, deliveries int) ([]*bus.Call, []bus.Delivery, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*bus.Call(nil), l.calls[min(calls, len(l.calls)):]...),
		append([]bus.Delivery(nil), l.deliveries[min(deliveries, len(l.deliveries)):]...), l.changed
}

// waitFor re-evaluates check on every addition until it is done or the
// time is up; check returns done and a result.
func waitFor[T any](ctx context.Context, l *trafficLog, calls, deliveries int, within time.Duration, check func([]*bus.Call, []bus.Delivery) (bool, T)) (bool, T) {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		cs, ds, changed := l.since(calls, deliveries)
		if done, v := check(cs, ds); done {
			return true, v
		}
		select {
		case <-changed:
		case <-deadline.C:
			cs, ds, _ := l.since(calls, deliveries)
			return check(cs, ds)
		case <-ctx.Done():
			var zero T
			return false, zero
		}
	}
}

// facts describes a logged call for the fault matcher's conditions.
// facts are what a fault or an expectation matches a recorded call on,
// with the add-on an add-on token belongs to.
func (r *run) facts(c *bus.Call) scenario.Facts {
	f := facts(c, r.headers)
	if f.TokenKind == auth.KindAddon && f.Token != "" {
		f.Addon = r.addonOf(f.Token)
	}
	return f
}

// addonOf names the add-on an API token was issued to ("" when the
// sandbox does not know the token), remembered per token.
func (r *run) addonOf(tok string) string {
	r.tokensMu.Lock()
	defer r.tokensMu.Unlock()
	if name, ok := r.tokenAddons[tok]; ok {
		return name
	}
	name := ""
	if r.app != nil {
		_ = r.app.Store.View(func(tx *store.Tx) error {
			if t, err := auth.GetToken(tx, tok); err == nil {
				name = t.Addon
			}
			return nil
		})
	}
	if r.tokenAddons == nil {
		r.tokenAddons = map[string]string{}
	}
	r.tokenAddons[tok] = name
	return name
}

func facts(c *bus.Call, h headerNames) scenario.Facts {
	f := scenario.Facts{Method: c.Method, Path: pathOnly(c.Path), Operation: c.Operation, Eshop: c.Eshop, TokenKind: c.TokenKind, Header: c.ReqHeader}
	if t := c.ReqHeader.Get(h.access); t != "" {
		f.Token, f.TokenKind = t, "addon"
	} else if t := c.ReqHeader.Get(h.private); t != "" {
		f.Token, f.TokenKind = t, "private"
	}
	return f
}

type headerNames struct{ access, private string }

func pathOnly(p string) string {
	if u, err := url.Parse(p); err == nil {
		return u.Path
	}
	return p
}

// describeCall is one line of traffic for a report.
func describeCall(c *bus.Call) string {
	s := fmt.Sprintf("%s %s %s -> %d", c.Time.UTC().Format("15:04:05.000"), c.Method, c.Path, c.Status)
	if c.Operation != "" {
		s += " (" + c.Operation + ")"
	}
	if ra := c.RespHeader.Get("Retry-After"); ra != "" {
		s += " Retry-After: " + ra
	}
	if c.Fault != "" {
		s += " [fault " + c.Fault + "]"
	}
	return s
}

// describeDelivery is one line of webhook traffic for a report.
func describeDelivery(d bus.Delivery) string {
	s := fmt.Sprintf("%s webhook %s %s to %s, attempt %d -> ", d.Time.UTC().Format("15:04:05.000"), d.Event, d.Instance, d.URL, d.Attempt)
	if d.Error != "" && d.Status == 0 {
		s += d.Error
	} else {
		s += fmt.Sprint(d.Status)
	}
	if d.Fault != "" {
		s += " [fault " + d.Fault + "]"
	}
	return s
}

// traffic lists the last n lines of calls and deliveries.
func traffic(cs []*bus.Call, ds []bus.Delivery, n int) []string {
	var out []string
	for _, c := range cs {
		out = append(out, describeCall(c))
	}
	for _, d := range ds {
		out = append(out, describeDelivery(d))
	}
	if len(out) > n {
		out = append([]string{fmt.Sprintf("... %d earlier lines", len(out)-n)}, out[len(out)-n:]...)
	}
	return out
}

// retryAfter parses a call's Retry-After (an HTTP date, or seconds from
// the call's time).
func retryAfter(c *bus.Call) (time.Time, bool) {
	v := strings.TrimSpace(c.RespHeader.Get("Retry-After"))
	if v == "" {
		return time.Time{}, false
	}
	if t, err := http.ParseTime(v); err == nil {
		return t, true
	}
	var secs int
	if _, err := fmt.Sscanf(v, "%d", &secs); err == nil {
		return c.Time.Add(time.Duration(secs) * time.Second), true
	}
	return time.Time{}, false
}

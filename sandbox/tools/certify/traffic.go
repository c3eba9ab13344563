package certify

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

// trafficLog keeps, losslessly, every call the add-on made to the run's
// sandbox and every webhook delivery attempt to it (fed by a bus hook):
// the facts the checks are decided on. certify's own calls (the control
// plane, and API calls made with the scenario runner's User-Agent) are
// left out.
type trafficLog struct {
	mu         sync.Mutex
	calls      []*bus.Call
	deliveries []bus.Delivery
	installs   []*addons.InstallReport
	last       time.Time     // wall time of the last addition
	changed    chan struct{} // closed and replaced on every addition
}

func newTrafficLog() *trafficLog { return &trafficLog{changed: make(chan struct{}), last: time.Now()} }

// hook is the bus consumer; it only appends.
func (l *trafficLog) hook(m bus.Message) {
	switch m.Topic {
	case bus.TopicCall:
		c := m.Call()
		if c == nil || strings.HasPrefix(c.Path, "/_sandbox") || c.ReqHeader.Get("User-Agent") == scenario.RunnerAgent {
			return
		}
		l.add(func() { l.calls = append(l.calls, c) })
	case bus.TopicDelivery:
		if d := m.Delivery(); d != nil {
			l.add(func() { l.deliveries = append(l.deliveries, *d) })
		}
	case addons.TopicInstall:
		if rec, ok := m.Data.(*addons.InstallReport); ok {
			l.add(func() { l.installs = append(l.installs, rec) })
		}
	}
}

func (l *trafficLog) add(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f()
	l.last = time.Now()
	close(l.changed)
	l.changed = make(chan struct{})
}

// mark is a position in the log: how many calls and deliveries came
// before it.
type mark struct{ calls, deliveries int }

func (l *trafficLog) mark() mark {
	l.mu.Lock()
	defer l.mu.Unlock()
	return mark{len(l.calls), len(l.deliveries)}
}

// between returns the calls and deliveries logged from a up to b (b
// zero: up to now).
func (l *trafficLog) between(a, b mark) ([]*bus.Call, []bus.Delivery) {
	l.mu.Lock()
	defer l.mu.Unlock()
	cb, db := len(l.calls), len(l.deliveries)
	if b != (mark{}) {
		cb, db = min(b.calls, cb), min(b.deliveries, db)
	}
	return append([]*bus.Call(nil), l.calls[min(a.calls, cb):cb]...), append([]bus.Delivery(nil), l.deliveries[min(a.deliveries, db):db]...)
}

// all returns everything logged.
func (l *trafficLog) all() ([]*bus.Call, []bus.Delivery) { return l.between(mark{}, mark{}) }

// waitFor re-evaluates done on every addition after from until it holds,
// the time is up or ctx ends; it reports whether it held.
func (l *trafficLog) waitFor(ctx context.Context, from mark, within time.Duration, done func([]*bus.Call, []bus.Delivery) bool) bool {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		changed := l.changed
		l.mu.Unlock()
		if done(l.between(from, mark{})) {
			return true
		}
		select {
		case <-changed:
		case <-deadline.C:
			return done(l.between(from, mark{}))
		case <-ctx.Done():
			return false
		}
	}
}

// waitQuiet waits until nothing was logged for quiet, counted from now
// at the earliest, at most for longest: the add-on has finished what the
// last stimulus set off. (A call is logged when it ends, so quiet must
// exceed any latency the run adds.)
func (l *trafficLog) waitQuiet(ctx context.Context, quiet, longest time.Duration) {
	began := time.Now()
	end := began.Add(longest)
	for {
		l.mu.Lock()
		idle := time.Since(l.last)
		if since := time.Since(began); since < idle {
			idle = since
		}
		changed := l.changed
		l.mu.Unlock()
		if idle >= quiet || !time.Now().Before(end) {
			return
		}
		wait := min(quiet-idle, time.Until(end))
		t := time.NewTimer(wait)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
		t.Stop()
	}
}

// describeCall is one line of evidence for a call: sandbox time, method,
// path, status, the fault that answered it, Retry-After, and the token.
func describeCall(c *bus.Call, tokenHeader string) string {
	s := fmt.Sprintf("%s %s %s -> %d", c.Time.UTC().Format("15:04:05.000"), c.Method, c.Path, c.Status)
	if c.Fault != "" {
		s += " [fault " + c.Fault + "]"
	}
	if ra := c.RespHeader.Get("Retry-After"); ra != "" {
		s += ", Retry-After: " + ra
	}
	if tok := c.ReqHeader.Get(tokenHeader); tok != "" {
		s += ", token " + short(tok)
	}
	return s
}

// describeDelivery is one line of evidence for a delivery attempt the
// sandbox's dispatcher made.
func describeDelivery(d bus.Delivery) string {
	s := fmt.Sprintf("%s webhook %s %s to %s, attempt %d -> ", d.Time.UTC().Format("15:04:05.000"), d.Event, d.Instance, d.URL, d.Attempt)
	if d.Status == 0 && d.Error != "" {
		return s + d.Error
	}
	return s + fmt.Sprintf("%d in %s", d.Status, d.Duration.Round(time.Millisecond))
}

// short keeps enough of a token to tell tokens apart in a report.
func short(tok string) string {
	if len(tok) <= 16 {
		return tok
	}
	return tok[:16] + "…"
}

// isAPI tells the API calls (what the rules judge) from the OAuth
// server's and the e-shop pages'.
func isAPI(c *bus.Call) bool { return strings.HasPrefix(c.Path, "/api/") }

// endOf is when the sandbox finished a call (wall clock): its answer was
// on its way by then.
func endOf(c *bus.Call) time.Time { return startOf(c).Add(c.Duration) }

// startOf is when the sandbox began a call (wall clock; the sandbox clock
// when the recorder gave none).
func startOf(c *bus.Call) time.Time {
	if c.Received.IsZero() {
		return c.Time
	}
	return c.Received
}

package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// recorder keeps every domain event the sandbox publishes (the bus
// carries them to the webhook dispatcher after each commit), so an entry
// can ask which events its write emitted.
type recorder struct {
	mu     sync.Mutex
	events []sandbox.Event
}

func newRecorder(b *bus.Bus) *recorder {
	r := &recorder{}
	b.Hook(func(m bus.Message) {
		if m.Topic == bus.TopicEvent && m.Event != nil {
			r.mu.Lock()
			r.events = append(r.events, *m.Event)
			r.mu.Unlock()
		}
	})
	return r
}

// mark is the position after the events so far.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// since returns the events published after a mark.
func (r *recorder) since(mark int) []sandbox.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sandbox.Event(nil), r.events[mark:]...)
}

// await waits up to a second for an event of kind with the instance
// after mark; it returns what was seen instead when it does not come.
func (r *recorder) await(mark int, kind, instance string) (bool, string) {
	deadline := time.Now().Add(time.Second)
	for {
		var seen []string
		for _, ev := range r.since(mark) {
			if ev.Kind == kind && ev.Instance == instance {
				return true, ""
			}
			seen = append(seen, ev.Kind+" "+ev.Instance)
		}
		if time.Now().After(deadline) {
			if len(seen) == 0 {
				return false, "no event at all"
			}
			if len(seen) > 8 {
				seen = append(seen[:8], "…")
			}
			return false, "saw " + strings.Join(seen, ", ")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// follow drives an asynchronous job to its end: the sandbox clock moves
// past the job's run (POST /_sandbox/clock), then the job detail is read
// until it is no longer pending or running. It returns the job record.
func (c *client) follow(jobID string) (gjson.Result, error) {
	if a, err := c.do(http.MethodPost, "/_sandbox/clock", map[string]any{"advance": "10s"}); err != nil || a.status != 200 {
		return gjson.Result{}, fmt.Errorf("moving the clock: %v %v", err, a)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		a, err := c.do(http.MethodGet, "/api/system/jobs/"+url.PathEscape(jobID), nil)
		if err != nil {
			return gjson.Result{}, err
		}
		j := a.get("data.job")
		switch st := j.Get("status").String(); st {
		case "pending", "running":
			if time.Now().After(deadline) {
				return j, fmt.Errorf("job %s still %s after 5 s", jobID, st)
			}
			time.Sleep(10 * time.Millisecond)
		case "completed":
			return j, nil
		default:
			return j, fmt.Errorf("job %s ended %s: %s", jobID, st, j.Get("log").String())
		}
	}
}

// logCount counts the change-log items with key = id and the change
// type, since a sandbox time.
func (c *client) logCount(lc *logCheck, vars groupVars, ans *answer, from string) (int, error) {
	id := expand(lc.id, vars, ans)
	n := 0
	for page := 1; page <= 50; page++ {
		a, err := c.do(http.MethodGet, fmt.Sprintf("%s?from=%s&itemsPerPage=100&page=%d", expand(lc.path, vars, ans), url.QueryEscape(from), page), nil)
		if err != nil {
			return 0, err
		}
		if a.status != 200 {
			return 0, fmt.Errorf("GET %s: %s", lc.path, a)
		}
		items := a.get("data.changes").Array()
		for _, it := range items {
			if it.Get(lc.key).String() == id && it.Get("changeType").String() == lc.kind {
				n++
			}
		}
		if page >= int(a.get("data.paginator.pageCount").Int()) {
			break
		}
	}
	return n, nil
}

// sandboxNow is the sandbox clock's time, as the change logs write it.
func (c *client) sandboxNow() string {
	return sandbox.FormatTime(c.s.App.Clock.Now().Add(-time.Second))
}

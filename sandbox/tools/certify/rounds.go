package certify

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// A round arms one runtime fault for the add-on's next API call (match:
// its add-on, nth 1), emits the first trigger event, and waits until the
// add-on met the fault and did what the round watches for (its retry,
// its next call), then until it is quiet. The contract report judges the
// calls; the round's calls are what a check looks at, so a finding that
// a later round caused is not charged to this one.

// round is what happened during one round.
type round struct {
	name    string      // the fault's name
	calls   []*bus.Call // the add-on's calls while the round ran
	faulted *bus.Call   // the call the fault acted on (nil: none)
	from    mark        // where the round began in the log
	err     error       // the fault could not be added
}

// met reports whether the round's fault met a call of the add-on; when
// not, notes gets why (for a check several rounds decide).
func (r round) met(status int, notes *[]string) bool {
	switch {
	case r.err != nil:
		*notes = append(*notes, r.err.Error())
		return false
	case r.faulted == nil:
		*notes = append(*notes, fmt.Sprintf("no call met the %d", status))
		return false
	}
	return true
}

// after lists the round's API calls the sandbox received after c ended.
func (r round) after(c *bus.Call) []*bus.Call {
	var out []*bus.Call
	for _, x := range r.calls {
		if x != c && isAPI(x) && !startOf(x).Before(endOf(c)) {
			out = append(out, x)
		}
	}
	return out
}

// faultedIn finds the first call a named fault acted on.
func faultedIn(cs []*bus.Call, name string) *bus.Call {
	for _, c := range cs {
		if c.Fault == name {
			return c
		}
	}
	return nil
}

// addFault puts a runtime fault in force (POST /_sandbox/faults).
func (s *suite) addFault(f map[string]any) (string, error) {
	v, err := s.cc.AddFault(s.ctx, f)
	if err != nil {
		return "", fmt.Errorf("fault %v: %w", f["name"], err)
	}
	return v.ID, nil
}

func (s *suite) removeFault(id string) {
	if id != "" {
		_ = s.cc.RemoveFault(s.ctx, id)
	}
}

// nextCall is the fault's match: the add-on's next call.
func (s *suite) nextCall() map[string]any { return map[string]any{"addon": s.o.Addon, "nth": 1} }

// run plays a round: the fault named name with action (merged into the
// fault's definition), one trigger event, and a wait until until holds
// for the faulted call (nil: it was answered), at most Settle with a
// trigger and a short while without one (an add-on that calls by
// itself may still meet it).
func (s *suite) run(name string, action map[string]any, until func(r round) bool) round {
	fault := map[string]any{"name": name, "match": s.nextCall()}
	for k, v := range action {
		fault[k] = v
	}
	id, err := s.addFault(fault)
	if err != nil {
		return round{name: name, err: err}
	}
	from := s.log.mark()
	limit := 3 * s.o.Timing.Quiet
	if s.trigger() {
		limit = s.o.Timing.Settle
	}
	s.log.waitFor(s.ctx, from, limit, func(cs []*bus.Call, _ []bus.Delivery) bool {
		r := round{name: name, calls: cs, faulted: faultedIn(cs, name)}
		return r.faulted != nil && (until == nil || until(r))
	})
	s.removeFault(id)
	s.settle()
	cs, _ := s.log.between(from, mark{})
	return round{name: name, calls: cs, faulted: faultedIn(cs, name), from: from}
}

// anyLater: the add-on called again after the faulted call.
func anyLater(r round) bool { return len(r.after(r.faulted)) > 0 }

// resentOrWaited: the add-on sent the faulted request again (early or
// not), or called once the Retry-After time had come. A call of its own
// that was only sent beside the faulted one, and refused as well, shows
// nothing yet; ending the round on it would let the next round's fault
// meet the add-on's retry, and cut off the work (the writes) it does
// after it.
func resentOrWaited(r round) bool {
	until, ok := retryAfterOf(r.faulted)
	for _, c := range r.after(r.faulted) {
		if (c.Method == r.faulted.Method && c.Path == r.faulted.Path) || (ok && !c.Time.Before(until)) {
			return true
		}
	}
	return false
}

// sameLater: the add-on sent the faulted request again.
func sameLater(r round) bool {
	for _, c := range r.after(r.faulted) {
		if c.Method == r.faulted.Method && c.Path == r.faulted.Path {
			return true
		}
	}
	return false
}

// played are the rounds of a run, judged once the contract report has
// seen them all.
type played struct {
	tooMany, locked, maintenance, badRequest, unprocessable, expired round
	burst                                                            []*bus.Call
	burstEvents                                                      int
}

// rounds plays every round and judges the checks they decide.
func (s *suite) rounds() {
	s.awaitJobs()
	var p played
	secs := fmt.Sprintf("%ds", int((s.o.Timing.RetryAfter+time.Second-1)/time.Second))
	p.tooMany = s.run("certify-429", map[string]any{"respond": map[string]any{"status": 429, "retryAfter": secs}}, resentOrWaited)
	if why := s.silent(p.tooMany); why != nil {
		// Each further round would wait as long for a call that is not
		// coming: none is played, and their checks say why.
		s.progress("%v", why)
		p.locked, p.maintenance = round{name: "certify-423", err: why}, round{name: "certify-503", err: why}
		p.badRequest, p.unprocessable = round{name: "certify-400", err: why}, round{name: "certify-422", err: why}
		p.expired = round{name: "certify-expired-token", err: why}
		s.played = &p
		return
	}
	// The platform sends Retry-After only with a full bucket (a 429): a 423
	// says "retry later" without a date, and so does this round.
	p.locked = s.run("certify-423", map[string]any{"respond": map[string]any{"status": 423}}, sameLater)
	p.maintenance = s.maintenanceRound()
	p.badRequest = s.run("certify-400", map[string]any{"respond": map[string]any{"status": 400}}, nil)
	p.unprocessable = s.run("certify-422", map[string]any{"respond": map[string]any{"status": 422}}, nil)
	p.burst, p.burstEvents = s.burst()
	// Last: an add-on that keeps its expired token makes no good call
	// after this round.
	p.expired = s.run("certify-expired-token", map[string]any{"expireToken": map[string]any{"after": 0}}, anyLater)
	s.played = &p
}

// silent says why the rounds after the first are not played when the
// first saw no API call of the add-on (nil when it saw one, or its fault
// could not be added).
func (s *suite) silent(first round) error {
	if first.err != nil {
		return nil
	}
	for _, c := range first.calls {
		if isAPI(c) {
			return nil
		}
	}
	if len(s.o.Triggers) == 0 {
		return fmt.Errorf("not played: the add-on made no API call during the first round, and there is no --trigger event to make it call")
	}
	return fmt.Errorf("not played: the add-on made no API call within %s (--settle) of the first round's %s, so no fault could meet one", s.o.Timing.Settle, s.o.Triggers[0].Event)
}

// writes are the add-on's API calls that change data (any method but
// GET and HEAD) during the rounds, each with its round's fault: the
// evidence that the add-on's write path ran under the faults.
func (p *played) writes(tokenHeader string) []string {
	out := []string{}
	for _, r := range []struct {
		name  string
		calls []*bus.Call
	}{{"certify-429", p.tooMany.calls}, {"certify-423", p.locked.calls}, {"certify-503", p.maintenance.calls},
		{"certify-400", p.badRequest.calls}, {"certify-422", p.unprocessable.calls}, {"certify-slow (burst)", p.burst}, {"certify-expired-token", p.expired.calls}} {
		for _, c := range r.calls {
			if isAPI(c) && c.Method != http.MethodGet && c.Method != http.MethodHead {
				out = append(out, r.name+" round: "+describeCall(c, tokenHeader))
			}
		}
	}
	return out
}

// maintenanceRound opens a maintenance window at the add-on's next call
// and waits until it is over. The 503 carries no Retry-After (the
// platform sends one only with a full bucket); the spec's advice is to
// retry in minutes.
func (s *suite) maintenanceRound() round {
	window := fmt.Sprintf("%dms", s.o.Timing.Maintenance.Milliseconds())
	r := s.run("certify-503", map[string]any{"maintenance": map[string]any{"for": window, "message": "sandbox certify: a maintenance window"}}, nil)
	if r.faulted != nil {
		wait := time.Until(endOf(r.faulted).Add(s.o.Timing.Maintenance)) + s.o.Timing.Quiet
		select {
		case <-time.After(wait):
		case <-s.ctx.Done():
		}
		s.settle()
		r.calls, _ = s.log.between(r.from, mark{})
	}
	return r
}

// burst slows the add-on's calls and emits Burst trigger events at
// once: an add-on that works on notifications in parallel must still
// keep to 3 calls at a time.
func (s *suite) burst() ([]*bus.Call, int) {
	id, err := s.addFault(map[string]any{"name": "certify-slow", "match": map[string]any{"addon": s.o.Addon}, "latency": fmt.Sprintf("%dms", s.o.Timing.Latency.Milliseconds())})
	if err != nil {
		s.progress("%v", err)
		return nil, 0
	}
	from := s.log.mark()
	n := 0
	for i := 0; i < s.o.Timing.Burst && s.trigger(); i++ {
		n++
	}
	s.log.waitQuiet(s.ctx, s.o.Timing.Latency+s.o.Timing.Quiet, s.o.Timing.Settle+time.Duration(s.o.Timing.Burst)*s.o.Timing.Latency)
	s.removeFault(id)
	s.settle()
	cs, _ := s.log.between(from, mark{})
	return cs, n
}

// awaitJobs waits until every job the add-on started so far has sent
// job:finished (jobs run for seconds), so that the add-on's work on them
// does not run into the rounds' faults.
func (s *suite) awaitJobs() {
	async := s.asyncOperations()
	started := func(cs []*bus.Call) int {
		n := 0
		for _, c := range cs {
			if async[c.Operation] && c.Status/100 == 2 {
				n++
			}
		}
		return n
	}
	from := mark{}
	cs, _ := s.log.all()
	want := started(cs)
	if want == 0 {
		return
	}
	s.progress("waiting for the add-on's %d job(s) to finish", want)
	s.log.waitFor(s.ctx, from, s.o.Timing.Settle, func(_ []*bus.Call, ds []bus.Delivery) bool {
		n := 0
		for _, d := range ds {
			if d.Event == "job:finished" && d.Attempt == 1 {
				n++
			}
		}
		return n >= want
	})
	s.settle()
}

// asyncOperations names the catalogue's asynchronous operations.
func (s *suite) asyncOperations() map[string]bool {
	out := map[string]bool{}
	for _, e := range s.app.Catalogue.Endpoints {
		if e.Async {
			out[e.Operation] = true
		}
	}
	return out
}

// retryAfterOf parses a call's Retry-After date.
func retryAfterOf(c *bus.Call) (time.Time, bool) {
	v := strings.TrimSpace(c.RespHeader.Get("Retry-After"))
	if v == "" {
		return time.Time{}, false
	}
	t, err := http.ParseTime(v)
	return t, err == nil
}

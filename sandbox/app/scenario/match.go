package scenario

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Facts are what a fault can match on: a call to the sandbox, or (Event
// set, Webhook true) a webhook delivery to the add-on.
type Facts struct {
	Method    string
	Path      string // without query
	Operation string
	Eshop     int
	Token     string
	TokenKind string // private, addon or ""
	Addon     string // the add-on an add-on token belongs to
	Header    http.Header
	Event     string
	Webhook   bool
}

// Conditions reports whether the static conditions of a match hold for
// the facts (everything but nth, times and probability, which need the
// matcher's counters).
func (m *Match) Conditions(c Facts) bool {
	if m.Method != "" && !strings.EqualFold(m.Method, c.Method) {
		return false
	}
	if m.Path != "" && !PathMatches(m.Path, c.Path) {
		return false
	}
	if m.Operation != "" && m.Operation != c.Operation {
		return false
	}
	if m.Eshop != 0 && m.Eshop != c.Eshop {
		return false
	}
	if m.Token != "" && m.Token != c.Token {
		return false
	}
	if m.TokenKind != "" && m.TokenKind != c.TokenKind {
		return false
	}
	if m.Addon != "" && m.Addon != c.Addon {
		return false
	}
	if m.Event != "" && m.Event != c.Event {
		return false
	}
	return HeadersMatch(m.Header, c.Header)
}

// HeadersMatch reports whether every wanted header is present with the
// value ("*": any value).
func HeadersMatch(want map[string]string, h http.Header) bool {
	for k, v := range want {
		got := h.Values(k)
		if len(got) == 0 {
			return false
		}
		if v == "*" {
			continue
		}
		found := false
		for _, g := range got {
			if g == v {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// PathMatches matches a URL path against a pattern: segments compare
// with path.Match ("*" is one segment, "order*" a prefix within one), and
// a final "**" matches any rest, including nothing.
func PathMatches(pattern, p string) bool {
	ps := strings.Split(strings.Trim(pattern, "/"), "/")
	xs := strings.Split(strings.Trim(p, "/"), "/")
	for i, seg := range ps {
		if seg == "**" && i == len(ps)-1 {
			return true
		}
		if i >= len(xs) {
			return false
		}
		if ok, err := path.Match(seg, xs[i]); err != nil || !ok {
			return false
		}
	}
	return len(xs) == len(ps)
}

// Matcher decides which fault, if any, acts on each call. Every fault
// counts the calls that meet its conditions on its own, so "the nth
// matching call" does not depend on other faults, and draws its
// probability from its own seeded generator, so a file always hits the
// same calls. It is safe for concurrent use; calls are decided in the
// order they reach it. Faults added while serving (Add) join the same
// matcher after the scenario's, so one set of rules decides every call.
type Matcher struct {
	mu     sync.Mutex
	seed   uint64
	faults []*Fault
	state  []matchState
	added  int // runtime faults added so far, for their ids
	// count mirrors len(faults) for Len, which every call asks without
	// taking the lock.
	count atomic.Int64
}

type matchState struct {
	seen int // calls that met the conditions
	hits int // calls the fault applied to
	rng  *rand.Rand
	id   string // a runtime fault's id ("" for a scenario's or a built-in)
}

// NewMatcher prepares the faults; seed is the scenario's seed, used by
// faults that give none of their own.
func NewMatcher(faults []Fault, seed uint64) *Matcher {
	m := &Matcher{seed: seed}
	for i := range faults {
		m.appendLocked(&faults[i], "")
	}
	return m
}

// appendLocked adds a fault with fresh counters. Callers hold mu (or own
// the matcher still).
func (m *Matcher) appendLocked(f *Fault, id string) {
	s := f.Match.Seed
	if s == 0 {
		s = m.seed
	}
	// Mix in the position so two faults with the same seed do not draw
	// the same sequence.
	i := len(m.faults)
	m.faults = append(m.faults, f)
	m.state = append(m.state, matchState{rng: rand.New(rand.NewPCG(s, uint64(i)+0x5eed)), id: id})
	m.count.Store(int64(len(m.faults)))
}

// Add appends a fault while serving and returns its id ("f1", "f2", ...).
// A name another fault already has is refused.
// A fault parsed without a name (ParseFault) is named after its id.
func (m *Matcher) Add(f Fault) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := "f" + strconv.Itoa(m.added+1)
	if f.autoName {
		f.Name = id
		if def, ok := f.def.(map[string]any); ok {
			named := map[string]any{"name": id}
			for k, v := range def {
				if k != "name" {
					named[k] = v
				}
			}
			f.def = named
		}
	}
	for _, g := range m.faults {
		if g.Name == f.Name {
			return "", fmt.Errorf("a fault named %q is already in force", f.Name)
		}
	}
	m.added++
	m.appendLocked(&f, id)
	return id, nil
}

// Remove takes out the runtime fault with this id or name; it reports
// whether there was one. A scenario's faults stay.
func (m *Matcher) Remove(idOrName string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, f := range m.faults {
		if m.state[i].id != "" && (m.state[i].id == idOrName || f.Name == idOrName) {
			m.faults = append(m.faults[:i:i], m.faults[i+1:]...)
			m.state = append(m.state[:i:i], m.state[i+1:]...)
			m.count.Store(int64(len(m.faults)))
			return true
		}
	}
	return false
}

// RemoveRuntime takes out every fault added while serving and returns how
// many there were.
func (m *Matcher) RemoveRuntime() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	faults, state := m.faults[:0:0], m.state[:0:0]
	for i, f := range m.faults {
		if m.state[i].id != "" {
			n++
			continue
		}
		faults, state = append(faults, f), append(state, m.state[i])
	}
	m.faults, m.state = faults, state
	m.count.Store(int64(len(m.faults)))
	return n
}

// Len is how many faults are in force.
func (m *Matcher) Len() int { return int(m.count.Load()) }

// Entry is one fault of a matcher with its counters.
type Entry struct {
	Fault   *Fault
	ID      string // runtime faults only
	Matched int    // calls (or deliveries) that met its conditions
	Hits    int    // calls it acted on
}

// Name is the fault's name.
func (e Entry) Name() string { return e.Fault.Name }

// Entries lists the faults in force with their counters, in the order
// they are tried.
func (m *Matcher) Entries() []Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Entry, len(m.faults))
	for i, f := range m.faults {
		out[i] = Entry{Fault: f, ID: m.state[i].id, Matched: m.state[i].seen, Hits: m.state[i].hits}
	}
	return out
}

// Pick returns the first fault that applies to the call (or delivery),
// updating every candidate's counters, or nil.
func (m *Matcher) Pick(c Facts) *Fault {
	m.mu.Lock()
	defer m.mu.Unlock()
	var picked *Fault
	for i, f := range m.faults {
		if f.Trigger == TriggerHeader || f.IsWebhook() != c.Webhook || !f.Match.Conditions(c) {
			continue
		}
		if m.state[i].eligible(&f.Match) && picked == nil {
			picked = f
			m.state[i].hits++
		}
	}
	return picked
}

// eligible applies nth, times and probability to a call that met the
// conditions (the caller counts the hit when the fault really applies).
func (s *matchState) eligible(m *Match) bool {
	s.seen++
	if m.Nth > 0 && s.seen != m.Nth {
		return false
	}
	if m.Times > 0 && s.hits >= m.Times {
		return false
	}
	if m.Probability != nil && s.rng.Float64() >= *m.Probability {
		return false
	}
	return true
}

// Named returns the fault with that name (nil when there is none).
func (m *Matcher) Named(name string) *Fault {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.faults {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Names lists the faults by name, in file order.
func (m *Matcher) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.faults))
	for i, f := range m.faults {
		out[i] = f.Name
	}
	return out
}

// Hits reports how often each fault applied, by name.
func (m *Matcher) Hits() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{}
	for i, f := range m.faults {
		out[f.Name] = m.state[i].hits
	}
	return out
}

// CountHit records that a fault applied outside Pick (triggered by the
// request header), so Hits stays truthful.
func (m *Matcher) CountHit(f *Fault) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, g := range m.faults {
		if g == f {
			m.state[i].hits++
		}
	}
}

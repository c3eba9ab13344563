package scenario

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Deps are what the fault engine works with. Limits and ArmJob may be
// nil: bucket, lock and maintenance faults then answer without changing
// any limit state, and job faults are refused at start.
type Deps struct {
	Clock   *sandbox.Clock
	Headers sandbox.Headers
	Bus     *bus.Bus
	Store   *store.Store
	Log     *slog.Logger
	// Limits is the live limiter (fill the bucket, hold a lock, open a
	// maintenance window).
	Limits *limits.Limiter
	// ArmJob makes the next job of an e-shop fail or stall.
	ArmJob func(eshop int, mode string)
}

// Engine applies a scenario's faults to the calls it serves: the
// middleware of the scenario module. Without a scenario it still serves
// the built-in faults a request can name in the <prefix>-Sandbox-Fault
// header.
type Engine struct {
	d        Deps
	sc       *Scenario
	matcher  *Matcher
	builtins *Matcher
	chaos    *Chaos // nil without --chaos
	// needEshop and needAddon say whether any fault matches on the e-shop
	// or the add-on, so a call costs no store read when none does.
	needEshop, needAddon atomic.Bool

	mu       sync.Mutex
	expiries map[string]int // fault name + "\x00" + token -> matching calls seen
}

// NewEngine prepares the faults of a scenario (nil for none).
func NewEngine(d Deps, sc *Scenario) *Engine {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	e := &Engine{d: d, sc: sc, expiries: map[string]int{}}
	var faults []Fault
	seed := uint64(1)
	if sc != nil {
		faults = sc.Faults
		if sc.Seed != 0 {
			seed = sc.Seed
		}
	}
	e.matcher = NewMatcher(faults, seed)
	e.builtins = NewMatcher(Builtins(), seed)
	for i := range faults {
		e.notice(&faults[i])
	}
	return e
}

// notice records which facts a fault needs.
func (e *Engine) notice(f *Fault) {
	if f.Match.Eshop != 0 {
		e.needEshop.Store(true)
	}
	if f.Match.Addon != "" {
		e.needAddon.Store(true)
	}
}

// SetChaos makes the engine inject chaos into the add-on's calls that no
// scripted fault takes; set before serving.
func (e *Engine) SetChaos(c *Chaos) { e.chaos = c }

// Chaos is the chaos in force (nil for none).
func (e *Engine) Chaos() *Chaos { return e.chaos }

// Scenario returns the scenario whose faults apply (nil for none).
func (e *Engine) Scenario() *Scenario { return e.sc }

// Matcher exposes the scenario's fault matcher (hit counts).
func (e *Engine) Matcher() *Matcher { return e.matcher }

// Reset follows POST /_sandbox/reset: the faults added while serving are
// removed (a reset goes back to the start; the scenario's faults are part
// of that start and stay), and the per-token counts of expiring tokens
// are forgotten (the store was re-seeded, so the tokens are fresh again).
func (e *Engine) Reset() {
	e.ClearFaults()
	if e.chaos != nil {
		e.chaos.Reset()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.expiries = map[string]int{}
}

// Decorator is the fault engine's place in the server's pipeline: once
// the body has been read and the write lock taken, just before the
// endpoint, so faults match the final route (a PUT sent as POST included).
func (e *Engine) Decorator() api.Decorator {
	return api.Decorator{Stage: api.StageProcess, Name: "faults", Wrap: e.Middleware,
		What: "scripted faults matching the call (scenario, header), answered or delayed here"}
}

// Middleware applies faults to every call except the control plane's.
func (e *Engine) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := api.CallOf(r)
		if c == nil || c.Area == api.AreaControl {
			next.ServeHTTP(w, r)
			return
		}
		var f *Fault
		if name := r.Header.Get(e.d.Headers.SandboxFault); name != "" {
			var err error
			if f, err = e.named(name); err != nil {
				api.WriteError(w, r, e.d.Headers, err)
				return
			}
		} else if e.matcher.Len() > 0 || e.chaos != nil {
			facts := e.facts(r, c)
			if e.matcher.Len() > 0 {
				f = e.matcher.Pick(facts)
			}
			if f == nil && e.chaos != nil {
				f = e.chaos.Draw(facts)
			}
		}
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		e.apply(f, w, r, next)
	})
}

// named finds a fault a request names in the header: the scenario's
// first, then the built-in ones.
func (e *Engine) named(name string) (*Fault, error) {
	if f := e.matcher.Named(name); f != nil {
		if f.IsWebhook() {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, e.d.Headers.SandboxFault,
				"Fault %q acts on webhook deliveries and cannot be triggered by a call's %s header.", name, e.d.Headers.SandboxFault)
		}
		e.matcher.CountHit(f)
		return f, nil
	}
	if f := e.builtins.Named(name); f != nil {
		e.builtins.CountHit(f)
		return f, nil
	}
	known := append(e.callFaultNames(), e.builtins.Names()...)
	return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, e.d.Headers.SandboxFault,
		"Unknown sandbox fault %q in the %s header. Known faults: %s.", name, e.d.Headers.SandboxFault, strings.Join(known, ", "))
}

func (e *Engine) callFaultNames() []string {
	var out []string
	for _, x := range e.matcher.Entries() {
		if !x.Fault.IsWebhook() {
			out = append(out, x.Fault.Name)
		}
	}
	return out
}

// facts gathers what the faults match on, from what the server resolved.
// The e-shop of a token is known even when the token may not call (an
// expired token still belongs to its e-shop).
func (e *Engine) facts(r *http.Request, c *api.Call) Facts {
	f := Facts{Method: r.Method, Path: r.URL.Path, Header: r.Header, Operation: c.Operation()}
	f.Token, _ = c.Token()
	f.TokenKind = c.TokenHeaderKind()
	if e.needEshop.Load() {
		f.Eshop = c.EshopID()
	}
	if e.needAddon.Load() && f.Token != "" {
		if t := c.Identity().Token; t != nil {
			f.Addon = t.Addon
		}
	}
	return f
}

// mark tells the traffic recorder and the bus that a fault acted on the
// call.
func (e *Engine) mark(f *Fault, r *http.Request) {
	if c := api.CallOf(r); c != nil {
		c.Fault = f.Name
		// A call answered here never reaches the endpoint, which would
		// otherwise tell the recorder these.
		if c.TokenKind == "" {
			c.TokenKind = c.TokenHeaderKind()
		}
		if c.Eshop == 0 {
			c.Eshop = c.EshopID()
		}
	}
	if e.d.Bus != nil {
		e.d.Bus.Emit(bus.TopicFault, bus.Fault{Name: f.Name, Kind: f.Kind(), RequestID: api.RequestIDOf(r), Time: e.d.Clock.Now()})
	}
}

// Where a fault comes from, as GET /_sandbox/faults names it.
const (
	SourceScenario = "scenario" // the scenario file the sandbox serves
	SourceRuntime  = "runtime"  // added while serving (POST /_sandbox/faults)
	SourceBuiltin  = "builtin"  // named per call in the <prefix>-Sandbox-Fault header
	SourceChaos    = "chaos"    // drawn for a share of the add-on's calls (--chaos)
)

// FaultView is one fault in GET /_sandbox/faults.
type FaultView struct {
	// ID is a runtime fault's id, for DELETE /_sandbox/faults/{id}.
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`                  // the fault's name (its id when added without one)
	Kind        string `json:"kind"`                  // its one action: respond, latency, close, expire-token, hold-lock, fill-bucket, a job or webhook fault, ...
	Trigger     string `json:"trigger"`               // auto (acts on every matching call) or header (only on a call that names it in the fault header)
	Description string `json:"description,omitempty"` // what the fault is for
	Source      string `json:"source"`                // where it comes from: scenario, runtime (added while serving) or builtin
	Builtin     bool   `json:"builtin"`               // one of the sandbox's own faults, picked per call by header
	// Matched counts the calls (or deliveries) that met its conditions;
	// Hits those it acted on (nth, times and probability pick among the
	// matched ones).
	Matched int `json:"matched" doc:"How many calls (or deliveries) met the fault's conditions."`
	Hits    int `json:"hits" doc:"How many of the matched calls the fault acted on (nth, times and probability pick among them)."`
	// Fault is the fault as written (scenario and runtime faults).
	Fault any `json:"fault,omitempty"`
}

// Faults lists the faults in force (the scenario's, then those added
// while serving, in the order they are tried) and the built-in ones, with
// their counts.
func (e *Engine) Faults() []FaultView {
	var out []FaultView
	for _, set := range []struct {
		m       *Matcher
		builtin bool
	}{{e.matcher, false}, {e.builtins, true}} {
		for _, x := range set.m.Entries() {
			out = append(out, view(x, set.builtin))
		}
	}
	return out
}

func view(x Entry, builtin bool) FaultView {
	f := x.Fault
	trig := f.Trigger
	if trig == "" {
		trig = TriggerAuto
	}
	src := SourceScenario
	switch {
	case builtin:
		src = SourceBuiltin
	case x.ID != "":
		src = SourceRuntime
	}
	return FaultView{ID: x.ID, Name: f.Name, Kind: f.Kind(), Trigger: trig, Description: f.Description, Source: src,
		Builtin: builtin, Matched: x.Matched, Hits: x.Hits, Fault: f.def}
}

// AddFault puts a fault in force while serving, after the scenario's
// faults, and returns it as listed. Its name must be new: not a fault in
// force, not a built-in.
func (e *Engine) AddFault(f *Fault) (FaultView, error) {
	if e.builtins.Named(f.Name) != nil {
		return FaultView{}, sandbox.Errorf(sandbox.KindConflict, sandbox.CodeConflict, "name",
			"Fault name %q is a built-in fault's; choose another name.", f.Name)
	}
	e.notice(f)
	id, err := e.matcher.Add(*f)
	if err != nil {
		return FaultView{}, sandbox.Errorf(sandbox.KindConflict, sandbox.CodeConflict, "name",
			"Fault name %q is taken: %v. Choose another, or remove that fault first (DELETE /_sandbox/faults/{id}).", f.Name, err)
	}
	for _, x := range e.matcher.Entries() {
		if x.ID == id {
			return view(x, false), nil
		}
	}
	return FaultView{}, sandbox.NotFound(id, "Fault %s was removed as it was added.", id)
}

// RemoveFault takes out a fault added while serving, by id or name.
func (e *Engine) RemoveFault(idOrName string) error {
	if e.matcher.Remove(idOrName) {
		return nil
	}
	if e.matcher.Named(idOrName) != nil {
		return sandbox.Errorf(sandbox.KindConflict, sandbox.CodeConflict, "id",
			"Fault %q comes from the scenario the sandbox serves and stays for the run; only faults added with POST /_sandbox/faults can be removed.", idOrName)
	}
	return sandbox.NotFound(idOrName, "There is no fault %q added while serving; GET /_sandbox/faults lists them with their ids.", idOrName)
}

// ClearFaults takes out every fault added while serving; the scenario's
// stay. It returns how many were removed.
func (e *Engine) ClearFaults() int { return e.matcher.RemoveRuntime() }

// Hits is the number of times each fault acted, by name (scenario faults
// and built-ins).
func (e *Engine) Hits() map[string]int {
	out := e.builtins.Hits()
	for k, v := range e.matcher.Hits() {
		out[k] = v
	}
	return out
}

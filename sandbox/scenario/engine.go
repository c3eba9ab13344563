package scenario

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
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
	needs    needs

	mu       sync.Mutex
	expiries map[string]int // fault name + "\x00" + token -> matching calls seen
}

// needs says which facts the faults look at, so a call costs no store
// read when no fault matches on the e-shop.
type needs struct{ eshop, operation bool }

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
	for _, f := range faults {
		e.needs.eshop = e.needs.eshop || f.Match.Eshop != 0
		e.needs.operation = e.needs.operation || f.Match.Operation != ""
	}
	return e
}

// Scenario returns the scenario whose faults apply (nil for none).
func (e *Engine) Scenario() *Scenario { return e.sc }

// Matcher exposes the scenario's fault matcher (hit counts).
func (e *Engine) Matcher() *Matcher { return e.matcher }

// Reset forgets the per-token counts of expiring tokens (the store was
// re-seeded, so the tokens are fresh again).
func (e *Engine) Reset() {
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
		} else if len(e.matcher.faults) > 0 {
			f = e.matcher.Pick(e.facts(r, c))
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
	for _, f := range e.matcher.faults {
		if !f.IsWebhook() {
			out = append(out, f.Name)
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
	if e.needs.eshop {
		f.Eshop = c.EshopID()
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

// FaultView is one fault in GET /_sandbox/faults.
type FaultView struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Trigger     string `json:"trigger"`
	Description string `json:"description,omitempty"`
	Builtin     bool   `json:"builtin"`
	Hits        int    `json:"hits"`
}

// Faults lists the scenario's faults and the built-in ones with their
// hit counts.
func (e *Engine) Faults() []FaultView {
	var out []FaultView
	for _, set := range []struct {
		m       *Matcher
		builtin bool
	}{{e.matcher, false}, {e.builtins, true}} {
		hits := set.m.Hits()
		for _, f := range set.m.faults {
			trig := f.Trigger
			if trig == "" {
				trig = TriggerAuto
			}
			out = append(out, FaultView{Name: f.Name, Kind: f.Kind(), Trigger: trig, Description: f.Description, Builtin: set.builtin, Hits: hits[f.Name]})
		}
	}
	return out
}

// Hits is the number of times each fault acted, by name (scenario faults
// and built-ins).
func (e *Engine) Hits() map[string]int {
	out := e.builtins.Hits()
	for k, v := range e.matcher.Hits() {
		out[k] = v
	}
	return out
}

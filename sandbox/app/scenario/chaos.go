package scenario

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"
)

// ChaosPrefix starts the name of every fault chaos injects, so the traffic
// list, the bus and the contract report tell them from scripted ones.
const ChaosPrefix = "chaos:"

// ChaosLatency is how late a chaos "latency" answer comes.
const ChaosLatency = time.Second

// ChaosFaults are the platform faults chaos draws from, the spec's list of
// what an add-on must survive: a held lock (423), a full rate bucket (429
// with Retry-After), maintenance (503), an internal error (500), an expired
// token (401 expired-token), a slow answer and a closed connection.
func ChaosFaults() []Fault {
	late := Duration(ChaosLatency)
	f := func(kind, desc string, fault Fault) Fault {
		fault.Name, fault.Description = ChaosPrefix+kind, desc
		return fault
	}
	return []Fault{
		f("locked", "423: an identical write request holds the URL's lock.", Fault{Respond: &Respond{Status: 423}}),
		f("rate-limited", "429: the token's rate bucket is filled; Retry-After says until when.", Fault{FillBucket: true}),
		f("maintenance", "503 maintenance.", Fault{Respond: &Respond{Status: 503}}),
		f("internal-error", "500 internal-error.", Fault{Respond: &Respond{Status: 500}}),
		f("expired-token", "401 expired-token: the add-on must request a new API token.", Fault{Respond: &Respond{Status: 401}}),
		f("latency", fmt.Sprintf("The answer comes %s late.", ChaosLatency), Fault{Latency: &late}),
		f("close-connection", "The connection is closed without an answer.", Fault{Close: true}),
	}
}

// Chaos injects a platform fault into a share of an add-on's API calls
// (`--chaos RATE --seed N`). Every add-on call draws from one generator
// seeded with N, whether it gets a fault or not, so the same seed gives
// the same faults on the same sequence of calls. Calls made with a private
// token (the developer's own, the scenario runner's steps) are left alone.
type Chaos struct {
	rate   float64
	seed   uint64
	faults []Fault

	mu       sync.Mutex
	rng      *rand.Rand
	calls    int            // add-on calls that drew
	injected map[string]int // fault name -> times injected
}

// NewChaos prepares chaos for rate (above 0, at most 1) of the add-on's
// calls, drawn with seed.
func NewChaos(rate float64, seed uint64) (*Chaos, error) {
	if !(rate > 0 && rate <= 1) {
		return nil, fmt.Errorf("chaos rate %v: give a share of the add-on's calls above 0 and at most 1 (0.1 faults one call in ten)", rate)
	}
	c := &Chaos{rate: rate, seed: seed, faults: ChaosFaults()}
	c.Reset()
	return c, nil
}

// Reset starts the sequence over (POST /_sandbox/reset goes back to the
// start: the same calls then get the same faults again).
func (c *Chaos) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rng = rand.New(rand.NewPCG(c.seed, 0xc4a05))
	c.calls, c.injected = 0, map[string]int{}
}

// Draw returns the fault for an add-on's API call, or nil. Both numbers
// are drawn on every add-on call, so whether one call is faulted does not
// shift the faults of the calls after it.
func (c *Chaos) Draw(f Facts) *Fault {
	if f.Webhook || f.TokenKind != "addon" || !strings.HasPrefix(f.Path, "/api/") {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	hit, k := c.rng.Float64() < c.rate, c.rng.IntN(len(c.faults))
	if !hit {
		return nil
	}
	c.injected[c.faults[k].Name]++
	return &c.faults[k]
}

// ChaosView is chaos as GET /_sandbox/faults shows it.
type ChaosView struct {
	Rate     float64        `json:"rate"`
	Seed     uint64         `json:"seed"`
	Calls    int            `json:"calls"`    // add-on API calls that drew
	Injected map[string]int `json:"injected"` // fault name -> times injected
	Faults   []FaultView    `json:"faults"`   // what chaos draws from
}

// View tells the rate, the seed and what was injected so far.
func (c *Chaos) View() ChaosView {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := ChaosView{Rate: c.rate, Seed: c.seed, Calls: c.calls, Injected: map[string]int{}}
	for k, n := range c.injected {
		v.Injected[k] = n
	}
	for _, f := range c.faults {
		v.Faults = append(v.Faults, FaultView{Name: f.Name, Kind: f.Kind(), Description: f.Description, Source: SourceChaos, Hits: c.injected[f.Name]})
	}
	return v
}

// ChaosCoping is how the add-on coped with one kind of injected fault, as
// the contract report tells it: of the calls that got it, how many were
// followed by a successful call of the same operation (the add-on waited,
// refreshed its token or retried, and got through) and how many were not
// (yet).
type ChaosCoping struct {
	Fault     string `json:"fault"`     // the chaos fault
	Injected  int    `json:"injected"`  // how often it was injected
	Recovered int    `json:"recovered"` // how often the add-on recovered: a later call of the same e-shop, method and operation succeeded
	Open      int    `json:"open"`      // injections not recovered from yet
	Summary   string `json:"summary"`   // how the add-on coped, in a sentence
}

// chaosKey is what a recovery must share with the faulted call: the
// e-shop, the method and the operation (a new token may make it).
func chaosKey(eshop int, method, operation string) string {
	return fmt.Sprint(eshop, " ", method, " ", operation)
}

// observeChaosLocked notes an injected fault, or the success that settles
// the faults injected before it into calls of the same operation. Callers
// hold rp.mu.
func (rp *Report) observeChaosLocked(eshop int, method, operation, fault string, status int, kind string) {
	if kind != "addon" {
		return
	}
	key := chaosKey(eshop, method, operation)
	if strings.HasPrefix(fault, ChaosPrefix) {
		rp.chaosInjected[fault]++
		if status >= 200 && status < 300 { // a late answer is still an answer
			rp.chaosRecovered[fault]++
		} else {
			rp.chaosOpen[key] = append(rp.chaosOpen[key], fault)
		}
		return
	}
	if status >= 200 && status < 300 {
		for _, f := range rp.chaosOpen[key] {
			rp.chaosRecovered[f]++
		}
		delete(rp.chaosOpen, key)
	}
}

// chaosView tells, per injected kind, how the add-on coped; nil when no
// chaos was injected.
func (rp *Report) chaosView() []ChaosCoping {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if len(rp.chaosInjected) == 0 {
		return nil
	}
	var out []ChaosCoping
	for _, f := range ChaosFaults() {
		n := rp.chaosInjected[f.Name]
		if n == 0 {
			continue
		}
		c := ChaosCoping{Fault: f.Name, Injected: n, Recovered: rp.chaosRecovered[f.Name]}
		c.Open = n - c.Recovered
		c.Summary = fmt.Sprintf("%s: %d injected; %d followed by a successful call of the same operation (or answered late but well), %d not (yet)", f.Name, n, c.Recovered, c.Open)
		out = append(out, c)
	}
	return out
}

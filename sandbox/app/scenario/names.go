package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// catalogue holds the names a scenario may use: the endpoint catalogue's
// operations and the webhook catalogue's events, in catalogue order (the
// order suggestions prefer on a tie).
type catalogue struct {
	operations, events []string
	isOperation        map[string]bool
	isEvent            map[string]bool
	err                error
}

var (
	catalogueOnce sync.Once
	names         catalogue
)

func loadNames() *catalogue {
	catalogueOnce.Do(func() {
		c, err := schemas.LoadCatalogue()
		if err != nil {
			names.err = err
			return
		}
		names.isOperation, names.isEvent = map[string]bool{}, map[string]bool{}
		for _, e := range c.Endpoints {
			if !names.isOperation[e.Operation] {
				names.operations = append(names.operations, e.Operation)
				names.isOperation[e.Operation] = true
			}
		}
		for _, e := range c.Events {
			names.events = append(names.events, e)
			names.isEvent[e] = true
		}
	})
	return &names
}

// checkNames refuses operation and event names that the catalogues do not
// know, with the closest known name: a misspelt name would otherwise
// match nothing, and the run would fail much later without saying why.
// Operation names with a dot (oauth.token, eshop.orderConfirmed) are the
// sandbox's own routes for the e-shop pages and are not in the catalogue.
func (sc *Scenario) checkNames(at func(string, string, ...any)) {
	c := loadNames()
	if c.err != nil {
		at("", "the endpoint catalogue cannot be read: %v", c.err)
		return
	}
	op := func(where, name string) {
		if name == "" || c.isOperation[name] || strings.Contains(name, ".") {
			return
		}
		at(where, "%q is not an operation of the endpoint catalogue%s", name, didYouMean(name, c.operations, "sandbox routes lists the operations"))
	}
	ev := func(where, name string) {
		if name == "" || c.isEvent[name] {
			return
		}
		at(where, "%q is not an event of the webhook catalogue%s", name, didYouMean(name, c.events, "the events are listed in schemas/index.json"))
	}
	if a := sc.Addon; a != nil && a.Endpoints != nil {
		for i, n := range a.Endpoints.Names {
			if !strings.Contains(n, " ") { // "METHOD /path" is resolved by the sandbox
				op("/addon/endpoints/"+strconv.Itoa(i), n)
			}
		}
	}
	for i := range sc.Faults {
		where := "/faults/" + strconv.Itoa(i) + "/match"
		op(where+"/operation", sc.Faults[i].Match.Operation)
		ev(where+"/event", sc.Faults[i].Match.Event)
	}
	for i := range sc.Steps {
		s := &sc.Steps[i]
		where := "/steps/" + strconv.Itoa(i) + "/"
		for _, m := range []struct {
			kind  string
			match *Match
		}{{StepExpectRequest, matchOf(s.ExpectRequest)}, {StepExpectNoRequest, matchOf(s.ExpectNoRequest)}} {
			if m.match != nil {
				op(where+m.kind+"/match/operation", m.match.Operation)
				ev(where+m.kind+"/match/event", m.match.Event)
			}
		}
		if s.ExpectBackoff != nil {
			op(where+StepExpectBackoff+"/match/operation", s.ExpectBackoff.Match.Operation)
			ev(where+StepExpectBackoff+"/match/event", s.ExpectBackoff.Match.Event)
		}
		if s.Emit != nil {
			ev(where+StepEmit+"/event", s.Emit.Event)
		}
		if s.ExpectWebhookAck != nil {
			ev(where+StepExpectWebhookAck+"/event", s.ExpectWebhookAck.Event)
		}
		if s.ExpectWebhookRejected != nil {
			ev(where+StepExpectWebhookRejected+"/event", s.ExpectWebhookRejected.Event)
		}
	}
}

func matchOf(e *ExpectRequest) *Match {
	if e == nil {
		return nil
	}
	return &e.Match
}

// didYouMean names the closest known name when one is close enough (a
// different case, or a few typed characters off), else points at where the
// names are listed.
func didYouMean(name string, known []string, where string) string {
	best, bestD := "", -1
	lower := strings.ToLower(name)
	for _, k := range known {
		d := editDistance(lower, strings.ToLower(k))
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD >= 0 && bestD <= max(2, len(name)/4) {
		return fmt.Sprintf("; did you mean %q?", best)
	}
	return " (" + where + ")"
}

// editDistance is the optimal-string-alignment distance: insertions,
// deletions, substitutions and swaps of two neighbours each cost 1, so
// "Detial" is one step from "Detail".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

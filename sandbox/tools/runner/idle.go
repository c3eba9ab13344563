package runner

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// idleFaults explains, for a failed step, each fault of the scenario that
// has not acted on anything yet. A fault whose match nothing meets (a path
// the add-on never calls, an nth it never reaches) is the usual reason an
// expectation times out, and the timeout alone would not say so.
func (r *run) idleFaults() []string {
	var out []string
	calls, deliveries, _ := r.log.since(0, 0)
	for i := range r.sc.Faults {
		f := &r.sc.Faults[i]
		if r.log.actedCount(f.Name) > 0 {
			continue
		}
		head := fmt.Sprintf("fault %q (line %d) never acted", f.Name, f.Pos.Line)
		switch {
		case f.Trigger == scenario.TriggerHeader:
			out = append(out, fmt.Sprintf("%s: no call named it in the %s header", head, sandbox.NewHeaders(r.app.Config.HeaderPrefix).SandboxFault))
		case f.IsWebhook():
			met := 0
			for _, d := range deliveries {
				if f.Match.Conditions(scenario.Facts{Webhook: true, Eshop: d.Eshop, Event: d.Event}) {
					met++
				}
			}
			what := "any delivery"
			if f.Match.Event != "" {
				what = "event " + f.Match.Event
			}
			out = append(out, idleReason(head, met, len(deliveries), "webhook deliveries", what))
		default:
			conditions := f.Match
			conditions.Nth = 0 // described apart, by idleReason
			met := len(r.matching(&f.Match, calls))
			out = append(out, idleReason(head, met, len(calls), "calls of the add-on", describeMatch(conditions)))
		}
	}
	return out
}

// idleReason says whether nothing met a fault's conditions or its nth,
// times or probability passed every candidate over.
func idleReason(head string, met, seen int, what, match string) string {
	if met == 0 {
		return fmt.Sprintf("%s: none of the %d %s so far matched %s", head, seen, what, match)
	}
	return fmt.Sprintf("%s: %d of the %d %s so far matched %s, but nth, times or probability passed them over", head, met, seen, what, match)
}

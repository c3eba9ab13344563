package runner

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

func (r *run) within(d scenario.Duration) time.Duration {
	if d <= 0 {
		return r.opts.DefaultWithin
	}
	return d.D()
}

// describeMatch says in words which calls a match selects.
func describeMatch(m scenario.Match) string {
	var parts []string
	add := func(ok bool, s string) {
		if ok {
			parts = append(parts, s)
		}
	}
	add(m.Method != "", m.Method)
	add(m.Path != "", m.Path)
	add(m.Operation != "", "operation "+m.Operation)
	add(m.Eshop != 0, fmt.Sprintf("e-shop %d", m.Eshop))
	add(m.TokenKind != "", m.TokenKind+" token")
	add(m.Token != "", "token "+m.Token)
	add(m.Addon != "", "by add-on "+m.Addon)
	if len(m.Header) > 0 {
		keys := make([]string, 0, len(m.Header))
		for k, v := range m.Header {
			keys = append(keys, k+": "+v)
		}
		sort.Strings(keys)
		parts = append(parts, "header "+strings.Join(keys, ", "))
	}
	s := "any call"
	if len(parts) > 0 {
		s = "a call " + strings.Join(parts, " ")
	}
	if m.Nth > 0 {
		s = fmt.Sprintf("call number %d of %s", m.Nth, strings.TrimPrefix(s, "a "))
	}
	return s
}

// matching returns the calls (of the add-on) that meet a match's
// conditions, in order.
func (r *run) matching(m *scenario.Match, cs []*bus.Call) []*bus.Call {
	var out []*bus.Call
	for _, c := range cs {
		if m.Conditions(r.facts(c)) {
			out = append(out, c)
		}
	}
	return out
}

// probe is a matching call and, when it fails the step's assertions,
// what was asserted and what the call did instead.
type probe struct {
	c             *bus.Call
	want, got     string
	failedAsserts bool
}

// expectRequest waits for the add-on to make a matching call that passes
// the assertions (with match.nth: the nth matching call must pass them);
// with none it passes only if no matching call comes in time.
func (r *run) expectRequest(e *scenario.ExpectRequest, none bool) outcome {
	within := r.within(e.Within)
	want := describeMatch(e.Match)
	if none {
		expected := fmt.Sprintf("the add-on makes no %s within %v", strings.TrimPrefix(want, "a "), within)
		found, c := waitFor(r.ctx, r.log, r.cursorCalls, r.cursorDeliveries, within, func(cs []*bus.Call, _ []bus.Delivery) (bool, *bus.Call) {
			if ms := r.matching(&e.Match, cs); len(ms) >= max(e.Match.Nth, 1) {
				return true, ms[max(e.Match.Nth, 1)-1]
			}
			return false, nil
		})
		if found {
			cs, ds, _ := r.log.since(r.cursorCalls, r.cursorDeliveries)
			return fail(expected, "it did: "+describeCall(c), traffic(cs, ds, 10))
		}
		return pass(fmt.Sprintf("no such call in %v", within))
	}
	expected := fmt.Sprintf("the add-on makes %s within %v", want, within)
	header := map[string]string{}
	for k, v := range e.Header {
		x, err := r.expand(v)
		if err != nil {
			return fail(expected, "expectRequest.header."+k+": "+err.Error(), nil)
		}
		header[k] = x
	}
	body, err := r.expandValue(e.Body)
	if err != nil {
		return fail(expected, "expectRequest.body: "+err.Error(), nil)
	}
	check := func(c *bus.Call) probe { return r.assertCall(c, e, header, body) }
	found, p := waitFor(r.ctx, r.log, r.cursorCalls, r.cursorDeliveries, within, func(cs []*bus.Call, _ []bus.Delivery) (bool, probe) {
		ms := r.matching(&e.Match, cs)
		if e.Match.Nth > 0 {
			if len(ms) >= e.Match.Nth {
				return true, check(ms[e.Match.Nth-1])
			}
			return false, probe{}
		}
		var last probe
		for _, c := range ms {
			if last = check(c); !last.failedAsserts {
				return true, last
			}
		}
		return false, last
	})
	cs, ds, _ := r.log.since(r.cursorCalls, r.cursorDeliveries)
	switch {
	case p.c == nil:
		got := fmt.Sprintf("no such call within %v", within)
		if len(cs) == 0 {
			got += "; the add-on made no call at all"
		}
		return fail(expected, got, traffic(cs, ds, 10))
	case !found || p.failedAsserts:
		return fail(expected+p.want, p.got, traffic(cs, ds, 10))
	}
	return pass(describeCall(p.c))
}

// assertCall checks a matching call against the step's assertions.
func (r *run) assertCall(c *bus.Call, e *scenario.ExpectRequest, header map[string]string, body any) probe {
	bad := func(want, got string) probe { return probe{c: c, want: want, got: got, failedAsserts: true} }
	if e.Path != "" && !scenario.PathMatches(e.Path, pathOnly(c.Path)) {
		return bad(", to "+e.Path, "it went to "+c.Path+": "+describeCall(c))
	}
	if e.Status != 0 && c.Status != e.Status {
		return bad(fmt.Sprintf(", answered %d", e.Status), "it was answered "+fmt.Sprint(c.Status)+": "+describeCall(c))
	}
	keys := make([]string, 0, len(header))
	for k := range header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := header[k]
		if !scenario.HeadersMatch(map[string]string{k: v}, c.ReqHeader) {
			got := "it was sent without " + k
			if vals := c.ReqHeader.Values(k); len(vals) > 0 {
				got = fmt.Sprintf("it sent %s: %s", k, strings.Join(vals, ", "))
			}
			return bad(fmt.Sprintf(" with header %s: %s", k, v), got+": "+describeCall(c))
		}
	}
	if body != nil {
		var got any
		if err := json.Unmarshal(c.ReqBody, &got); err != nil {
			return bad(" with a JSON body containing "+compact(body), "its body is not JSON: "+clip(string(c.ReqBody), 200))
		}
		if diff := subset(normalize(body), got, ""); diff != "" {
			return bad(" with a body containing "+compact(body), diff+"\nbody: "+clip(string(c.ReqBody), 400))
		}
	}
	return probe{c: c}
}

// expectWebhook waits for a delivery of the event to the add-on that it
// acknowledged (2xx) or rejected (answered, not 2xx).
func (r *run) expectWebhook(e *scenario.ExpectWebhook, ack bool) outcome {
	within := r.within(e.Within)
	what := e.Event
	if e.Instance != "" {
		what += " " + e.Instance
	}
	matches := func(d bus.Delivery) bool {
		return d.Event == e.Event && (e.Eshop == 0 || d.Eshop == e.Eshop) && (e.Instance == "" || d.Instance == e.Instance)
	}
	found, d := waitFor(r.ctx, r.log, r.cursorCalls, r.cursorDeliveries, within, func(_ []*bus.Call, ds []bus.Delivery) (bool, bus.Delivery) {
		for _, d := range ds {
			if !matches(d) {
				continue
			}
			ok := d.Status/100 == 2 && d.Error == ""
			if ack && ok || !ack && d.Status != 0 && !ok {
				return true, d
			}
		}
		return false, bus.Delivery{}
	})
	expected := fmt.Sprintf("the add-on acknowledges a delivery of %s with 2xx within %v", what, within)
	if !ack {
		expected = fmt.Sprintf("the add-on rejects a delivery of %s (answers, but not 2xx) within %v", what, within)
	}
	if found {
		note := describeDelivery(d)
		return pass(note)
	}
	cs, ds, _ := r.log.since(r.cursorCalls, r.cursorDeliveries)
	var seen []bus.Delivery
	for _, d := range ds {
		if matches(d) {
			seen = append(seen, d)
		}
	}
	got := "no delivery of " + what + " reached the add-on in time"
	if len(seen) > 0 {
		var lines []string
		for _, d := range seen {
			lines = append(lines, describeDelivery(d))
		}
		if ack {
			got = "it did not acknowledge any: " + strings.Join(lines, "; ")
		} else {
			got = "it did not reject any: " + strings.Join(lines, "; ")
		}
	}
	return fail(expected, got, traffic(cs, ds, 10))
}

type backoff struct {
	refusal, retry *bus.Call
	until          time.Time
}

// expectBackoff waits for a refusal with Retry-After on a matching call
// (a 429 of a full rate bucket: the only answer that carries one) and the
// add-on's retry of it, which must not come earlier.
func (r *run) expectBackoff(e *scenario.ExpectBackoff) outcome {
	within := r.within(e.Within)
	_, b := waitFor(r.ctx, r.log, r.cursorCalls, r.cursorDeliveries, within, func(cs []*bus.Call, _ []bus.Delivery) (bool, backoff) {
		for i, c := range cs {
			if c.Status != http.StatusTooManyRequests {
				continue
			}
			if !e.Match.Conditions(r.facts(c)) {
				continue
			}
			until, ok := retryAfter(c)
			if !ok {
				continue
			}
			tok := r.facts(c).Token
			for _, n := range cs[i+1:] {
				if r.facts(n).Token == tok && n.Method == c.Method && pathOnly(n.Path) == pathOnly(c.Path) {
					return true, backoff{refusal: c, retry: n, until: until}
				}
			}
			return false, backoff{refusal: c, until: until}
		}
		return false, backoff{}
	})
	cs, ds, _ := r.log.since(r.cursorCalls, r.cursorDeliveries)
	expected := fmt.Sprintf("after a 429 with Retry-After (a full rate bucket) on %s, the add-on retries no earlier than Retry-After, within %v", strings.TrimPrefix(describeMatch(e.Match), "a "), within)
	switch {
	case b.refusal == nil:
		return fail(expected, "no matching call was refused with Retry-After", traffic(cs, ds, 10))
	case b.retry == nil:
		return fail(expected, "the add-on did not retry "+b.refusal.Method+" "+b.refusal.Path+" in time", traffic(cs, ds, 10))
	case b.retry.Time.Before(b.until):
		return fail(expected, fmt.Sprintf("it retried %v after the refusal, %v before Retry-After (%s)",
			b.retry.Time.Sub(b.refusal.Time).Round(time.Millisecond), b.until.Sub(b.retry.Time).Round(time.Millisecond), b.until.UTC().Format(http.TimeFormat)),
			traffic(cs, ds, 10))
	}
	return pass(fmt.Sprintf("refused %d, retried %v later (%s)", b.refusal.Status,
		b.retry.Time.Sub(b.refusal.Time).Round(time.Millisecond), r.askedWait(b.refusal, b.until)))
}

// askedWait says what a refusal asked the add-on to wait. Retry-After is
// an HTTP date rounded up to the whole second, so the wait a scripted
// fault means (retryAfter: 1s) cannot be read back from it; the fault's
// own value is named instead, and the date for any other refusal.
func (r *run) askedWait(refusal *bus.Call, until time.Time) string {
	date := until.UTC().Format("15:04:05")
	if refusal.Fault != "" {
		for i := range r.sc.Faults {
			f := &r.sc.Faults[i]
			if f.Name != refusal.Fault {
				continue
			}
			if f.Respond != nil && f.Respond.RetryAfter != nil {
				return fmt.Sprintf("Retry-After asked %v, until %s", f.Respond.RetryAfter.D(), date)
			}
		}
	}
	return fmt.Sprintf("Retry-After until %s, %v after the refusal", date, until.Sub(refusal.Time).Round(100*time.Millisecond))
}

// findings reads the contract report.
func (r *run) findings() []scenario.Finding { return r.report().Findings }

// report reads the contract report (empty when it cannot be read).
func (r *run) report() scenario.ReportView {
	v, err := r.cc.Report(r.ctx)
	if err != nil {
		return scenario.ReportView{}
	}
	return *v
}

func describeFindings(fs []scenario.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = fmt.Sprintf("%s: %s", f.Rule, f.Message)
	}
	return out
}

// expectReport checks the contract report for rules (or none).
func (r *run) expectReport(e *scenario.ExpectReport) outcome {
	fs := r.findings()
	seen := map[string]bool{}
	for _, f := range fs {
		seen[f.Rule] = true
	}
	if e.Empty || len(e.Rules) == 0 {
		if len(fs) == 0 {
			return pass("the contract report is empty")
		}
		return fail("the contract report lists nothing", fmt.Sprintf("it lists %d finding(s)", len(fs)), describeFindings(fs))
	}
	var missing []string
	for _, rule := range e.Rules {
		if !seen[rule] {
			missing = append(missing, rule)
		}
	}
	if len(missing) > 0 {
		got := "missing: " + strings.Join(missing, ", ")
		if len(fs) == 0 {
			got += "; the report is empty"
		}
		return fail("the contract report lists "+strings.Join(e.Rules, ", "), got, describeFindings(fs))
	}
	return pass("listed: " + strings.Join(e.Rules, ", "))
}

// strictStep is the implicit last step of a strict scenario: the contract
// report must be empty.
func (r *run) strictStep(i int, fs []scenario.Finding) StepResult {
	sr := StepResult{Index: i + 1, Name: "contract report (strict)", Kind: "strict", Status: Passed, Note: "the add-on broke none of the spec's rules"}
	if len(fs) > 0 {
		sr.Status = Failed
		sr.Note = ""
		sr.Expected = "strict: the add-on breaks none of the spec's rules"
		sr.Got = fmt.Sprintf("the contract report lists %d finding(s)", len(fs))
		sr.Traffic = describeFindings(fs)
	}
	return sr
}

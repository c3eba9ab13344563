package certify

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// findings are the contract report's findings of the run.
type findings []scenario.Finding

// findings reads the contract report of the run's sandbox.
func (s *suite) findings() findings {
	v, err := s.cc.Report(s.ctx)
	if err != nil {
		s.progress("reading the contract report: %v", err)
		return nil
	}
	return v.Findings
}

// in returns the findings of a rule about the given calls.
func (fs findings) in(rule string, calls []*bus.Call) findings {
	ids := map[string]bool{}
	for _, c := range calls {
		ids[c.ID] = true
	}
	var out findings
	for _, f := range fs {
		if f.Rule == rule && ids[f.RequestID] {
			out = append(out, f)
		}
	}
	return out
}

// messages joins the findings' messages (at most three).
func (fs findings) messages() string {
	var m []string
	for i, f := range fs {
		if i == 3 {
			m = append(m, fmt.Sprintf("and %d more", len(fs)-3))
			break
		}
		m = append(m, f.Message)
	}
	return strings.Join(m, " ")
}

// calls returns the calls the findings are about, in log order.
func (fs findings) calls(all []*bus.Call) []*bus.Call {
	ids := map[string]bool{}
	for _, f := range fs {
		ids[f.RequestID] = true
	}
	var out []*bus.Call
	for _, c := range all {
		if ids[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// retriesIn are a round's retried-unchanged findings that are resends of
// the round's own refused request: a call of its method and path that the
// add-on sent once it had the refusal. Another round's request sent again,
// or the round's refused call itself flagged against an earlier round's
// refusal of the same read (the same GET made for a new event, which the
// fault happened to meet), is not this round's retry.
func retriesIn(fs findings, r round) findings {
	byID := make(map[string]*bus.Call, len(r.calls))
	for _, c := range r.calls {
		byID[c.ID] = c
	}
	var out findings
	for _, f := range fs.in(scenario.RuleRetriedUnchanged, r.calls) {
		c := byID[f.RequestID]
		if c == nil || c == r.faulted || c.Method != r.faulted.Method || c.Path != r.faulted.Path || !scenario.SentAfterAnswer(c, r.faulted) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func (s *suite) lines(cs []*bus.Call) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, describeCall(c, s.headers.AccessToken))
	}
	return out
}

// wholeRun judges the checks that look at every call of the run, and the
// rounds' checks, once the contract report has seen everything.
func (s *suite) wholeRun() {
	fs := s.findings()
	all, _ := s.log.all()
	var api []*bus.Call
	for _, c := range all {
		if isAPI(c) {
			api = append(api, c)
		}
	}
	s.judgeContentType(api, fs)
	s.notes = append(s.notes, s.otherWords(api)...)
	s.judgeJobs(api, fs)
	s.judgeConcurrency(api, fs)
	if s.played != nil {
		s.judgeRetryAfter(fs)
		s.judgeMaintenance(fs)
		s.judgeNoRetry(fs)
		s.judgeExpired(fs)
	}
}

// otherWords notes API calls whose token came in a header of another
// brand word than the sandbox's (Acme-Access-Token where it reads
// Service-Access-Token): the add-on, or its client library, speaks that
// word, and --header-prefix gives the sandbox the same.
func (s *suite) otherWords(api []*bus.Call) []string {
	type other struct{ word, header string }
	counts := map[other]int{}
	for _, c := range api {
		if c.Status != http.StatusUnauthorized {
			continue
		}
		for k := range c.ReqHeader {
			for _, suffix := range []string{"-Access-Token", "-Private-Api-Token"} {
				word, ok := strings.CutSuffix(k, suffix)
				if ok && word != "" && !strings.EqualFold(word, s.app.Config.HeaderPrefix) {
					counts[other{word, k}]++
				}
			}
		}
	}
	seen := make([]other, 0, len(counts))
	for o := range counts {
		seen = append(seen, o)
	}
	sort.Slice(seen, func(i, j int) bool { return seen[i].header < seen[j].header })
	var out []string
	for _, o := range seen {
		out = append(out, fmt.Sprintf("%d API call(s) sent the token in %s and were answered 401: this run's sandbox speaks %s (%s). Certify the add-on with --header-prefix %s.",
			counts[o], o.header, s.app.Config.HeaderPrefix, s.headers.AccessToken, o.word))
	}
	return out
}

const noCalls = "The add-on made no API call during the run; give --trigger with an event that makes it call (e.g. order:create)."

func (s *suite) judgeContentType(api []*bus.Call, fs findings) {
	if len(api) == 0 {
		s.res.set(CheckContentType, NotExercised, noCalls, nil)
		return
	}
	if bad := fs.in(scenario.RuleNoContentType, api); len(bad) > 0 {
		s.res.set(CheckContentType, Failed, fmt.Sprintf("%d of %d API calls had no Content-Type: send application/json on every request, GET and DELETE included.", len(bad), len(api)),
			s.lines(bad.calls(api)))
		return
	}
	// A Content-Type the API does not take (another brand's media type)
	// is refused 422 invalid-content-type before anything else happens.
	var refused []*bus.Call
	types := map[string]bool{}
	for _, c := range api {
		if c.Status == http.StatusUnprocessableEntity && bytes.Contains(c.RespBody.Bytes(), []byte(sandbox.CodeInvalidContentType)) {
			refused = append(refused, c)
			types[c.ReqHeader.Get("Content-Type")] = true
		}
	}
	if len(refused) > 0 {
		sent := make([]string, 0, len(types))
		for t := range types {
			sent = append(sent, strconv.Quote(t))
		}
		sort.Strings(sent)
		s.res.set(CheckContentType, Failed, fmt.Sprintf("%d of %d API calls were refused 422 invalid-content-type: they sent Content-Type %s, and the API takes application/json or %s. A client library that writes its own brand word in the media type and header names needs that word here: --header-prefix WORD.",
			len(refused), len(api), strings.Join(sent, ", "), s.headers.VendorMediaType), s.lines(refused))
		return
	}
	s.res.set(CheckContentType, Passed, fmt.Sprintf("All %d API calls carried a Content-Type the API takes.", len(api)), nil)
}

func (s *suite) judgeJobs(api []*bus.Call, fs findings) {
	async := s.asyncOperations()
	var calls, hooks []*bus.Call
	for _, c := range api {
		switch {
		case async[c.Operation]:
			calls = append(calls, c)
		case c.Method == http.MethodPost && c.Path == "/api/webhooks" && c.Status/100 == 2 && bytes.Contains(c.ReqBody, []byte("job:finished")):
			hooks = append(hooks, c)
		}
	}
	if len(calls) == 0 {
		s.res.set(CheckJobFinished, NotExercised, "The add-on made no asynchronous call (a snapshot, a batch, an upload); give --trigger with an event that makes it start one.", s.lines(hooks))
		return
	}
	if bad := fs.in(scenario.RuleAsyncNoJobHook, calls); len(bad) > 0 {
		s.res.set(CheckJobFinished, Failed, "The e-shop refuses an asynchronous call (403) until job:finished is registered (POST /api/webhooks): "+bad.messages(),
			s.lines(append(hooks, bad.calls(api)...)))
		return
	}
	started := 0
	for _, c := range calls {
		if c.Status/100 == 2 {
			started++
		}
	}
	if started == 0 {
		// Refused for another reason (a fault, a token), the call never
		// reached the point where the e-shop looks for job:finished.
		s.res.set(CheckJobFinished, NotExercised, fmt.Sprintf("None of the add-on's %d asynchronous call(s) started a job: each was refused before the e-shop looked for job:finished.", len(calls)),
			s.lines(append(hooks, calls...)))
		return
	}
	s.res.set(CheckJobFinished, Passed, fmt.Sprintf("job:finished was registered before the add-on's %d asynchronous call(s).", len(calls)), s.lines(append(hooks, calls...)))
}

func (s *suite) judgeConcurrency(api []*bus.Call, fs findings) {
	if len(api) == 0 {
		s.res.set(CheckConcurrency, NotExercised, noCalls, nil)
		return
	}
	most, peak := maxOpen(api, s.headers.AccessToken)
	burst, burstCalls := "", 0
	if p := s.played; p != nil {
		for _, c := range p.burst {
			if isAPI(c) {
				burstCalls++
			}
		}
		burst = fmt.Sprintf(" The burst of %d events, with every call slowed by %s, led to %d API calls.", p.burstEvents, s.o.Timing.Latency, burstCalls)
	}
	bad := fs.in(scenario.RuleTooManyConns, api)
	switch {
	case len(bad) > 0:
		s.res.set(CheckConcurrency, Failed, fmt.Sprintf("The add-on had more than %d calls open with one token and %d were refused with 429 too-many-connections; queue the calls (at most %d at once per token).%s", maxConns, len(bad), maxConns, burst),
			s.lines(append(peak, bad.calls(api)...)))
	case most > maxConns:
		s.res.set(CheckConcurrency, Failed, fmt.Sprintf("%d calls were open at once with one token; the spec allows %d.%s", most, maxConns, burst), s.lines(peak))
	case burstCalls <= maxConns:
		// With no more calls to make than the limit allows at once, an
		// add-on keeps to it whatever it does: that is no evidence.
		why := burst
		if s.played == nil || s.played.burstEvents == 0 {
			why = " No burst of events was played (it needs a --trigger event that makes the add-on call)."
		}
		s.res.set(CheckConcurrency, NotExercised, fmt.Sprintf("The add-on never had more than %d calls to make at once, so the limit was not put to the test (at most %d call(s) were open at once).%s", maxConns, most, why), s.lines(peak))
	default:
		s.res.set(CheckConcurrency, Passed, fmt.Sprintf("At most %d call(s) were open at once with one token.%s", most, burst), s.lines(peak))
	}
}

// maxConns is the spec's limit of calls open at once with one token.
const maxConns = 3

// maxOpen is the most API calls open at once with one token, as the
// sandbox saw them (from its start of a call to the end of its answer),
// and the calls open at that moment.
func maxOpen(cs []*bus.Call, tokenHeader string) (int, []*bus.Call) {
	type edge struct {
		at    time.Time
		open  bool
		call  *bus.Call
		order int
	}
	byToken := map[string][]edge{}
	for i, c := range cs {
		tok := c.ReqHeader.Get(tokenHeader)
		byToken[tok] = append(byToken[tok], edge{startOf(c), true, c, i}, edge{endOf(c), false, c, i})
	}
	toks := make([]string, 0, len(byToken))
	for tok := range byToken {
		toks = append(toks, tok)
	}
	sort.Strings(toks) // the same peak on every run when two tie
	most := 0
	var peak []*bus.Call
	for _, tok := range toks {
		es := byToken[tok]
		// A call that ends when another starts was not open with it.
		sort.Slice(es, func(i, j int) bool {
			if !es[i].at.Equal(es[j].at) {
				return es[i].at.Before(es[j].at)
			}
			return !es[i].open && es[j].open
		})
		open := map[*bus.Call]int{}
		for _, e := range es {
			if !e.open {
				delete(open, e.call)
				continue
			}
			open[e.call] = e.order
			if len(open) > most {
				most = len(open)
				peak = peak[:0]
				for c := range open {
					peak = append(peak, c)
				}
				sort.Slice(peak, func(i, j int) bool { return open[peak[i]] < open[peak[j]] })
			}
		}
	}
	return most, peak
}

// waited describes how long after a refusal the add-on called again,
// against what Retry-After asked for.
func waited(refused, next *bus.Call) string {
	s := fmt.Sprintf("the next call came %.1fs after the %d", startOf(next).Sub(endOf(refused)).Seconds(), refused.Status)
	if until, ok := retryAfterOf(refused); ok {
		s += fmt.Sprintf(" (Retry-After asked for %.1fs)", until.Sub(refused.Time).Seconds())
	}
	return s
}

// firstAfterWait is the first of the calls after a refusal that came at
// or after its Retry-After time (the add-on's considered next call;
// earlier ones were on their way already, or are findings), else the
// first.
func firstAfterWait(refused *bus.Call, next []*bus.Call) *bus.Call {
	if until, ok := retryAfterOf(refused); ok {
		for _, c := range next {
			if !c.Time.Before(until) {
				return c
			}
		}
	}
	return next[0]
}

func (s *suite) judgeRetryAfter(fs findings) {
	p := s.played
	var ev, notes []string
	var bad findings
	exercised := false
	for _, x := range []struct {
		r      round
		status int
		same   bool
	}{{p.tooMany, 429, false}, {p.locked, 423, true}} {
		r := x.r
		if !r.met(x.status, &notes) {
			continue
		}
		ev = append(ev, describeCall(r.faulted, s.headers.AccessToken))
		var next []*bus.Call
		for _, c := range r.after(r.faulted) {
			if !x.same || (c.Method == r.faulted.Method && c.Path == r.faulted.Path) {
				next = append(next, c)
			}
		}
		if len(next) > 3 {
			next = next[:3]
		}
		ev = append(ev, s.lines(next)...)
		bad = append(bad, fs.in(scenario.RuleIgnoredRetryAfter, r.calls)...)
		if len(next) == 0 {
			notes = append(notes, fmt.Sprintf("after the %d the add-on did not call again", x.status))
			continue
		}
		exercised = true
		notes = append(notes, waited(r.faulted, firstAfterWait(r.faulted, next)))
	}
	s.settleRounds(CheckRetryAfter, bad, exercised, notes, ev,
		"The add-on called before the Retry-After time: "+bad.messages()+" Wait until the date Retry-After names (an HTTP date, read against the answer's Date) before calling again.",
		"It waited: "+strings.Join(notes, "; ")+".")
}

// settleRounds gives the verdict of a check several rounds decide: failed
// with the findings, else passed when a round was exercised, else not
// exercised with why.
func (s *suite) settleRounds(check string, bad findings, exercised bool, notes, ev []string, failed, passed string) {
	switch {
	case len(bad) > 0:
		s.res.set(check, Failed, failed, ev)
	case exercised:
		s.res.set(check, Passed, passed, ev)
	default:
		s.res.set(check, NotExercised, strings.Join(slices.Compact(notes), "; ")+".", ev)
	}
}

func (s *suite) judgeMaintenance(fs findings) {
	r := s.played.maintenance
	switch {
	case r.err != nil:
		s.res.set(CheckMaintenance, NotExercised, r.err.Error(), nil)
		return
	case r.faulted == nil:
		s.res.set(CheckMaintenance, NotExercised, "No call of the add-on met the maintenance window.", nil)
		return
	}
	next := r.after(r.faulted)
	ev := append([]string{describeCall(r.faulted, s.headers.AccessToken)}, s.lines(next)...)
	// A call the add-on sent after it had the 503 and that met the window
	// still open (another 503) came far sooner than "retry in minutes".
	var during []string
	for _, c := range next {
		// Only a call sent once the add-on had the 503 (not one of its
		// parallel calls already on the way) shows what it made of it.
		if c.Status == http.StatusServiceUnavailable && scenario.SentAfterAnswer(c, r.faulted) {
			during = append(during, fmt.Sprintf("%s %s %.1fs after the first 503", c.Method, c.Path, startOf(c).Sub(endOf(r.faulted)).Seconds()))
		}
	}
	if len(during) > 0 {
		s.res.set(CheckMaintenance, Failed, fmt.Sprintf("The add-on called again while the %s maintenance window lasted: %s. The spec says to retry in minutes after a 503: back off, do not retry at once.",
			s.o.Timing.Maintenance, strings.Join(during, "; ")), ev)
		return
	}
	note := "it made no further call"
	if len(next) > 0 {
		note = waited(r.faulted, next[0])
	}
	s.res.set(CheckMaintenance, Passed, "After the 503 the add-on stayed away while the window lasted: "+note+".", ev)
}

func (s *suite) judgeNoRetry(fs findings) {
	p := s.played
	var ev, notes []string
	var bad findings
	exercised := false
	for _, x := range []struct {
		r      round
		status int
	}{{p.badRequest, 400}, {p.unprocessable, 422}} {
		r := x.r
		if !r.met(x.status, &notes) {
			continue
		}
		exercised = true
		ev = append(ev, describeCall(r.faulted, s.headers.AccessToken))
		found := retriesIn(fs, r)
		ev = append(ev, s.lines(found.calls(r.calls))...)
		bad = append(bad, found...)
	}
	s.settleRounds(CheckNoRetry, bad, exercised, notes, ev,
		"The add-on sent a refused request again unchanged: "+bad.messages(),
		"Neither the request answered 400 nor the one answered 422 was sent again unchanged.")
}

func (s *suite) judgeExpired(fs findings) {
	r := s.played.expired
	switch {
	case r.err != nil:
		s.res.set(CheckExpiredToken, NotExercised, r.err.Error(), nil)
		return
	case r.faulted == nil || r.faulted.Status != http.StatusUnauthorized:
		s.res.set(CheckExpiredToken, NotExercised, "No API call of the add-on met the expired token.", nil)
		return
	}
	old := r.faulted.ReqHeader.Get(s.headers.AccessToken)
	ev := []string{describeCall(r.faulted, s.headers.AccessToken)}
	// The calls up to the first with another token: the token request
	// among them. A call with the old token that was already on its way
	// when the 401 went out is no reuse; the contract report tells those
	// apart (expired-token-reused).
	renewed := false
	for _, c := range r.calls {
		if c == r.faulted || startOf(c).Before(endOf(r.faulted)) {
			continue
		}
		ev = append(ev, describeCall(c, s.headers.AccessToken))
		if isAPI(c) && c.ReqHeader.Get(s.headers.AccessToken) != old {
			renewed = true
			break
		}
	}
	if bad := fs.in(scenario.RuleExpiredTokenAgain, r.calls); len(bad) > 0 {
		s.res.set(CheckExpiredToken, Failed, "After 401 expired-token the add-on sent the same token again: "+bad.messages()+" Ask getAccessToken for a new one and never send the expired one again.",
			append(ev, s.lines(bad.calls(r.calls))...))
		return
	}
	if !renewed {
		s.res.set(CheckExpiredToken, NotExercised, "The add-on made no API call with a new token after the 401 expired-token (and sent no call it knew to be refused).", ev)
		return
	}
	s.res.set(CheckExpiredToken, Passed, "The add-on's next call after 401 expired-token used a new token.", ev)
}

package scenario

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

// Rules of the contract report: what a client does against the spec.
const (
	RuleRetriedUnchanged  = "retried-unchanged"
	RuleIgnoredRetryAfter = "ignored-retry-after"
	RuleTooManyConns      = "too-many-connections"
	RuleNoContentType     = "missing-content-type"
	RuleExpiredTokenAgain = "expired-token-reused"
	RulePagedOnChanged    = "paged-on-changed-total"
	RuleAsyncNoJobHook    = "async-without-job-finished"
	RuleInstallEarly      = "install-answered-before-exchange"
	// The payment rules (report_payments.go).
	RulePaymentWithoutStatus = "payment-result-without-status"
	RulePaidWithoutPayment   = "paid-status-without-payment-result"
)

// Rule describes one rule of the report, with the spec's words.
type Rule struct {
	Name        string `json:"name"`        // the rule's name, as findings name it
	Description string `json:"description"` // what the rule asks, and where the spec says so
}

// Rules lists the report's rules in a stable order.
var Rules = []Rule{
	{RuleRetriedUnchanged, "Sent a request again unchanged (same token, method, URL and body) after it had the 400 or 422 answer to it (spec, Errors: never retry unchanged); once per failed request."},
	{RuleIgnoredRetryAfter, "Called before the Retry-After date of a 429 answer (a full bucket, the only answer with one) to the same token (the same IP without one), after it had that answer; once per call."},
	{RuleTooManyConns, "Had more calls open at once than the limit (3 per token, 50 per IP) and was refused with 429 too-many-connections (a scripted 429 does not count)."},
	{RuleNoContentType, "Sent an API request without the Content-Type header (spec, Versioning rule 2: required)."},
	{RuleExpiredTokenAgain, "Used an API token again after it had a 401 expired-token answer for it (spec: request a new one); once per token."},
	{RulePagedOnChanged, "Fetched the next page after it had a page whose totalCount differed from the page before (spec, Paging rule 1: items may be skipped or repeated)."},
	{RuleAsyncNoJobHook, "Called an asynchronous endpoint without registering the job:finished webhook first (spec, Events rule 1)."},
	{RuleInstallEarly, "Answered the install request with 200 before exchanging the code for the OAuth token (spec, Authentication step 2)."},
	{RulePaymentWithoutStatus, "Stored a payment result (PATCH /api/payment-status/{paymentCode}) and did not set the order to the status the e-shop maps that result to (PATCH /orders/{code}/status) within the allowed time (spec, payment flow step 6: both calls; only the status call changes the order)."},
	{RulePaidWithoutPayment, "Marked an order paid online (a status with markAsPaid, or paid true, through a status call) without storing the payment result paid for it within the allowed time (spec, payment flow step 6)."},
}

// RuleNames are the names of Rules, for validation.
func RuleNames() []string {
	out := make([]string, len(Rules))
	for i, r := range Rules {
		out[i] = r.Name
	}
	return out
}

// Bounds that keep a long-running sandbox's report small: at most
// MaxFindings findings (the oldest give way) and MaxTracked remembered
// requests per kind of bookkeeping (forgotten all at once when full).
const (
	MaxFindings = 1000
	MaxTracked  = 10000
)

// RunnerAgent is the User-Agent of the scenario runner's own calls (steps
// acting as the e-shop administration); the report does not judge them.
const RunnerAgent = "sandbox-scenario-runner/1"

// Finding is one thing a client did against the spec's rules.
type Finding struct {
	Rule      string    `json:"rule"`                // the rule broken (see rules)
	Message   string    `json:"message"`             // what happened, in a sentence
	Time      time.Time `json:"time"`                // sandbox clock
	RequestID string    `json:"requestId,omitempty"` // the call that broke it
	Eshop     int       `json:"eshop,omitempty"`     // the e-shop called
	TokenKind string    `json:"tokenKind,omitempty"` // private or addon
	Token     string    `json:"token,omitempty"`     // shortened
	Method    string    `json:"method,omitempty"`    // the call's method
	Path      string    `json:"path,omitempty"`      // the call's path
	Operation string    `json:"operation,omitempty"` // the call's operation, e.g. GetListOfOrders
}

// Report watches the traffic (bus.TopicCall) and the install reports and
// notes every rule a client breaks. It is fed through Observe and is safe
// for concurrent use.
type Report struct {
	async func(operation string) bool
	// unpaged, when set, tells the operations that never answer a
	// paginator, whose bodies the paging rule need not search.
	unpaged func(operation string) bool

	mu       sync.Mutex
	findings []Finding
	dropped  int                      // findings beyond MaxFindings, oldest first
	failed   map[string]answerMark    // identity, method, URI, body hash of a 400/422 -> its answer
	waits    map[string][]wait        // identity (or identity+URL for 423) -> Retry-After answers
	expired  map[string]*expiredState // tokens answered expired-token
	pages    map[string]*pageState
	// scratch joins the recorded parts of a list's answer for paging
	// (under mu): one buffer reused, not a copy of each list read.
	scratch []byte
	// Chaos bookkeeping (see observeChaosLocked): injected and recovered
	// per fault name, and the faults a later success would settle.
	chaosInjected, chaosRecovered map[string]int
	chaosOpen                     map[string][]string
	pay                           payments // the payment rules (report_payments.go)
}

// wait is an answer that asked the client to wait until a moment.
type wait struct {
	until time.Time // the Retry-After date, sandbox clock
	mark  answerMark
}

// maxWaitsPerKey bounds the Retry-After answers remembered per client
// (a burst of refusals keeps only the newest).
const maxWaitsPerKey = 16

// expiredState is a token answered expired-token: when, and whether a
// later use was reported.
type expiredState struct {
	mark     answerMark
	reported bool
}

type pageState struct {
	page, total int64
	changed     bool
	changedAt   answerMark // the answer that showed the changed total
	from        int64
}

// NewReport returns an empty report. async reports whether an operation
// is asynchronous (nil: none is).
func NewReport(async func(string) bool) *Report {
	rp := &Report{async: async, pay: payments{now: time.Now, within: sandbox.DefaultPaymentStatusWithin}}
	rp.Clear()
	return rp
}

// SkipPaging names the operations that never answer a paginator (the
// catalogue's non-pageable endpoints): the paging rule then does not
// search their answers, which keeps large detail reads cheap.
func (rp *Report) SkipPaging(unpaged func(operation string) bool) { rp.unpaged = unpaged }

// Clear forgets every finding and what was learnt so far.
func (rp *Report) Clear() {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.findings, rp.dropped = nil, 0
	rp.failed, rp.waits, rp.expired, rp.pages = map[string]answerMark{}, map[string][]wait{}, map[string]*expiredState{}, map[string]*pageState{}
	rp.chaosInjected, rp.chaosRecovered, rp.chaosOpen = map[string]int{}, map[string]int{}, map[string][]string{}
	rp.pay.clear()
}

// Findings returns a copy of the findings in the order they were made;
// payment steps whose partner call is overdue by now are among them.
func (rp *Report) Findings() []Finding {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.expirePaymentsLocked(rp.pay.now())
	return append([]Finding(nil), rp.findings...)
}

// Dropped is how many of the oldest findings gave way to newer ones.
func (rp *Report) Dropped() int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.dropped
}

// addLocked appends a finding within MaxFindings. Callers hold mu.
func (rp *Report) addLocked(f Finding) {
	if len(rp.findings) >= MaxFindings {
		rp.findings = append(rp.findings[:0], rp.findings[1:]...)
		rp.dropped++
	}
	rp.findings = append(rp.findings, f)
}

// trimLocked forgets the bookkeeping maps that grew past MaxTracked.
// Callers hold mu.
func (rp *Report) trimLocked() {
	if len(rp.failed) > MaxTracked {
		rp.failed = map[string]answerMark{}
	}
	if len(rp.waits) > MaxTracked {
		rp.waits = map[string][]wait{}
	}
	if len(rp.expired) > MaxTracked {
		rp.expired = map[string]*expiredState{}
	}
	if len(rp.pages) > MaxTracked {
		rp.pages = map[string]*pageState{}
	}
	if len(rp.chaosOpen) > MaxTracked {
		rp.chaosOpen = map[string][]string{}
	}
	if len(rp.pay.results)+len(rp.pay.paid) > MaxTracked {
		rp.pay.clear()
	}
}

// Hook is a bus consumer: it feeds calls, install reports and
// payment-flow steps to the report. It does a little bookkeeping under a lock and never blocks.
func (rp *Report) Hook(m bus.Message) {
	switch m.Topic {
	case bus.TopicCall:
		rp.Observe(m.Call())
	case addons.TopicInstall:
		if rec, ok := m.Data.(*addons.InstallReport); ok {
			rp.ObserveInstall(rec)
		}
	case bus.TopicPayment:
		switch ps := m.Data.(type) {
		case *bus.PaymentStep:
			rp.ObservePayment(ps)
		case bus.PaymentStep:
			rp.ObservePayment(&ps)
		}
	}
}

// ObserveInstall notes an install answered with 200 before the code was
// exchanged.
func (rp *Report) ObserveInstall(rec *addons.InstallReport) {
	if rec == nil || rec.Answer == nil || rec.Answer.Status != http.StatusOK || rec.Passed {
		return
	}
	exchangedInTime := false
	for _, x := range rec.Exchanges {
		if x.Accepted && !x.AfterAnswer && !x.OtherCode {
			exchangedInTime = true
		}
	}
	if exchangedInTime {
		return
	}
	t, _ := sandbox.ParseTime(rec.FinishedAt)
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.addLocked(Finding{Rule: RuleInstallEarly, Time: t, Eshop: rec.EshopID,
		Message: fmt.Sprintf("Add-on %s: %s", rec.Addon, rec.Summary)})
}

// Observe judges one finished call. Calls arrive when they end, not when
// they start, so a call is judged only against the answers its client had
// certainly read before sending it (startedAfter): a call that was already
// on its way when a 429, a 422 or an expired-token answer went out is not
// the client ignoring that answer.
func (rp *Report) Observe(c *bus.Call) {
	if c == nil || c.Control() || c.ReqHeader.Get("User-Agent") == RunnerAgent {
		return
	}
	isAPI := c.API()
	// The token and its access mode as the server's pipeline resolved
	// them (the precedence of its authentication), never read again here.
	tok, kind := c.Token, c.AccessMode
	// The client's name, made only when a rule keys something by it
	// (most calls follow no refusal and touch no key).
	identity := ""
	ident := func() string {
		if identity == "" {
			identity = "t:" + tok
			if tok == "" {
				identity = "ip:" + host(c.RemoteAddr)
			}
		}
		return identity
	}
	errCode := ""
	if c.Status >= http.StatusBadRequest { // only the refusals below look at it; a success's body is not parsed
		errCode = gjson.GetBytes(c.RespBody.Bytes(), "errors.0.errorCode").String()
	}
	base := Finding{Time: c.Time, RequestID: c.ID, Eshop: c.Eshop, TokenKind: kind, Method: c.Method, Path: c.Path, Operation: c.Operation}
	if base.TokenKind == "" {
		base.TokenKind = c.TokenKind
	}

	rp.mu.Lock()
	defer rp.mu.Unlock()
	defer rp.trimLocked()
	add := func(rule, format string, args ...any) {
		f := base
		f.Token = shorten(tok) // only for a finding
		f.Rule, f.Message = rule, fmt.Sprintf(format, args...)
		rp.addLocked(f)
	}

	if isAPI {
		rp.observeChaosLocked(c.Eshop, c.Method, c.Operation, c.Fault, c.Status, base.TokenKind)
	}

	if isAPI && c.ReqHeader.Get("Content-Type") == "" {
		add(RuleNoContentType, "%s %s was sent without Content-Type; send application/json on every request, GET and DELETE included.", c.Method, c.Path)
	}

	mark := markOf(c)
	// The keys are built only when something may be found under them:
	// most calls follow no refusal and get none.
	refused := c.Status == http.StatusBadRequest || c.Status == http.StatusUnprocessableEntity
	if len(rp.failed) > 0 || refused {
		retryKey := ident() + " " + c.Method + " " + c.Path + " " + bodyHash(c.ReqBody)
		if m, ok := rp.failed[retryKey]; ok && startedAfter(c, m) {
			add(RuleRetriedUnchanged, "%s %s was sent again unchanged after it was answered 400 or 422; fix the request instead of retrying it.", c.Method, c.Path)
			delete(rp.failed, retryKey) // once per failure
		}
		if refused {
			if _, ok := rp.failed[retryKey]; !ok { // the earliest answer the client could know
				rp.failed[retryKey] = mark
			}
		}
	}

	ra := c.RespHeader.Get("Retry-After")
	lockKey := ""
	if len(rp.waits) > 0 || ra != "" {
		lockKey = ident() + " " + c.Method + " " + c.Path
		rp.judgeWaits(c, ident(), add)
		rp.judgeWaits(c, lockKey, add)
	}
	if ra != "" {
		if until, err := http.ParseTime(ra); err == nil {
			switch c.Status {
			case http.StatusLocked:
				rp.addWait(lockKey, wait{until: until, mark: mark})
			case http.StatusTooManyRequests, http.StatusServiceUnavailable:
				rp.addWait(ident(), wait{until: until, mark: mark})
			}
		}
	}

	if c.Status == http.StatusTooManyRequests && errCode == limits.CodeTooManyConnections && c.Fault == "" {
		add(RuleTooManyConns, "%s %s was refused with 429: the client had too many connections open at once (at most 3 per token).", c.Method, c.Path)
	}

	if tok != "" {
		if st, ok := rp.expired[tok]; ok && !st.reported && startedAfter(c, st.mark) {
			add(RuleExpiredTokenAgain, "%s %s used a token that was already answered 401 expired-token; request a new API token instead.", c.Method, c.Path)
			st.reported = true
		}
		if c.Status == http.StatusUnauthorized && errCode == sandbox.CodeExpiredToken {
			if _, ok := rp.expired[tok]; !ok {
				rp.expired[tok] = &expiredState{mark: mark}
			}
		}
	}

	if c.Status == http.StatusForbidden && rp.async != nil && rp.async(c.Operation) && errCode != sandbox.CodeNoRights && errCode != eshop.CodeModuleNotEnabled {
		add(RuleAsyncNoJobHook, "%s %s is asynchronous and was called without a registered job:finished webhook; register it first.", c.Method, c.Path)
	}

	if c.Status == http.StatusOK && isAPI {
		rp.paging(c, ident, add)
	}
}

// judgeWaits judges a call against the Retry-After answers its client got
// under key: the answers it had read before sending the call (the others
// were answered while it was on its way) are settled by it, and it is a
// finding when it came before any of their dates (one finding a call).
func (rp *Report) judgeWaits(c *bus.Call, key string, add func(string, string, ...any)) {
	ws := rp.waits[key]
	if len(ws) == 0 {
		return
	}
	kept := ws[:0]
	var early time.Time
	for _, w := range ws {
		if !startedAfter(c, w.mark) {
			kept = append(kept, w)
			continue
		}
		if c.Time.Before(w.until) && w.until.After(early) {
			early = w.until
		}
	}
	if !early.IsZero() {
		add(RuleIgnoredRetryAfter, "%s %s came %s before the Retry-After time %s.", c.Method, c.Path,
			early.Sub(c.Time).Round(time.Millisecond), early.UTC().Format(http.TimeFormat))
	}
	if len(kept) == 0 {
		delete(rp.waits, key)
		return
	}
	rp.waits[key] = kept
}

// addWait remembers a Retry-After answer, the newest maxWaitsPerKey per key.
func (rp *Report) addWait(key string, w wait) {
	ws := append(rp.waits[key], w)
	if len(ws) > maxWaitsPerKey {
		ws = append(ws[:0:0], ws[len(ws)-maxWaitsPerKey:]...)
	}
	rp.waits[key] = ws
}

// paging follows page sequences of a list per client and notes a page
// fetched after totalCount changed.
func (rp *Report) paging(c *bus.Call, identity func() string, add func(string, string, ...any)) {
	if rp.unpaged != nil && rp.unpaged(c.Operation) {
		return
	}
	var pg gjson.Result
	cut := int64(c.RespBody.Len()) < c.RespBodySize // the record kept the answer's start only
	pg, rp.scratch = paginatorOf(c.RespBody, cut, rp.scratch[:0])
	if !pg.Exists() {
		return
	}
	total, page := pg.Get("totalCount").Int(), pg.Get("page").Int()
	// One list is one route with its path parameters (an alias included)
	// and its query but the page.
	q := c.Query()
	q.Del("page")
	key := identity() + " " + c.Method + " " + listKey(c) + "?" + q.Encode()
	st := rp.pages[key]
	switch {
	case st != nil && page == st.page+1:
		// A page fetched before the page that showed the change was read
		// (fetched ahead, concurrently) is not paging on regardless.
		if st.changed && startedAfter(c, st.changedAt) {
			add(RulePagedOnChanged, "%s %s fetched page %d although totalCount changed from %d to %d on the page before; start again from page 1.", c.Method, c.Path, page, st.from, st.total)
			st.changed = false
		}
		if total != st.total {
			st.changed, st.from, st.changedAt = true, st.total, markOf(c)
		}
	default:
		st = &pageState{}
		rp.pages[key] = st
	}
	st.page, st.total = page, total
}

// Where the sandbox's envelope puts a list's paginator: data's first key
// (the items' key sorts after "paginator") or its last (before), the
// envelope's "errors" right after it.
var (
	paginatorFirst = []byte(`{"data":{"paginator":`)
	paginatorLast  = []byte(`,"paginator":{`)
	dataEnd        = []byte(`},"errors":`)
)

// paginatorOf finds the paginator of a list's answer (data.paginator),
// reading where the envelope puts it: the first or the last few hundred
// bytes. Searching a 90 KB answer for it took half the CPU of serving
// the answer. A body laid out otherwise is read whole, unless the record
// cut it short: then its paginator, not at its start, was cut off. buf is
// scratch space, returned for reuse.
func paginatorOf(body bus.Body, truncated bool, buf []byte) (gjson.Result, []byte) {
	const window = 512
	buf = body.Head(buf[:0], window)
	if bytes.HasPrefix(buf, paginatorFirst) {
		if pg := gjson.GetBytes(buf, "data.paginator"); pg.IsObject() && strings.HasSuffix(pg.Raw, "}") {
			return pg, buf
		}
	}
	if truncated {
		return gjson.Result{}, buf
	}
	buf = body.Tail(buf[:0], window)
	if i := bytes.LastIndex(buf, paginatorLast); i >= 0 {
		obj := buf[i+len(paginatorLast)-1:]
		// The paginator holds numbers only: its object ends at the first
		// closing brace, and data's must follow.
		if end := bytes.IndexByte(obj, '}'); end > 0 && bytes.HasPrefix(obj[end+1:], dataEnd) {
			if pg := gjson.ParseBytes(obj[:end+1]); pg.IsObject() {
				return pg, buf
			}
		}
	}
	if !body.Contains([]byte(`"paginator"`)) {
		return gjson.Result{}, buf // not a list: skip joining and parsing
	}
	buf = body.AppendTo(buf[:0])
	return gjson.GetBytes(buf, "data.paginator"), buf
}

// listKey names the list a call read: its operation and path parameters
// as the pipeline resolved them (the URL's path when no route matched).
func listKey(c *bus.Call) string {
	if c.Operation == "" {
		return c.URLPath()
	}
	names := make([]string, 0, len(c.Params))
	for k := range c.Params {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(c.Operation)
	for _, k := range names {
		b.WriteString(" " + k + "=" + c.Params[k])
	}
	return b.String()
}

func host(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

func bodyHash(b []byte) string {
	if len(b) == 0 { // most calls (GET, DELETE): no need to hash nothing
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// shorten keeps enough of a token to recognise it in a report.
func shorten(tok string) string {
	if len(tok) <= 16 {
		return tok
	}
	return tok[:16] + "…"
}

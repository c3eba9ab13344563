package certify

import (
	"fmt"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// Verdict is the outcome of one check.
type Verdict string

// Verdicts. Only Failed makes a run fail: NotExercised says the add-on
// never met the situation (it made no call a rule needs), so the check
// is neither passed nor failed and the run is not certified either
// (Report.Outcome: INCOMPLETE); Observed reports behaviour the platform
// leaves to the add-on.
const (
	Passed       Verdict = "passed"
	Failed       Verdict = "failed"
	NotExercised Verdict = "not exercised"
	Observed     Verdict = "observed"
)

// Check ids, stable names for CI and the JUnit test cases.
const (
	CheckInstall      = "install-handshake"
	CheckCodeOnce     = "install-code-once"
	CheckReinstall    = "install-again"
	CheckWebhookAck   = "webhook-ack"
	CheckSignature    = "webhook-signature"
	CheckDuplicate    = "webhook-duplicate"
	CheckOutOfOrder   = "webhook-out-of-order"
	CheckContentType  = "content-type"
	CheckJobFinished  = "job-finished"
	CheckRetryAfter   = "retry-after"
	CheckMaintenance  = "maintenance"
	CheckNoRetry      = "no-unchanged-retry"
	CheckConcurrency  = "concurrency"
	CheckExpiredToken = "expired-token"
	CheckSuspend      = "addon-suspend"
	CheckApprove      = "addon-approve"
	CheckUninstall    = "addon-uninstall"
)

// Rule is one check of the suite: what the add-on must do, in a sentence.
type Rule struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Rules lists the checks in the order the report card shows them.
var Rules = []Rule{
	{CheckInstall, "Install: the code is exchanged for the OAuth token before the install request is answered 200"},
	{CheckCodeOnce, "Install: each code is exchanged once, and only the code of the install being handled"},
	{CheckReinstall, "Install: a second install, with a new code, succeeds"},
	{CheckWebhookAck, "Webhooks: a correctly signed notification is answered 2xx within the timeout"},
	{CheckSignature, "Webhooks: a notification with a wrong or missing signature is refused (4xx), while a correctly signed one is acknowledged"},
	{CheckDuplicate, "Webhooks: the same notification delivered twice (observed; handling is the add-on's choice)"},
	{CheckOutOfOrder, "Webhooks: two notifications of one entity out of order (observed; handling is the add-on's choice)"},
	{CheckContentType, "API: every call carries a Content-Type the API takes (application/json or the vendor media type), GET and DELETE included"},
	{CheckJobFinished, "API: job:finished is registered before an asynchronous call"},
	{CheckRetryAfter, "API: after a 429 with Retry-After the add-on waits until that time; after a 423 it retries later"},
	{CheckMaintenance, "API: after a 503 maintenance answer, the add-on stays away while the window lasts (the spec: retry in minutes)"},
	{CheckNoRetry, "API: a request answered 400 or 422 is never sent again unchanged"},
	{CheckConcurrency, "API: at most 3 calls are open at once with one token"},
	{CheckExpiredToken, "API: after 401 expired-token, the next call uses a new token"},
	{CheckSuspend, "System events: addon:suspend is acknowledged (2xx)"},
	{CheckApprove, "System events: addon:approve is acknowledged (2xx)"},
	{CheckUninstall, "System events: addon:uninstall is acknowledged (2xx)"},
}

// Result is one check's outcome with the calls and deliveries that
// decided it.
type Result struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Verdict  Verdict  `json:"verdict"`
	Summary  string   `json:"summary"`  // why, in a sentence or two
	Evidence []string `json:"evidence"` // calls and deliveries, one a line
}

// Report is the outcome of a certification run.
type Report struct {
	Addon      string `json:"addon"`
	Eshop      int    `json:"eshop"`
	InstallURL string `json:"installUrl"`
	WebhookURL string `json:"webhookUrl"`
	Sandbox    string `json:"sandbox"` // the run's own sandbox (gone once the run ended)
	// HeaderPrefix is the brand word the run's sandbox spoke (header
	// names, media type, webhook signature header).
	HeaderPrefix string        `json:"headerPrefix"`
	Triggers     []string      `json:"triggers"`
	Started      time.Time     `json:"started"`
	Duration     time.Duration `json:"duration"`
	Checks       []Result      `json:"checks"`
	// Writes are the add-on's calls that change data (method, path,
	// status) during the fault rounds, each with its round: empty when it
	// only read, nil when no round was played.
	Writes []string `json:"writes"`
	// Notes are what the card says besides the checks: a token header
	// in another brand word than the sandbox's, say.
	Notes []string `json:"notes,omitempty"`
	// AddonOutput is the end of the add-on's output (when certify started
	// it and a check failed).
	AddonOutput string `json:"addonOutput,omitempty"`
	// Chaos, with --chaos, tells how the add-on coped with the faults
	// drawn for its calls besides the rounds' own.
	Chaos *Chaos `json:"chaos,omitempty"`
}

// Chaos is the card's chaos section: the rate, the seed that repeats the
// run's faults, and per injected kind how the add-on coped.
type Chaos struct {
	Rate   float64                `json:"rate"`
	Seed   uint64                 `json:"seed"`
	Coping []scenario.ChaosCoping `json:"coping"`
}

// Percent is the rate as the card prints it ("25%").
func (c *Chaos) Percent() string { return strconv.FormatFloat(c.Rate*100, 'f', -1, 64) + "%" }

// Failed reports whether any check failed.
func (r *Report) Failed() bool { return r.Count(Failed) > 0 }

// Count is how many checks have the verdict.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, c := range r.Checks {
		if c.Verdict == v {
			n++
		}
	}
	return n
}

// Check returns the result of a check by id (nil when absent).
func (r *Report) Check(id string) *Result {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

// maxEvidence bounds the lines of evidence a check keeps.
const maxEvidence = 12

// results collects verdicts as the phases decide them.
type results map[string]Result

// set records a check's verdict; the evidence is capped.
func (rs results) set(id string, v Verdict, summary string, evidence []string) {
	if len(evidence) > maxEvidence {
		evidence = append(append([]string{}, evidence[:maxEvidence-1]...), fmt.Sprintf("... and %d more", len(evidence)-maxEvidence+1))
	}
	if evidence == nil {
		evidence = []string{}
	}
	rs[id] = Result{ID: id, Verdict: v, Summary: summary, Evidence: evidence}
}

// ordered lays the results out in Rules order; a check no phase reached
// (the run stopped early) is not exercised.
func (rs results) ordered(why string) []Result {
	out := make([]Result, 0, len(Rules))
	for _, rule := range Rules {
		r, ok := rs[rule.ID]
		if !ok {
			r = Result{ID: rule.ID, Verdict: NotExercised, Summary: why, Evidence: []string{}}
		}
		r.Title = rule.Title
		out = append(out, r)
	}
	return out
}

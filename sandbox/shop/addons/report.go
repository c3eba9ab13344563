package addons

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// InstallsCollection (global) keeps the install reports in start order.
const InstallsCollection = "installs"

// TopicInstall is the bus topic of finished install reports (Data is a
// InstallReport); the contract report and the terminal UI listen to it.
const TopicInstall = "install"

// Install outcomes.
const (
	Running = "running"
	Passed  = "passed"
	Failed  = "failed"
)

// InstallReport is the report of one install handshake: what the sandbox sent,
// every code exchange the add-on attempted, how the add-on answered, and
// the verdict with a readable explanation of each problem.
type InstallReport struct {
	ID            string    `json:"id"`                                                                                           // the install's id, for GET /_sandbox/installs/{id}
	EshopID       int       `json:"eshopId"`                                                                                      // the e-shop that installed
	Addon         string    `json:"addon"`                                                                                        // the add-on installed
	InstallURL    string    `json:"installUrl"`                                                                                   // as configured; the request adds ?code=<255 characters>
	TokenURL      string    `json:"tokenUrl"`                                                                                     // the installing e-shop's OAuth token address
	Result        string    `json:"result" enum:"running|passed|failed" doc:"Where the handshake is: running, passed or failed."` // running, passed or failed
	Passed        bool      `json:"passed" doc:"The verdict: true when the add-on passed the install handshake. A failed handshake is still a 200 answer; problems say why."`
	StartedAt     string    `json:"startedAt"`             // sandbox clock
	FinishedAt    string    `json:"finishedAt"`            // sandbox clock
	CodeExpiresAt string    `json:"codeExpiresAt"`         // sandbox clock
	Answer        *Answer   `json:"answer"`                // nil when the add-on could not be reached
	Unreachable   string    `json:"unreachable,omitempty"` // why the add-on could not be reached, when it could not
	Exchanges     []Attempt `json:"exchanges"`             // the code exchanges the OAuth server saw for this install
	Problems      []string  `json:"problems" doc:"What the add-on did wrong in the handshake, one sentence each (empty when it passed)."`
	Summary       string    `json:"summary"`     // the outcome in a sentence
	AddonStatus   string    `json:"addonStatus"` // the add-on's status in the e-shop afterwards
}

// Answer is how the add-on answered the install request.
type Answer struct {
	Status     int    `json:"status"`             // the HTTP status the add-on answered the install request with
	Location   string `json:"location,omitempty"` // for redirects
	Body       string `json:"body,omitempty"`     // the first bytes, for the report
	DurationMs int64  `json:"durationMs"`         // wall time the add-on took
}

// Attempt is one code exchange seen during (or after) an install.
type Attempt struct {
	oauth.Exchange
	// AfterAnswer: the exchange reached the OAuth server only after the
	// add-on had answered the install request.
	AfterAnswer bool `json:"afterAnswer"`
	// OtherCode: the add-on exchanged a code that was not the one sent
	// with this install (an earlier install's, or an unknown one).
	OtherCode bool `json:"otherCode,omitempty"`
}

func putReport(tx *store.Tx, rec *InstallReport) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = tx.Put(store.Global, InstallsCollection, rec.ID, raw)
	return err
}

func getReport(tx *store.Tx, id string) (*InstallReport, error) {
	raw, err := tx.Get(store.Global, InstallsCollection, id)
	if err != nil {
		return nil, err
	}
	var rec InstallReport
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// WriteText prints the report for a person, as `sandbox install` shows it.
func (rec *InstallReport) WriteText(w io.Writer) {
	verdict := strings.ToUpper(rec.Result)
	if rec.Passed {
		verdict = "passed"
	}
	fmt.Fprintf(w, "install %s of add-on %s into e-shop %d: %s\n", rec.ID, rec.Addon, rec.EshopID, verdict)
	fmt.Fprintf(w, "  install request: GET %s with code=<%d characters>, valid until %s\n", rec.InstallURL, oauth.CodeLength, rec.CodeExpiresAt)
	for i, a := range rec.Exchanges {
		when := "before the answer"
		if a.AfterAnswer {
			when = "AFTER the answer"
		}
		what := "accepted, OAuth access token issued"
		if !a.Accepted {
			what = fmt.Sprintf("refused with HTTP %d %s", a.Status, a.Error)
		}
		fmt.Fprintf(w, "  code exchange %d: %s (%s) at %s\n", i+1, what, when, a.URL)
	}
	if len(rec.Exchanges) == 0 {
		fmt.Fprintf(w, "  code exchange:   none (expected at %s)\n", rec.TokenURL)
	}
	switch {
	case rec.Answer != nil:
		fmt.Fprintf(w, "  answer:          HTTP %d\n", rec.Answer.Status)
	case rec.Unreachable != "":
		fmt.Fprintf(w, "  answer:          none (%s)\n", rec.Unreachable)
	}
	fmt.Fprintf(w, "  add-on status:   %s\n", rec.AddonStatus)
	if rec.Passed {
		fmt.Fprintf(w, "  %s\n", rec.Summary)
		return
	}
	fmt.Fprintln(w, "  problems:")
	for _, p := range rec.Problems {
		fmt.Fprintf(w, "  - %s\n", p)
	}
}

func now(tx *store.Tx) string { return sandbox.FormatTime(tx.Now()) }

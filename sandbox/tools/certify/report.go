package certify

import (
	"fmt"
	"io"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/addonproc"
)

// marks are the verdicts as the report card prints them.
var marks = map[Verdict]string{Passed: "pass", Failed: "FAIL", NotExercised: "n/a ", Observed: "info"}

// WriteText prints the report card: every check with its verdict, why,
// and the calls and deliveries that decided it; then the totals.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "sandbox certify: add-on %s in e-shop %d\n", r.Addon, r.Eshop)
	fmt.Fprintf(w, "  install URL %s, webhook URL %s\n", r.InstallURL, r.WebhookURL)
	if r.HeaderPrefix != "" {
		fmt.Fprintf(w, "  header prefix: %s\n", r.HeaderWords())
	}
	if len(r.Triggers) > 0 {
		fmt.Fprintf(w, "  triggers: %s\n", strings.Join(r.Triggers, ", "))
	} else {
		fmt.Fprintf(w, "  triggers: none (--trigger EVENT makes the add-on call the API)\n")
	}
	fmt.Fprintln(w)
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%s %-22s %s\n", marks[c.Verdict], c.ID, c.Title)
		if c.Verdict != Passed || c.Summary != "" {
			fmt.Fprintf(w, "     %s: %s\n", c.Verdict, c.Summary)
		}
		for _, e := range c.Evidence {
			fmt.Fprintf(w, "       %s\n", e)
		}
	}
	if r.Writes != nil {
		if r.OnlyRead() {
			fmt.Fprintf(w, "\nwrites under the fault rounds: none (the add-on changed nothing while the faults were in force)\n")
		} else {
			fmt.Fprintf(w, "\nwrites under the fault rounds (the add-on's calls that change data):\n")
			for _, l := range capped(r.Writes, maxWrites) {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
	if r.Chaos != nil {
		fmt.Fprintf(w, "\nchaos: %s of the add-on's calls, seed %d (--seed %d repeats them)\n", r.Chaos.Percent(), r.Chaos.Seed, r.Chaos.Seed)
		if len(r.Chaos.Coping) == 0 {
			fmt.Fprintln(w, "  no fault drawn for the add-on's calls")
		}
		for _, c := range r.Chaos.Coping {
			fmt.Fprintf(w, "  %s\n", c.Summary)
		}
	}
	if r.AddonOutput != "" {
		fmt.Fprintf(w, "\nadd-on output (last lines):\n  %s\n", strings.ReplaceAll(addonproc.LastLines(r.AddonOutput, 20), "\n", "\n  "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "\nnote: %s\n", n)
	}
	if ids := r.NotExercised(); len(ids) > 0 {
		fmt.Fprintf(w, "\nnot exercised, so neither passed nor failed: %s\n", strings.Join(ids, ", "))
	}
	fmt.Fprintf(w, "\n%s: %s (%.1fs)\n", r.Outcome(), r.Totals(), r.Duration.Seconds())
}

// maxWrites bounds the write calls the card lists.
const maxWrites = 40

// capped keeps the first n lines and says how many more there were.
func capped(lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(append([]string{}, lines[:n-1]...), fmt.Sprintf("... and %d more", len(lines)-n+1))
}

// OnlyRead reports rounds played in which the add-on changed nothing.
func (r *Report) OnlyRead() bool { return r.Writes != nil && len(r.Writes) == 0 }

// HeaderWords says what the header prefix made of the headers and the
// media type.
func (r *Report) HeaderWords() string {
	h := sandbox.NewHeaders(r.HeaderPrefix)
	return fmt.Sprintf("%s (%s, %s, %s)", r.HeaderPrefix, h.AccessToken, h.VendorMediaType, h.WebhookSig)
}

// The outcomes of a run.
const (
	OutcomeCertified  = "CERTIFIED"
	OutcomeFailed     = "FAILED"
	OutcomeIncomplete = "INCOMPLETE"
)

// Outcome is FAILED when a check failed; else CERTIFIED when every check
// was exercised (passed, or observed), else INCOMPLETE: nothing failed,
// but what was not exercised is not certified either. Only FAILED makes
// `sandbox certify` exit 1.
func (r *Report) Outcome() string {
	switch {
	case r.Failed():
		return OutcomeFailed
	case r.Count(NotExercised) > 0:
		return OutcomeIncomplete
	}
	return OutcomeCertified
}

// NotExercised lists the checks not exercised, by id.
func (r *Report) NotExercised() []string {
	var out []string
	for _, c := range r.Checks {
		if c.Verdict == NotExercised {
			out = append(out, c.ID)
		}
	}
	return out
}

// Totals counts the checks by verdict.
func (r *Report) Totals() string {
	return fmt.Sprintf("%d passed, %d failed, %d not exercised, %d observed",
		r.Count(Passed), r.Count(Failed), r.Count(NotExercised), r.Count(Observed))
}

package certify

import (
	"fmt"
	"io"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/addonproc"
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
	fmt.Fprintf(w, "\n%s: %s (%.1fs)\n", r.Outcome(), r.Totals(), r.Duration.Seconds())
}

// HeaderWords says what the header prefix made of the headers and the
// media type.
func (r *Report) HeaderWords() string {
	h := sandbox.NewHeaders(r.HeaderPrefix)
	return fmt.Sprintf("%s (%s, %s, %s)", r.HeaderPrefix, h.AccessToken, h.VendorMediaType, h.WebhookSig)
}

// Outcome is CERTIFIED when no check failed, else FAILED.
func (r *Report) Outcome() string {
	if r.Failed() {
		return "FAILED"
	}
	return "CERTIFIED"
}

// Totals counts the checks by verdict.
func (r *Report) Totals() string {
	return fmt.Sprintf("%d passed, %d failed, %d not exercised, %d observed",
		r.Count(Passed), r.Count(Failed), r.Count(NotExercised), r.Count(Observed))
}

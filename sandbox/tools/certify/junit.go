package certify

import (
	"io"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/addonproc"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/junit"
)

// WriteJUnit writes the report as JUnit XML: one test case per check. A
// failed check is a failure, a check not exercised is skipped, and an
// observation passes with what was observed as its output.
func (r *Report) WriteJUnit(w io.Writer) error {
	suite := junit.Suite{Name: "certify " + r.Addon, Time: junit.Seconds(r.Duration)}
	for _, c := range r.Checks {
		body := c.Summary
		if len(c.Evidence) > 0 {
			body += "\nevidence:\n  " + strings.Join(c.Evidence, "\n  ")
		}
		tc := junit.Case{Name: c.ID + ": " + c.Title, Classname: "certify." + r.Addon}
		switch c.Verdict {
		case Failed:
			if r.AddonOutput != "" {
				body += "\nadd-on output (last lines):\n" + addonproc.LastLines(r.AddonOutput, 20)
			}
			tc.Failure = &junit.Message{Message: c.Summary, Type: c.ID, Body: body}
		case NotExercised:
			tc.Skipped = &junit.Message{Message: "not exercised: " + c.Summary}
		default:
			tc.SystemOut = string(c.Verdict) + ": " + body
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Count()
	doc := junit.Suites{Name: "sandbox certify", Time: suite.Time}
	doc.Add(suite)
	return junit.Write(w, doc)
}

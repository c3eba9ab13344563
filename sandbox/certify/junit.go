package certify

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// JUnit XML shapes (the Jenkins/Ant dialect CI systems read).
type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Time     string     `xml:"time,attr"`
	Suite    junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test case per check. A
// failed check is a failure, a check not exercised is skipped, and an
// observation passes with what was observed as its output.
func (r *Report) WriteJUnit(w io.Writer) error {
	secs := fmt.Sprintf("%.3f", r.Duration.Seconds())
	suite := junitSuite{Name: "certify " + r.Addon, Time: secs}
	for _, c := range r.Checks {
		body := c.Summary
		if len(c.Evidence) > 0 {
			body += "\nevidence:\n  " + strings.Join(c.Evidence, "\n  ")
		}
		tc := junitCase{Name: c.ID + ": " + c.Title, Classname: "certify." + r.Addon}
		switch c.Verdict {
		case Failed:
			if r.AddonOutput != "" {
				body += "\nadd-on output (last lines):\n" + tail(r.AddonOutput, 20)
			}
			tc.Failure = &junitMessage{Message: c.Summary, Body: body}
			suite.Failures++
		case NotExercised:
			tc.Skipped = &junitMessage{Message: "not exercised: " + c.Summary}
			suite.Skipped++
		default:
			tc.SystemOut = string(c.Verdict) + ": " + body
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests = len(suite.Cases)
	all := junitSuites{Name: "sandbox certify", Tests: suite.Tests, Failures: suite.Failures, Skipped: suite.Skipped, Time: secs, Suite: suite}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

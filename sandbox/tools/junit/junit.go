// Package junit writes test reports in the JUnit XML dialect (Jenkins,
// Ant) that CI systems read, so that `sandbox test` and `sandbox certify`
// produce the same shape: test suites of test cases, each passed (with
// its output), failed, in error or skipped.
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// Suites is the document: every suite of a run.
type Suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Time     string   `xml:"time,attr,omitempty"`
	Suites   []Suite  `xml:"testsuite"`
}

// Suite is one group of test cases (a scenario file, a certified add-on).
type Suite struct {
	Name     string `xml:"name,attr"`
	File     string `xml:"file,attr,omitempty"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr,omitempty"`
	Cases    []Case `xml:"testcase"`
}

// Case is one test case; at most one of Failure, Error and Skipped is set.
type Case struct {
	Name      string   `xml:"name,attr"`
	Classname string   `xml:"classname,attr"`
	File      string   `xml:"file,attr,omitempty"`
	Line      int      `xml:"line,attr,omitempty"`
	Time      string   `xml:"time,attr,omitempty"`
	Failure   *Message `xml:"failure,omitempty"`
	Error     *Message `xml:"error,omitempty"`
	Skipped   *Message `xml:"skipped,omitempty"`
	SystemOut string   `xml:"system-out,omitempty"`
}

// Message explains a failure, an error or a skip.
type Message struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// Count fills a suite's totals from its cases.
func (s *Suite) Count() {
	s.Tests, s.Failures, s.Errors, s.Skipped = len(s.Cases), 0, 0, 0
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
}

// Add appends a suite and adds its totals to the document's.
func (d *Suites) Add(s Suite) {
	d.Suites = append(d.Suites, s)
	d.Tests += s.Tests
	d.Failures += s.Failures
	d.Errors += s.Errors
	d.Skipped += s.Skipped
}

// Seconds is a duration as the time attributes write it.
func Seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// Write writes the document with its XML header, indented.
func Write(w io.Writer, d Suites) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(d); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

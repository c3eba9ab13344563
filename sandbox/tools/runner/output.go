package runner

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/tools/addonproc"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/junit"
)

// Counts sums step outcomes.
type Counts struct{ Passed, Failed, Skipped int }

// Counts of one scenario's steps (a setup failure counts as one failure).
func (res *Result) Counts() Counts {
	var c Counts
	if res.Setup != "" {
		c.Failed++
	}
	for _, s := range res.Steps {
		switch s.Status {
		case Passed:
			c.Passed++
		case Failed:
			c.Failed++
		default:
			c.Skipped++
		}
	}
	return c
}

// WriteText prints a readable report of one scenario: each step, pass or
// fail, and for a failure the expectation, what happened instead and the
// relevant traffic; then the contract report.
func WriteText(w io.Writer, res *Result) {
	fmt.Fprintf(w, "scenario %q (%s)\n", res.Name, res.File)
	if res.Setup != "" {
		fmt.Fprintf(w, "  ERROR the scenario could not start:\n%s\n", indent(res.Setup, "        "))
	}
	for _, s := range res.Steps {
		mark := map[string]string{Passed: "ok  ", Failed: "FAIL", Skipped: "skip"}[s.Status]
		where := ""
		if s.Line > 0 {
			where = fmt.Sprintf(" (line %d)", s.Line)
		}
		fmt.Fprintf(w, "  %s %2d %s%s %s\n", mark, s.Index, s.Name, where, seconds(s.Duration))
		switch s.Status {
		case Passed:
			if s.Note != "" {
				fmt.Fprintf(w, "          %s\n", firstLine(s.Note))
			}
		case Failed:
			fmt.Fprintf(w, "          expected: %s\n", s.Expected)
			fmt.Fprintf(w, "          got:      %s\n", indentRest(s.Got, "                    "))
			if len(s.Traffic) > 0 {
				fmt.Fprintf(w, "          traffic:\n")
				for _, t := range s.Traffic {
					fmt.Fprintf(w, "            %s\n", t)
				}
			}
			for _, n := range s.Notes {
				fmt.Fprintf(w, "          note:     %s\n", n)
			}
		case Skipped:
			fmt.Fprintf(w, "          %s\n", s.Got)
		}
	}
	if len(res.Findings) > 0 {
		fmt.Fprintf(w, "  contract report: %d finding(s)\n", len(res.Findings))
		for _, f := range describeFindings(res.Findings) {
			fmt.Fprintf(w, "    - %s\n", f)
		}
	}
	if len(res.Chaos) > 0 {
		fmt.Fprintf(w, "  chaos: how the add-on coped\n")
		for _, c := range res.Chaos {
			fmt.Fprintf(w, "    - %s\n", c.Summary)
		}
	}
	if res.AddonOutput != "" {
		fmt.Fprintf(w, "  add-on output (last lines):\n%s\n", indent(addonproc.LastLines(res.AddonOutput, 20), "    "))
	}
	c := res.Counts()
	verdict := "PASS"
	if !res.Passed {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "%s %s: %d passed, %d failed, %d skipped %s\n\n", verdict, res.File, c.Passed, c.Failed, c.Skipped, seconds(res.Duration))
}

// WriteSummary prints the totals of several scenarios.
func WriteSummary(w io.Writer, results []*Result) {
	passed := 0
	for _, r := range results {
		if r.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "%d scenario(s): %d passed, %d failed\n", len(results), passed, len(results)-passed)
	for _, r := range results {
		if !r.Passed {
			fmt.Fprintf(w, "  failed: %s (%s)\n", r.File, r.Name)
		}
	}
}

func seconds(d time.Duration) string { return fmt.Sprintf("(%.2fs)", d.Seconds()) }

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

func indentRest(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

// WriteJUnit writes the results as JUnit XML: a test suite per scenario,
// a test case per step (a scenario that could not start has one "setup"
// case with the error).
func WriteJUnit(w io.Writer, results []*Result) error {
	all := junit.Suites{Name: "sandbox test"}
	var total time.Duration
	for _, res := range results {
		s := junit.Suite{Name: res.Name, File: res.File, Time: junit.Seconds(res.Duration)}
		class := strings.TrimSuffix(res.File, ".yaml")
		if res.Setup != "" {
			s.Cases = append(s.Cases, junit.Case{Name: "setup", Classname: class, File: res.File, Time: "0",
				Error: &junit.Message{Message: firstLine(res.Setup), Type: "setup", Body: res.Setup + addonOutput(res)}})
		}
		for _, st := range res.Steps {
			c := junit.Case{Name: fmt.Sprintf("%02d %s", st.Index, st.Name), Classname: class, File: res.File, Line: st.Line, Time: junit.Seconds(st.Duration)}
			switch st.Status {
			case Failed:
				body := "expected: " + st.Expected + "\ngot: " + st.Got
				if len(st.Traffic) > 0 {
					body += "\ntraffic:\n  " + strings.Join(st.Traffic, "\n  ")
				}
				for _, n := range st.Notes {
					body += "\nnote: " + n
				}
				c.Failure = &junit.Message{Message: "expected " + st.Expected, Type: st.Kind, Body: body + addonOutput(res)}
			case Skipped:
				c.Skipped = &junit.Message{Message: st.Got}
			default:
				c.SystemOut = st.Note
			}
			s.Cases = append(s.Cases, c)
		}
		s.Count()
		total += res.Duration
		all.Add(s)
	}
	all.Time = junit.Seconds(total)
	return junit.Write(w, all)
}

func addonOutput(res *Result) string {
	if res.AddonOutput == "" {
		return ""
	}
	return "\nadd-on output (last lines):\n" + addonproc.LastLines(res.AddonOutput, 20)
}

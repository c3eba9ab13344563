package runner

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// WriteAnnotations prints a GitHub Actions error annotation for every
// failing step of the result, pointing at the step's line in the scenario
// file (for a scenario that could not start, at the line its first
// problem names, if any), so the pull request shows the failure on that
// line.
func WriteAnnotations(w io.Writer, res *Result) {
	if res.Setup != "" {
		line := 0
		if m := problemLine.FindStringSubmatch(firstLine(res.Setup)); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		annotate(w, res.File, line, fmt.Sprintf("%s: the scenario could not start", res.Name), res.Setup)
	}
	for _, s := range res.Steps {
		if s.Status != Failed {
			continue
		}
		msg := "expected: " + s.Expected + "\ngot: " + s.Got
		for _, n := range s.Notes {
			msg += "\nnote: " + n
		}
		annotate(w, res.File, s.Line, fmt.Sprintf("%s: step %d %s failed", res.Name, s.Index, s.Name), msg)
	}
}

// problemLine finds the line in a "file:line:column: message" problem.
var problemLine = regexp.MustCompile(`^.+?:(\d+):\d+: `)

func annotate(w io.Writer, file string, line int, title, msg string) {
	props := "file=" + escapeProperty(file)
	if line > 0 {
		props += ",line=" + strconv.Itoa(line)
	}
	fmt.Fprintf(w, "::error %s,title=%s::%s\n", props, escapeProperty(title), escapeData(msg))
}

// escapeData escapes a workflow command's message as the Actions runner
// reads it back.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// WriteStepSummary writes the results as the Markdown a GitHub Actions job
// summary ($GITHUB_STEP_SUMMARY) shows: a line of totals, then a table of
// the scenario runs (result, steps, duration, first failure).
func WriteStepSummary(w io.Writer, results []*Result, notRun int) {
	passed := 0
	for _, r := range results {
		if r.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "### sandbox test: %d of %d scenario(s) passed", passed, len(results))
	if notRun > 0 {
		fmt.Fprintf(w, ", %d not run (--fail-fast)", notRun)
	}
	fmt.Fprintf(w, "\n\n| Result | Scenario | File | Steps | Duration | First failure |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range results {
		verdict := "✅ pass"
		if !r.Passed {
			verdict = "❌ fail"
		}
		c := r.Counts()
		steps := fmt.Sprintf("%d passed", c.Passed)
		if c.Failed > 0 {
			steps += fmt.Sprintf(", %d failed", c.Failed)
		}
		if c.Skipped > 0 {
			steps += fmt.Sprintf(", %d skipped", c.Skipped)
		}
		fmt.Fprintf(w, "| %s | %s | `%s` | %s | %.2fs | %s |\n", verdict, cell(r.Name), strings.ReplaceAll(cell(r.File), "`", "'"), steps, r.Duration.Seconds(), cell(firstFailure(r)))
	}
	fmt.Fprintln(w)
}

// firstFailure says where and how a scenario run first failed.
func firstFailure(r *Result) string {
	if r.Setup != "" {
		return "could not start: " + firstLine(r.Setup)
	}
	for _, s := range r.Steps {
		if s.Status == Failed {
			where := ""
			if s.Line > 0 {
				where = fmt.Sprintf(" (line %d)", s.Line)
			}
			return fmt.Sprintf("step %d %s%s: expected %s; got %s", s.Index, s.Name, where, s.Expected, clip(firstLine(s.Got), 200))
		}
	}
	return ""
}

// cell makes text safe in one Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ").Replace(s)
}

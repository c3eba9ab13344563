package runner

import (
	"bytes"
	"strings"
	"testing"
)

// TestAnnotationsPointAtTheStep: a failing step prints one GitHub Actions
// error annotation with the scenario file and the step's line in it, its
// title and message escaped as the runner reads them back; passing and
// skipped steps print none; a scenario that could not start points at the
// line its problem names.
func TestAnnotationsPointAtTheStep(t *testing.T) {
	res, _ := runYAML(t, `name: "wrong, twice: really"
steps:
  - name: fine
    call: {eshop: 1001, path: /api/eshop}
  - name: expects a teapot
    call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}
  - wait: 1ms
`, Options{})
	var out bytes.Buffer
	WriteAnnotations(&out, res)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := "::error file=" + escapeProperty(res.File) + ",line=5,title=wrong%2C twice%3A really%3A step 2 expects a teapot failed::expected: GET /api/eshop answers 418%0Agot: 200 {"
	if len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
		t.Fatalf("annotations:\n%s\nwant one starting %s", out.String(), want)
	}

	broken, _ := runYAML(t, "name: broken\nsteps:\n  - wait: never\n", Options{})
	out.Reset()
	WriteAnnotations(&out, broken)
	if want := "::error file=" + escapeProperty(broken.File) + ",line=3,title=s.yaml%3A the scenario could not start::"; !strings.HasPrefix(out.String(), want) {
		t.Fatalf("setup annotation:\n%s\nwant %s", out.String(), want)
	}
}

func TestEscapes(t *testing.T) {
	if got := escapeData("100% done\r\nnext"); got != "100%25 done%0D%0Anext" {
		t.Errorf("escapeData: %q", got)
	}
	if got := escapeProperty("a,b:c%d\ne"); got != "a%2Cb%3Ac%25d%0Ae" {
		t.Errorf("escapeProperty: %q", got)
	}
}

// TestStepSummary: the job summary is a Markdown table with a row per
// scenario run: result, steps, duration and the first failure with its
// line; a pipe or a line break in a cell does not break the table.
func TestStepSummary(t *testing.T) {
	ok, _ := runYAML(t, "name: fine\nsteps:\n  - call: {eshop: 1001, path: /api/eshop}\n", Options{})
	bad, _ := runYAML(t, "name: a | b\nsteps:\n  - wait: 1ms\n  - name: teapot\n    call: {eshop: 1001, path: /api/eshop, expect: {status: 418}}\n  - wait: 1ms\n", Options{})
	var out bytes.Buffer
	WriteStepSummary(&out, []*Result{ok, bad}, 2)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	for i, want := range map[int]string{
		0: "### sandbox test: 1 of 2 scenario(s) passed, 2 not run (--fail-fast)",
		2: "| Result | Scenario | File | Steps | Duration | First failure |",
		4: "| ✅ pass | fine | `" + ok.File + "` | 1 passed | ",
		5: "| ❌ fail | a \\| b | `" + bad.File + "` | 1 passed, 1 failed, 1 skipped | ",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d:\n%s\nwant it to start %s", i+1, lines[i], want)
		}
	}
	if !strings.Contains(lines[5], "| step 2 teapot (line 4): expected GET /api/eshop answers 418; got 200 {") || strings.Count(lines[5], " | ") != 5 {
		t.Errorf("the failing row:\n%s", lines[5])
	}
}

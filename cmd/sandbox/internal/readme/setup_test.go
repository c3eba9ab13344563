package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEOutputsIgnored: the files the README's commands write in a
// clone (the JUnit report of its test line, the HAR export, a data file,
// make build's binary, make dist's archives) are ignored by git, so following the README never
// leaves a file to commit by mistake.
func TestREADMEOutputsIgnored(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal("git is needed to read .gitignore as git does")
	}
	for _, p := range []string{"report.xml", "calls.har", "sandbox.db", "bin/sandbox", "dist/SHA256SUMS", "cmd/sandbox/internal/ownaddon/testdata/__pycache__/addon.cpython-311.pyc"} {
		cmd := exec.Command(git, "check-ignore", "-q", "--no-index", p)
		cmd.Dir = "../../../.."
		if err := cmd.Run(); err != nil {
			t.Errorf("%s is not ignored by git (.gitignore): %v", p, err)
		}
	}
}

// TestREADMESetupFacts checks what the README says against the programs:
// after make install the next line runs sandbox, so the README puts
// $(go env GOPATH)/bin on PATH first; and the example add-on names the
// sandbox with --sandbox, not --url (neither the README nor a page of
// docs/ says otherwise).
func TestREADMESetupFacts(t *testing.T) {
	raw, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	install := strings.Index(text, "\nmake install ")
	firstUse := strings.Index(text, "\nsandbox up &")
	path := strings.Index(text, "\nexport PATH=\"$(go env GOPATH)/bin:$PATH\"")
	if install < 0 || firstUse < 0 || path < install || path > firstUse {
		t.Errorf("the set-up block runs sandbox after make install without putting $(go env GOPATH)/bin on PATH in between")
	}
	pages, err := filepath.Glob("../../../../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/ (%v)", err)
	}
	for _, p := range append([]string{"../../../../README.md"}, pages...) {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := regexp.MustCompile("(?s)example-addon`?\\)? takes `--url`").FindString(string(raw)); m != "" {
			t.Errorf("%s says the example add-on takes --url (%q); it takes --sandbox", filepath.Base(p), m)
		}
	}
	if !strings.Contains(text, "(the example add-on, a program of its own: `--sandbox`)") {
		t.Errorf("the README does not say the example add-on takes --sandbox")
	}
}

// TestNoTrackedArtefacts: no build or test artefact (compiled Python, a
// test binary, a JUnit report, a HAR export) is tracked by git.
func TestNoTrackedArtefacts(t *testing.T) {
	out, err := exec.Command("git", "-C", "../../../..", "ls-files").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	bad := regexp.MustCompile(`(^|/)__pycache__/|\.pyc$|\.test$|(^|/)report\.xml$|\.har$|(^|/)node_modules/`)
	for _, f := range strings.Split(string(out), "\n") {
		if bad.MatchString(f) {
			t.Errorf("%s is a build or test artefact and is tracked; remove it (git rm --cached) and ignore it", f)
		}
	}
}

// TestREADMESystems: the table of what is verified on which system
// (docs/development.md, which the README's Set-up points to) names every
// system make cross and make dist build for (the Makefile's TARGETS), and
// CI runs make cross.
func TestREADMESystems(t *testing.T) {
	readme, err := os.ReadFile("../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "](docs/development.md#what-is-verified-on-which-system)") {
		t.Error("the README does not point to what is verified on which system")
	}
	page, err := os.ReadFile("../../../../docs/development.md")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := os.ReadFile("../../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile("../../../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^TARGETS\s*:=\s*(.+)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no TARGETS in the Makefile")
	}
	names := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}
	_, table, ok := strings.Cut(string(page), "\n## What is verified on which system\n")
	if !ok {
		t.Fatal("docs/development.md has no ## What is verified on which system section")
	}
	table, _, _ = strings.Cut(table, "\n\n##")
	for _, tg := range strings.Fields(string(m[1])) {
		goos, goarch, _ := strings.Cut(tg, "/")
		row := regexp.MustCompile(`(?m)^\| ` + names[goos] + ` [^|]*\b` + goarch + `\b[^|]*\|`)
		if names[goos] == "" || !row.MatchString(table) {
			t.Errorf("the table of systems in docs/development.md has no row for %s", tg)
		}
	}
	if !regexp.MustCompile(`(?m)^make cross\b`).Match(ci) {
		t.Error(".ci/run does not run make cross")
	}
}

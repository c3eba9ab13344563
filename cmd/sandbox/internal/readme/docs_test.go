package readme

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/eshop-sandbox/sandbox/cmd/sandbox/internal/built"
)

// maxREADMELines is how long the README may grow: set-up, commands, your
// own add-on, certify and the architecture; reference goes to docs/.
const maxREADMELines = 800

// TestREADMEWithinLimit: the README stays within maxREADMELines lines.
func TestREADMEWithinLimit(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(built.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "\n"); n > maxREADMELines {
		t.Errorf("README.md has %d lines, more than %d: move reference material to a page of docs/ and link it from Contents", n, maxREADMELines)
	}
}

// TestREADMEContents: the README opens with a table of contents that
// links each of its own sections and every page of docs/; it keeps the
// sections a newcomer needs (set-up with make up and make test, the
// commands, your own add-on, certify, the architecture).
func TestREADMEContents(t *testing.T) {
	root := built.RepoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	_, contents, ok := strings.Cut(text, "\n## Contents\n")
	if !ok {
		t.Fatal("README.md has no ## Contents section")
	}
	contents, rest, _ := strings.Cut(contents, "\n## ")
	if first := strings.Index(text, "\n## "); first != strings.Index(text, "\n## Contents\n") {
		t.Error("## Contents is not the README's first section")
	}
	for _, h := range headings(rest) {
		if h.level == 2 && !strings.Contains(contents, "(#"+h.anchor+")") {
			t.Errorf("Contents does not link the section %q (#%s)", h.text, h.anchor)
		}
	}
	for _, want := range []string{"Set-up", "Commands", "`sandbox up`", "Your own add-on", "Certify an add-on", "Architecture"} {
		if !strings.Contains(text, "\n## "+want+"\n") {
			t.Errorf("README.md has no ## %s section", want)
		}
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil || len(pages) < 5 {
		t.Fatalf("docs/ holds %d pages (%v)", len(pages), err)
	}
	for _, p := range pages {
		if !strings.Contains(contents, "(docs/"+filepath.Base(p)+")") {
			t.Errorf("Contents does not link docs/%s", filepath.Base(p))
		}
	}
	_, setup, _ := strings.Cut(text, "\n## Set-up\n")
	setup, _, _ = strings.Cut(setup, "\n## ")
	for _, cmd := range []string{"\nmake up ", "\nmake test "} {
		if !strings.Contains(setup, cmd) {
			t.Errorf("the README's Set-up does not give %q", strings.TrimSpace(cmd))
		}
	}
}

// TestDocsPagesRun: every page of docs/ is linked from the README's
// Contents (which fixes the order the blocks run in), says in its first
// lines what it assumes, and, when its blocks use the README's shell
// variables, opens with the README's block that sets them. A page whose
// blocks would not run fails here, without building anything.
func TestDocsPagesRun(t *testing.T) {
	docs, err := readDocs(built.RepoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs[1:] {
		first := strings.Join(strings.SplitN(d.text, "\n", 16)[:15], "\n")
		if !strings.Contains(first, "**What this page assumes.**") {
			t.Errorf("%s does not say in its first lines what it assumes (**What this page assumes.** ...)", d.name)
		}
	}
}

// TestReadDocsRefusesAnUnlistedPage: readDocs fails on a page that
// Contents does not link, and on a page that uses $B without setting it.
func TestReadDocsRefusesAnUnlistedPage(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vars := "```sh\nB=http://127.0.0.1:8080\nT=x\n```\n"
	write("README.md", "# r\n\n## Contents\n\n- [A](docs/a.md)\n\n## Set-up\n\n"+vars)
	write("docs/a.md", "# a\n\n"+vars+"\n```sh\ncurl $B/\n```\n")
	if _, err := readDocs(root); err != nil {
		t.Fatalf("a listed page that sets the variables: %v", err)
	}
	write("docs/b.md", "# b\n\n```sh\necho b\n```\n")
	if _, err := readDocs(root); err == nil || !strings.Contains(err.Error(), "docs/b.md is not linked") {
		t.Fatalf("an unlisted page: %v", err)
	}
	write("README.md", "# r\n\n## Contents\n\n- [A](docs/a.md)\n- [B](docs/b.md)\n\n## Set-up\n\n"+vars)
	write("docs/b.md", "# b\n\n```sh\necho $T\n```\n")
	if _, err := readDocs(root); err == nil || !strings.Contains(err.Error(), "docs/b.md:4: the page uses the README's shell variables") {
		t.Fatalf("a page using $T without setting it: %v", err)
	}
}

// heading is a Markdown heading and the anchor GitHub gives it.
type heading struct {
	level        int
	text, anchor string
}

var (
	headingLine = regexp.MustCompile(`^(#{1,6}) +(.+?) *#*$`)
	inlineLink  = regexp.MustCompile(`!?\[([^\[\]]*)\]\(([^()\s]*)\)`)
)

// headings lists a Markdown text's headings outside fenced blocks, each
// with GitHub's anchor: the text as shown (code spans' backticks and
// links' targets dropped), lower case, punctuation but - and _ removed,
// spaces made -, and -1, -2, ... after a repeated anchor.
func headings(text string) []heading {
	var out []heading
	seen := map[string]int{}
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		m := headingLine.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		shown := inlineLink.ReplaceAllString(m[2], "$1")
		var a strings.Builder
		for _, r := range strings.ToLower(shown) {
			switch {
			case r == ' ':
				a.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
				a.WriteRune(r)
			}
		}
		anchor := a.String()
		if n := seen[anchor]; n > 0 {
			seen[anchor] = n + 1
			anchor = fmt.Sprintf("%s-%d", anchor, n)
		} else {
			seen[anchor] = 1
		}
		out = append(out, heading{level: len(m[1]), text: m[2], anchor: anchor})
	}
	return out
}

// withoutFences blanks the lines of fenced blocks, keeping line numbers,
// so links are only read from the prose.
func withoutFences(text string) string {
	lines := strings.Split(text, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			lines[i] = ""
			continue
		}
		if fence {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// TestDocLinks: every relative link and picture of the README, of the
// pages of docs/ and of the fixtures' and scenarios' READMEs leads to a
// file or folder that exists and, with a #fragment, to a heading of that
// file.
func TestDocLinks(t *testing.T) {
	root := built.RepoRoot(t)
	files := []string{"README.md", "fixtures/README.md", "scenarios/README.md"}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		files = append(files, "docs/"+filepath.Base(p))
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(file string) map[string]bool {
		if a, ok := anchors[file]; ok {
			return a
		}
		a := map[string]bool{}
		if raw, err := os.ReadFile(file); err == nil {
			for _, h := range headings(string(raw)) {
				a[h.anchor] = true
			}
		}
		anchors[file] = a
		return a
	}
	links := 0
	for _, name := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := withoutFences(string(raw))
		for _, m := range inlineLink.FindAllStringSubmatchIndex(text, -1) {
			target := text[m[4]:m[5]]
			line := strings.Count(text[:m[0]], "\n") + 1
			if target == "" || regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`).MatchString(target) {
				continue // a web address, mailto:, ...
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: the link %s leads to no file: %v", name, line, target, err)
					continue
				}
			}
			if frag != "" && !anchorsOf(dest)[frag] {
				t.Errorf("%s:%d: the link %s names no heading of %s", name, line, target, filepath.Base(dest))
			}
		}
	}
	if links < 30 {
		t.Errorf("only %d relative links found: is the link pattern still right?", links)
	}
}

// TestHeadingAnchors: anchors are made as GitHub makes them.
func TestHeadingAnchors(t *testing.T) {
	text := "# Control plane (`/_sandbox/`)\n## `sandbox up`\n```sh\n# not a heading\n```\n## Paging, filters, include, language\n## The whole surface: 328 endpoints\n## A [link](x.md) here\n## Limits\n## Limits\n"
	var got []string
	for _, h := range headings(text) {
		got = append(got, h.anchor)
	}
	want := "control-plane-_sandbox sandbox-up paging-filters-include-language the-whole-surface-328-endpoints a-link-here limits limits-1"
	if strings.Join(got, " ") != want {
		t.Fatalf("anchors %q, want %q", strings.Join(got, " "), want)
	}
}

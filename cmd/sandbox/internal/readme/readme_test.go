// The README's shell blocks are its promises, and so are those of the
// reference pages in docs/: this test runs every one of them, the
// README's first, then each page's in the order the README's Contents
// lists them, in one bash session, against a sandbox built from this
// tree, so neither the README nor docs/ can rot.
//
// Rules for README.md and docs/*.md (the tests enforce them):
//   - Every ```sh (or bash, shell) block runs as written, top to bottom,
//     with `set -euo pipefail`: a failing command, an unset variable, a
//     placeholder such as <code> (bash reads it as a redirection) or a
//     failed `| jq` stops the test with the file and line.
//   - A block that cannot run in sequence (a server that runs until
//     stopped, `make test` itself, an interactive UI, a download from the
//     internet) is preceded, on the line right before its fence, by
//     `<!-- shown, not run: <reason> -->`. Use it sparingly.
//   - Every page in docs/ is linked from the README's Contents, which
//     fixes the order its blocks run in; a page that is not, or a run
//     block the session never reached, fails the test. A page whose blocks
//     use the README's shell variables ($B, $T, ...) opens with a block
//     that sets them as the README does, so a reader can run the page
//     alone after the README's set-up; TestDocsPagesRunAlone does that.
//   - Blocks call the sandbox at http://127.0.0.1:8080 (what `make up`
//     serves); the test starts its own on a free port and puts that
//     address in the blocks' text and in SANDBOX_URL (and SANDBOX_ADDR)
//     for the `sandbox` commands, which is the only change made to them.
//     A block that depends on earlier writes starts with
//     POST /_sandbox/reset.
//   - Every call the blocks make reaches a route (no 404 for an unknown
//     path) and none answers 5xx; every webhook sent to a built-in inbox
//     is delivered; every /_sandbox/ path the README or a page names is
//     served, and the control-plane page names every control route.
package readme

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/cmd/sandbox/internal/built"
)

// sandboxAddr is the address the README's blocks are written for.
const sandboxAddr = "127.0.0.1:8080"

// controlPlaneDoc is the page whose table names every control route.
const controlPlaneDoc = "docs/control-plane.md"

// notRun marks a block that is shown but not run; a reason is required.
var notRun = regexp.MustCompile(`^<!-- shown, not run: \S.* -->$`)

// block is one fenced code block of a file.
type block struct {
	lang  string
	first int // line of the first line inside the fence (1-based)
	lines []string
	run   bool
}

// doc is one file whose blocks run: README.md or a page of docs/, by its
// path from the repository's root.
type doc struct {
	name   string
	text   string
	blocks []block
}

// lineCount is the number of lines of a text file.
func lineCount(text string) int { return len(strings.Split(text, "\n")) }

// readmeBlocks splits a file into fenced blocks and says which shell
// blocks run. A shell block that neither runs nor is marked cannot exist:
// every shell block without the marker runs. name is the file's, for the
// errors.
func readmeBlocks(name, text string) ([]block, error) {
	lines := strings.Split(text, "\n")
	var out []block
	for i := 0; i < len(lines); i++ {
		fence, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		b := block{lang: strings.TrimSpace(fence), first: i + 2}
		prev := ""
		for j := i - 1; j >= 0; j-- {
			if strings.TrimSpace(lines[j]) != "" {
				prev = strings.TrimSpace(lines[j])
				break
			}
		}
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(lines[j], "```"); j++ {
			b.lines = append(b.lines, lines[j])
		}
		if j == len(lines) {
			return nil, fmt.Errorf("%s:%d: the block never closes", name, i+1)
		}
		switch b.lang {
		case "sh", "bash", "shell":
			b.run = !notRun.MatchString(prev)
			if b.run && strings.Contains(prev, "shown, not run") {
				return nil, fmt.Errorf("%s:%d: the marker must read <!-- shown, not run: <reason> -->", name, i)
			}
		case "console", "zsh":
			return nil, fmt.Errorf("%s:%d: tag shell blocks sh (a console transcript cannot be run)", name, i+1)
		default:
			if strings.HasPrefix(prev, "<!-- shown, not run") {
				return nil, fmt.Errorf("%s:%d: the not-run marker stands before a %q block, which is never run anyway", name, i, b.lang)
			}
		}
		out = append(out, b)
		i = j
	}
	return out, nil
}

// script lays the blocks of one file that run into a bash script whose
// line numbers are the file's, so an error names the file's line. The
// line of each block's closing fence appends "name:first" to the file
// $SANDBOX_DOCS_RAN, so the test knows every block was reached (a
// `return` or `exit 0` in a block would end the session quietly).
func script(name string, blocks []block, total int, base string) string {
	lines := make([]string, total)
	addr := strings.TrimPrefix(base, "http://")
	for _, b := range blocks {
		if !b.run {
			continue
		}
		for k, l := range b.lines {
			lines[b.first-1+k] = strings.ReplaceAll(l, sandboxAddr, addr)
		}
		lines[b.first-1+len(b.lines)] = fmt.Sprintf(`echo '%s:%d' >> "$SANDBOX_DOCS_RAN"`, name, b.first)
	}
	return strings.Join(lines, "\n") + "\n"
}

// driver is the session: strict bash, an error trap that names the file
// and line, then each file's script sourced in order (bash's own messages
// name the script, whose lines are the file's).
func driver(dir string, names []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "set -euo pipefail; trap 'echo \"${BASH_SOURCE[0]#%s/}:$LINENO: exit status $?\" >&2' ERR\n", dir)
	for _, n := range names {
		fmt.Fprintf(&b, "source '%s'\n", filepath.Join(dir, filepath.FromSlash(n)))
	}
	return b.String()
}

// contentsLinks are the pages of docs/ the README's Contents section
// links, in its order (each once): the order their blocks run in.
func contentsLinks(readme string) ([]string, error) {
	_, section, ok := strings.Cut(readme, "\n## Contents\n")
	if !ok {
		return nil, fmt.Errorf("README.md has no ## Contents section")
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var out []string
	for _, m := range regexp.MustCompile(`\]\((docs/[^)#\s]+\.md)(?:#[^)]*)?\)`).FindAllStringSubmatch(section, -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out, nil
}

// readDocs reads README.md and every page of docs/ in the order their
// blocks run, and checks that every page is in that order and that a page
// using the README's shell variables sets them first.
func readDocs(root string) ([]doc, error) {
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		return nil, err
	}
	readme := string(raw)
	order, err := contentsLinks(readme)
	if err != nil {
		return nil, err
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, p := range pages {
		name := "docs/" + filepath.Base(p)
		if !slices.Contains(order, name) {
			errs = append(errs, name+" is not linked from the README's Contents, so its blocks would never run: link it there (the order there is the order they run in)")
		}
	}
	docs := []doc{{name: "README.md", text: readme}}
	for _, name := range order {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			errs = append(errs, fmt.Sprintf("the README's Contents links %s: %v", name, err))
			continue
		}
		docs = append(docs, doc{name: name, text: string(raw)})
	}
	for i := range docs {
		d := &docs[i]
		if d.blocks, err = readmeBlocks(d.name, d.text); err != nil {
			errs = append(errs, err.Error())
		}
	}
	vars, err := readmeVariables(docs[0].blocks)
	if err != nil {
		errs = append(errs, err.Error())
	} else {
		for _, d := range docs[1:] {
			if err := opensWithVariables(d, vars); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return docs, nil
}

// readmeVariables is the README's block that sets the examples' shell
// variables (it starts with B=http://127.0.0.1:8080).
func readmeVariables(blocks []block) (block, error) {
	for _, b := range blocks {
		if b.run && len(b.lines) > 0 && b.lines[0] == "B=http://"+sandboxAddr {
			return b, nil
		}
	}
	return block{}, fmt.Errorf("README.md has no block that starts B=http://%s (the examples' shell variables)", sandboxAddr)
}

// opensWithVariables: a page whose blocks use one of the README's shell
// variables opens (its first block that runs) with the README's block
// that sets them, word for word, so a reader can run the page alone.
func opensWithVariables(d doc, vars block) error {
	var names []string
	for _, l := range vars.lines {
		if n, _, ok := strings.Cut(l, "="); ok && regexp.MustCompile(`^[A-Z]+$`).MatchString(n) {
			names = append(names, n)
		}
	}
	use := regexp.MustCompile(`\$\{?(` + strings.Join(names, "|") + `)\b`)
	var first *block
	uses := false
	for i, b := range d.blocks {
		if !b.run {
			continue
		}
		if first == nil {
			first = &d.blocks[i]
		}
		uses = uses || use.MatchString(strings.Join(b.lines, "\n"))
	}
	if !uses {
		return nil
	}
	want := strings.Join(vars.lines, "\n") + "\n"
	if !strings.HasPrefix(strings.Join(first.lines, "\n")+"\n", want) {
		return fmt.Errorf("%s:%d: the page uses the README's shell variables, so its first block must start with the README's block that sets them (README.md:%d), word for word", d.name, first.first, vars.first)
	}
	return nil
}

func TestREADMEBlocksRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's and docs' blocks take a few minutes")
	}
	for _, tool := range []string{"bash", "curl", "jq", "timeout", "python3"} { // python3: the add-on of "Your own add-on"
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's blocks need %s on the PATH (CI installs it in .ci/run): %v", tool, err)
		}
	}
	root := built.RepoRoot(t)
	docs, err := readDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs[:1] {
		runs := 0
		for _, b := range d.blocks {
			if b.run {
				runs++
			}
		}
		if runs < 10 {
			t.Fatalf("only %d shell blocks of %s run", runs, d.name)
		}
	}

	bin := t.TempDir() // the sandbox program, first on the blocks' PATH
	built.Build(t, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	base, out, ran, err := session(t, ctx, bin, root, docs)
	if err != nil {
		t.Fatalf("the blocks failed (line numbers in bash's messages are those of the file named): %v\n%s", err, tail(out, 60))
	}
	if testing.Verbose() {
		t.Log(out)
	}
	for _, e := range unreached(docs, ran) {
		t.Error(e)
	}
	checkTraffic(t, base)
	checkInboxDeliveries(t, base)
	var all strings.Builder
	control := ""
	for _, d := range docs {
		all.WriteString(d.text)
		if d.name == controlPlaneDoc {
			control = d.text
		}
	}
	checkControlPaths(t, base, all.String(), control)
}

// session copies the tree into a throw-away folder, starts the sandbox
// program in bin on a free port there, and runs the blocks of files, in
// order, in one bash session in that folder. It returns the sandbox's
// base URL, the session's output, the path of the file the blocks record
// that they ran in, and the session's error.
func session(t *testing.T, ctx context.Context, bin, root string, files []doc) (base, output, ran string, err error) {
	t.Helper()
	tmp := t.TempDir()
	work := filepath.Join(tmp, "repo")
	scripts := filepath.Join(tmp, "scripts")
	for _, d := range []string{filepath.Join(tmp, "tmp"), filepath.Join(scripts, "docs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyTree(root, work); err != nil {
		t.Fatal(err)
	}
	base = built.Up(t, ctx, filepath.Join(bin, "sandbox"), work, nil)
	var names []string
	for _, d := range files {
		path := filepath.Join(scripts, filepath.FromSlash(d.name))
		if err := os.WriteFile(path, []byte(script(d.name, d.blocks, lineCount(d.text), base)), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, d.name)
	}
	sh := filepath.Join(tmp, "session.sh")
	if err := os.WriteFile(sh, []byte(driver(scripts, names)), 0o644); err != nil {
		t.Fatal(err)
	}
	ran = filepath.Join(tmp, "ran")
	cmd := exec.CommandContext(ctx, "bash", sh)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SANDBOX_URL="+base, "SANDBOX_ADDR="+base, "TMPDIR="+filepath.Join(tmp, "tmp"), "NO_COLOR=1",
		"SANDBOX_DOCS_RAN="+ran)
	built.OwnGroup(cmd) // background jobs a block starts end with the group
	cmd.Cancel = func() error { return built.KillGroup(cmd) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if cmd.Process != nil {
		_ = built.KillGroup(cmd)
	}
	return base, out.String(), ran, err
}

// TestDocsPagesRunAlone: each page of docs/ whose blocks run is run as a
// reader opening it would: on a fresh copy of the tree and a fresh
// sandbox, in a fresh shell that ran only the README's Set-up, so a page
// cannot lean on a variable, file or write an earlier page left behind.
func TestDocsPagesRunAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: each page runs on a sandbox of its own")
	}
	root := built.RepoRoot(t)
	docs, err := readDocs(root)
	if err != nil {
		t.Fatal(err)
	}
	readme := docs[0]
	before, _, ok := strings.Cut(readme.text, "\n## Commands\n")
	if !ok {
		t.Fatal("README.md has no ## Commands section after its Set-up")
	}
	setup := doc{name: readme.name, text: readme.text}
	for _, b := range readme.blocks {
		if b.first < lineCount(before) {
			setup.blocks = append(setup.blocks, b)
		}
	}
	bin := t.TempDir() // the sandbox program, first on the blocks' PATH
	built.Build(t, bin)
	pages := 0
	for _, d := range docs[1:] {
		if !slices.ContainsFunc(d.blocks, func(b block) bool { return b.run }) {
			continue
		}
		pages++
		t.Run(strings.TrimSuffix(filepath.Base(d.name), ".md"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			_, out, ran, err := session(t, ctx, bin, root, []doc{setup, d})
			if err != nil {
				t.Fatalf("%s does not run alone after the README's Set-up: %v\n%s", d.name, err, tail(out, 40))
			}
			for _, e := range unreached([]doc{setup, d}, ran) {
				t.Error(e)
			}
		})
	}
	if pages < 3 {
		t.Errorf("only %d pages of docs/ have blocks that run", pages)
	}
}

// unreached names every block that runs but did not record, in the file
// ran, that it was run to its end.
func unreached(docs []doc, ran string) []string {
	raw, err := os.ReadFile(ran)
	if err != nil {
		return []string{fmt.Sprintf("no block recorded that it ran: %v", err)}
	}
	done := map[string]bool{}
	for _, l := range strings.Split(string(raw), "\n") {
		done[l] = true
	}
	var out []string
	for _, d := range docs {
		for _, b := range d.blocks {
			if b.run && !done[fmt.Sprintf("%s:%d", d.name, b.first)] {
				out = append(out, fmt.Sprintf("%s:%d: the block was never run to its end (an exit or return before it?)", d.name, b.first))
			}
		}
	}
	return out
}

// getData fetches a control-plane answer's data.
func getData(t *testing.T, url string, v any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct{ Data json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// checkTraffic: every call the blocks made reached a route, and none
// answered 500 internal-error (a sandbox bug; 503 maintenance is an
// example).
func checkTraffic(t *testing.T, base string) {
	var tr struct {
		Events []struct {
			Call *struct {
				Method, Path, Operation string
				Status                  int
				ResponseBody            []byte
			}
		}
	}
	getData(t, base+"/_sandbox/traffic?limit=100000", &tr)
	calls := 0
	for _, ev := range tr.Events {
		c := ev.Call
		if c == nil {
			continue
		}
		calls++
		if c.Operation == "" {
			t.Errorf("a README call reached no route: %s %s (%d)", c.Method, c.Path, c.Status)
		}
		if c.Status == 500 || errorCode(c.ResponseBody) == "internal-error" {
			t.Errorf("a README call failed inside the sandbox: %s %s (%d)", c.Method, c.Path, c.Status)
		}
	}
	if calls < 50 {
		t.Errorf("the sandbox recorded only %d calls", calls)
	}
}

// errorCode is the first errorCode of an answer's envelope ("" for none),
// so that an answer that merely names a fault called internal-error (GET
// /_sandbox/faults) is not taken for one.
func errorCode(body []byte) string {
	var env struct {
		Errors []struct {
			ErrorCode string `json:"errorCode"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &env) != nil || len(env.Errors) == 0 {
		return ""
	}
	return env.Errors[0].ErrorCode
}

// checkInboxDeliveries: every attempt to deliver to a built-in inbox
// succeeded (the README's webhook examples need no server of their own).
// The traffic history keeps attempts across the blocks' resets.
func checkInboxDeliveries(t *testing.T, base string) {
	var tr struct {
		Events []struct {
			Type     string
			Delivery *struct {
				URL, Event, Error string
				Status            int
				Succeeded         bool
			}
		}
	}
	getData(t, base+"/_sandbox/traffic?limit=100000", &tr)
	inbox := 0
	for _, ev := range tr.Events {
		d := ev.Delivery
		if d == nil || ev.Type != "delivery" || !strings.Contains(d.URL, "/_sandbox/inbox/") { // attempts, not queued notifications
			continue
		}
		inbox++
		if !d.Succeeded {
			t.Errorf("%s to %s: %d %s", d.Event, d.URL, d.Status, d.Error)
		}
	}
	if inbox < 3 {
		t.Errorf("the README's examples delivered %d webhooks to an inbox", inbox)
	}
}

var sandboxPath = regexp.MustCompile("/_sandbox(?:/[A-Za-z0-9._{}<>-]*)*")

// checkControlPaths: every /_sandbox/ path the README and the pages name
// (text) is a control route (placeholders such as <name> or {id} stand
// for a segment), and the control-plane page (control) names every
// control route.
func checkControlPaths(t *testing.T, base, text, control string) {
	var ix struct {
		Routes []struct{ Method, Path string }
	}
	getData(t, base+"/_sandbox/", &ix)
	matches := func(route, path string) bool {
		rs, ps := strings.Split(strings.Trim(route, "/"), "/"), strings.Split(strings.Trim(path, "/"), "/")
		if len(rs) != len(ps) {
			return false
		}
		for i := range rs {
			if rs[i] != ps[i] && !strings.HasPrefix(rs[i], "{") {
				return false
			}
		}
		return true
	}
	for _, p := range sandboxPath.FindAllString(text, -1) {
		p = strings.TrimRight(p, ".-")
		if p == "/_sandbox" || p == "/_sandbox/" {
			continue
		}
		ok := false
		for _, r := range ix.Routes {
			if matches(r.Path, p) {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("the README or a page of docs/ names %s, which no control route serves", p)
		}
	}
	if control == "" {
		t.Fatalf("%s, the page that lists the control routes, is not among the pages the README's Contents links", controlPlaneDoc)
	}
	for _, r := range ix.Routes {
		if !strings.Contains(control, "`"+r.Method+" "+r.Path+"`") && !strings.Contains(control, " "+r.Path+"`") {
			t.Errorf("%s does not name %s %s", controlPlaneDoc, r.Method, r.Path)
		}
	}
}

// copyTree copies the working tree (not .git or bin) so the blocks' files
// (invoice.pdf, calls.har, ...) land in a throw-away folder.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (rel == ".git" || rel == "bin") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... %d lines before", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// TestReadmeBlocksParse: unmarked shell blocks run, marked ones do not,
// and a mistyped marker, an unclosed fence or a console block is an error
// rather than a block that silently does not run; a block that runs
// records, on its closing fence's line, that it ran.
func TestReadmeBlocksParse(t *testing.T) {
	good := "# t\n\n```sh\necho 1\n```\n\n<!-- shown, not run: serves forever -->\n```sh\nsandbox up\n```\n\n```yaml\na: 1\n```\n\n```\noutput\n```\n"
	blocks, err := readmeBlocks("docs/x.md", good)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%s:%d:%v", b.lang, b.first, b.run))
	}
	if want := "sh:4:true sh:9:false yaml:13:false :17:false"; strings.Join(got, " ") != want {
		t.Fatalf("blocks %v, want %s", got, want)
	}
	s := strings.Split(script("docs/x.md", blocks, lineCount(good), "http://127.0.0.1:4242"), "\n")
	if len(s) != lineCount(good)+1 || s[3] != "echo 1" || s[4] != `echo 'docs/x.md:4' >> "$SANDBOX_DOCS_RAN"` || strings.Contains(strings.Join(s, "\n"), "sandbox up") {
		t.Fatalf("script:\n%s", strings.Join(s, "\n"))
	}
	for name, bad := range map[string]string{
		"marker without reason": "<!-- shown, not run -->\n```sh\nx\n```\n",
		"unclosed":              "```sh\nx\n",
		"console":               "```console\n$ x\n```\n",
		"marker on yaml":        "<!-- shown, not run: no -->\n```yaml\nx\n```\n",
	} {
		if _, err := readmeBlocks("docs/x.md", bad); err == nil || !strings.HasPrefix(err.Error(), "docs/x.md:") {
			t.Errorf("%s: error %v, want one naming docs/x.md", name, err)
		}
	}
}

// TestSessionRunsEveryFile: the session sources README.md, then each page,
// in the order given; a failing line is reported with its file and line,
// and a block that returns early is caught as not reached.
func TestSessionRunsEveryFile(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tmp := t.TempDir()
	scripts := filepath.Join(tmp, "scripts")
	if err := os.MkdirAll(filepath.Join(scripts, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := []doc{
		{name: "README.md", text: "# r\n\n```sh\nV=from-readme\necho \"readme $V\"\n```\n"},
		{name: "docs/a.md", text: "# a\n\n```sh\necho \"a sees $V\"\n```\n\n```sh\nreturn 0\n```\n\n```sh\necho never\n```\n"},
		{name: "docs/b.md", text: "# b\n\n```sh\necho b\n```\n\n```sh\nfalse\n```\n"},
	}
	var names []string
	for i := range files {
		d := &files[i]
		var err error
		if d.blocks, err = readmeBlocks(d.name, d.text); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(scripts, filepath.FromSlash(d.name)), []byte(script(d.name, d.blocks, lineCount(d.text), "")), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, d.name)
	}
	run := func(names []string) (string, string, error) {
		ran := filepath.Join(tmp, "ran")
		_ = os.Remove(ran)
		sh := filepath.Join(tmp, "session.sh")
		if err := os.WriteFile(sh, []byte(driver(scripts, names)), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", sh)
		cmd.Env = append(os.Environ(), "SANDBOX_DOCS_RAN="+ran)
		out, err := cmd.CombinedOutput()
		r, _ := os.ReadFile(ran)
		return string(out), string(r), err
	}
	out, ran, err := run(names)
	if err == nil || !strings.Contains(out, "docs/b.md:8: exit status 1") {
		t.Fatalf("the failing line of docs/b.md is not named: %v\n%s", err, out)
	}
	if !strings.Contains(out, "readme from-readme\na sees from-readme\nb\n") || strings.Contains(out, "never") {
		t.Fatalf("the files did not run in order, in one shell:\n%s", out)
	}
	if want := "README.md:4\ndocs/a.md:4\ndocs/b.md:4\n"; ran != want {
		t.Fatalf("recorded %q, want %q (docs/a.md's return ends that file early)", ran, want)
	}
	var got []string
	for _, e := range unreached(files, filepath.Join(tmp, "ran")) {
		got = append(got, strings.SplitN(e, ":", 3)[0]+":"+strings.SplitN(e, ":", 3)[1])
	}
	if want := "docs/a.md:8 docs/a.md:12 docs/b.md:8"; strings.Join(got, " ") != want {
		t.Fatalf("unreached blocks %v, want %s", got, want)
	}
}

// The README's shell blocks are its promises: this test runs every one of
// them, in order, in one bash session, against a sandbox built from this
// tree, so the README cannot rot.
//
// Rules for README.md (the test enforces them):
//   - Every ```sh (or bash, shell) block runs as written, top to bottom,
//     with `set -euo pipefail`: a failing command, an unset variable, a
//     placeholder such as <code> (bash reads it as a redirection) or a
//     failed `| jq` stops the test with the README line.
//   - A block that cannot run in sequence (a server that runs until
//     stopped, `make test` itself, an interactive UI, a download from the
//     internet) is preceded, on the line right before its fence, by
//     `<!-- shown, not run: <reason> -->`. Use it sparingly.
//   - Blocks call the sandbox at http://127.0.0.1:8080 (what `make up`
//     serves); the test starts its own on a free port and puts that
//     address in the blocks' text and in SANDBOX_URL (and SANDBOX_ADDR)
//     for the `sandbox` commands, which is the only change made to them.
//     A block that depends on earlier writes starts with
//     POST /_sandbox/reset.
//   - Every call the blocks make reaches a route (no 404 for an unknown
//     path) and none answers 5xx; every webhook sent to a built-in inbox
//     is delivered; every /_sandbox/ path the README names is served, and
//     the control-plane section names every control route.
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
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/cmd/sandbox/internal/built"
)

// sandboxAddr is the address the README's blocks are written for.
const sandboxAddr = "127.0.0.1:8080"

// notRun marks a block that is shown but not run; a reason is required.
var notRun = regexp.MustCompile(`^<!-- shown, not run: \S.* -->$`)

// block is one fenced code block of the README.
type block struct {
	lang  string
	first int // README line of the first line inside the fence (1-based)
	lines []string
	run   bool
}

// readmeBlocks splits the README into fenced blocks and says which shell
// blocks run. A shell block that neither runs nor is marked cannot exist:
// every shell block without the marker runs.
func readmeBlocks(text string) ([]block, error) {
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
			return nil, fmt.Errorf("README.md:%d: the block never closes", i+1)
		}
		switch b.lang {
		case "sh", "bash", "shell":
			b.run = !notRun.MatchString(prev)
			if b.run && strings.Contains(prev, "shown, not run") {
				return nil, fmt.Errorf("README.md:%d: the marker must read <!-- shown, not run: <reason> -->", i)
			}
		case "console", "zsh":
			return nil, fmt.Errorf("README.md:%d: tag shell blocks sh (a console transcript cannot be run)", i+1)
		default:
			if strings.HasPrefix(prev, "<!-- shown, not run") {
				return nil, fmt.Errorf("README.md:%d: the not-run marker stands before a %q block, which is never run anyway", i, b.lang)
			}
		}
		out = append(out, b)
		i = j
	}
	return out, nil
}

// script lays the blocks that run into one bash script whose line numbers
// are the README's, so an error names the README line.
func script(blocks []block, total int, base string) string {
	lines := make([]string, total)
	lines[0] = `set -euo pipefail; trap 'echo "README.md:$LINENO: exit status $?" >&2' ERR`
	addr := strings.TrimPrefix(base, "http://")
	for _, b := range blocks {
		if !b.run {
			continue
		}
		for k, l := range b.lines {
			lines[b.first-1+k] = strings.ReplaceAll(l, sandboxAddr, addr)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestREADMEBlocksRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README blocks take about a minute")
	}
	for _, tool := range []string{"bash", "curl", "jq", "timeout", "python3"} { // python3: the add-on of "Your own add-on"
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README's blocks need %s on the PATH (CI installs it in .ci/run): %v", tool, err)
		}
	}
	root := built.RepoRoot(t)
	raw, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	blocks, err := readmeBlocks(text)
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, b := range blocks {
		if b.run {
			runs++
		}
	}
	if runs < 10 {
		t.Fatalf("only %d shell blocks run", runs)
	}

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	work := filepath.Join(tmp, "repo")
	for _, d := range []string{bin, filepath.Join(tmp, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	built.Build(t, bin)
	if err := copyTree(root, work); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	base := built.Up(t, ctx, filepath.Join(bin, "sandbox"), work, nil)

	sh := filepath.Join(tmp, "readme.sh")
	if err := os.WriteFile(sh, []byte(script(blocks, len(strings.Split(text, "\n")), base)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "bash", sh)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SANDBOX_URL="+base, "SANDBOX_ADDR="+base, "TMPDIR="+filepath.Join(tmp, "tmp"), "NO_COLOR=1")
	built.OwnGroup(cmd) // background jobs a block starts end with the group
	cmd.Cancel = func() error { return built.KillGroup(cmd) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if cmd.Process != nil {
		_ = built.KillGroup(cmd)
	}
	if err != nil {
		t.Fatalf("the README's blocks failed (line numbers in bash's messages are README.md's): %v\n%s", err, tail(out.String(), 60))
	}
	if testing.Verbose() {
		t.Log(out.String())
	}
	checkTraffic(t, base)
	checkInboxDeliveries(t, base)
	checkControlPaths(t, base, text)
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

// checkControlPaths: every /_sandbox/ path the README names is a control
// route (placeholders such as <name> or {id} stand for a segment), and
// the control-plane section names every control route.
func checkControlPaths(t *testing.T, base, text string) {
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
			t.Errorf("the README names %s, which no control route serves", p)
		}
	}
	start := strings.Index(text, "### Control plane")
	if start < 0 {
		t.Fatal("the README has no ### Control plane section")
	}
	section := text[start:]
	if end := strings.Index(section[4:], "\n#"); end >= 0 {
		section = section[:end+4]
	}
	for _, r := range ix.Routes {
		if !strings.Contains(section, "`"+r.Method+" "+r.Path+"`") && !strings.Contains(section, " "+r.Path+"`") {
			t.Errorf("the control-plane section does not name %s %s", r.Method, r.Path)
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
// rather than a block that silently does not run.
func TestReadmeBlocksParse(t *testing.T) {
	good := "# t\n\n```sh\necho 1\n```\n\n<!-- shown, not run: serves forever -->\n```sh\nsandbox up\n```\n\n```yaml\na: 1\n```\n\n```\noutput\n```\n"
	blocks, err := readmeBlocks(good)
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
	if s := script(blocks, len(strings.Split(good, "\n")), "http://127.0.0.1:4242"); strings.Split(s, "\n")[3] != "echo 1" || strings.Contains(s, "sandbox up") {
		t.Fatalf("script:\n%s", s)
	}
	for name, bad := range map[string]string{
		"marker without reason": "<!-- shown, not run -->\n```sh\nx\n```\n",
		"unclosed":              "```sh\nx\n",
		"console":               "```console\n$ x\n```\n",
		"marker on yaml":        "<!-- shown, not run: no -->\n```yaml\nx\n```\n",
	} {
		if _, err := readmeBlocks(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

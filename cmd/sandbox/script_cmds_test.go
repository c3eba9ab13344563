package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
)

var (
	goEnvOnce sync.Once
	goEnvVars map[string]string
	goEnvErr  error
)

// goEnv gives a script what `go install` / `make install` need in a
// temporary $HOME without reaching the internet: this module's root
// ($MODROOT), the build and module caches and GOFLAGS of the test's own
// go (with -buildvcs=false), the go command's folder ($GOROOTBIN), and
// GOPROXY=off.
func goEnv(env *testscript.Env) error {
	goEnvOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			goEnvErr = fmt.Errorf("the go command is not on PATH: %w", err)
			return
		}
		out, err := exec.Command(goBin, "env", "GOCACHE", "GOMODCACHE", "GOMOD", "GOFLAGS").Output()
		if err != nil {
			goEnvErr = fmt.Errorf("go env: %w", err)
			return
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) != 4 {
			goEnvErr = fmt.Errorf("go env printed %q", out)
			return
		}
		flags := lines[3]
		if !strings.Contains(flags, "-buildvcs") {
			// git reads its settings (safe.directory) from the real $HOME,
			// which the script replaces; the version comes from VERSION.
			flags = strings.TrimSpace(flags + " -buildvcs=false")
		}
		goEnvVars = map[string]string{
			"GOCACHE": lines[0], "GOMODCACHE": lines[1], "MODROOT": filepath.Dir(lines[2]),
			"GOROOTBIN": filepath.Dir(goBin), "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOFLAGS": flags,
		}
	})
	for k, v := range goEnvVars {
		env.Setenv(k, v)
	}
	return goEnvErr
}

// findsandbox [N]: waits up to 10 s until exactly N (default 1) sandboxes
// recorded where sandbox up records them ($XDG_STATE_HOME, else the cache
// folder under $HOME) answer their health check, and sets $URL to the
// newest one's URL. `! findsandbox` checks that no record is left.
func findSandbox(ts *testscript.TestScript, neg bool, args []string) {
	state := ts.Getenv("XDG_STATE_HOME")
	if state == "" {
		if state = ts.Getenv("XDG_CACHE_HOME"); state == "" {
			state = filepath.Join(ts.Getenv("HOME"), ".cache")
		}
	}
	dir := filepath.Join(state, "eshop-sandbox", "running")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if neg {
		if len(files) > 0 {
			ts.Fatalf("records are left: %v", files)
		}
		return
	}
	want := 1
	if len(args) == 1 {
		n, err := strconv.Atoi(args[0])
		ts.Check(err)
		want = n
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		files, _ = filepath.Glob(filepath.Join(dir, "*.json"))
		var live []discover.Entry
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			var e discover.Entry
			if json.Unmarshal(raw, &e) == nil && discover.Healthy(context.Background(), e.URL) {
				live = append(live, e)
			}
		}
		if len(live) == want {
			if want > 0 {
				sort.Slice(live, func(i, j int) bool { return live[i].Started.Before(live[j].Started) })
				ts.Setenv("URL", live[len(live)-1].URL)
			}
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%d running sandboxes recorded in %s after 10s, want %d (files %v)", len(live), dir, want, files)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitbody URL REGEXP: waits up to 10 s for GET URL to answer a body that
// matches REGEXP.
func waitBody(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: waitbody URL REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(10 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		if resp, err := http.Get(args[0]); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			last = string(body)
			if re.MatchString(last) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Fatalf("%s did not answer %s after 10s; last body: %s", args[0], args[1], last)
}

// httpdo METHOD URL [JSON]: sends a request (Content-Type:
// application/json, as the control plane requires of writes) and prints
// "status N" and the body; fails on a status of 400 or more unless negated.
func httpDo(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: httpdo METHOD URL [JSON]")
	}
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(args[2])
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	req.Header.Set("Content-Type", "application/json")
	printResponse(ts, neg, req)
}

// printResponse sends req, prints "status N" and the body, and fails on a
// status of 400 or more unless negated (then on one below 400).
func printResponse(ts *testscript.TestScript, neg bool, req *http.Request) {
	resp, err := http.DefaultClient.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "status %d\n%s\n", resp.StatusCode, raw)
	if neg == (resp.StatusCode < 400) {
		ts.Fatalf("unexpected status %d", resp.StatusCode)
	}
}

// cutfile FILE N: cuts FILE to its first N bytes, or without its last -N
// bytes when N is negative (a data file torn by a crash, a cut copy).
func cutFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cutfile FILE N")
	}
	path := ts.MkAbs(args[0])
	n, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	fi, err := os.Stat(path)
	ts.Check(err)
	if n < 0 {
		n += fi.Size()
	}
	if n < 0 || n > fi.Size() {
		ts.Fatalf("cannot cut %s (%d bytes) to %d bytes", args[0], fi.Size(), n)
	}
	ts.Check(os.Truncate(path, n))
}

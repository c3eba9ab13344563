package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// These tests run the real binary in a real terminal (tmux), as a person
// would, and read the screen back with capture-pane.

// TestTerminalUI builds the sandbox binary once and runs both ways of
// using the terminal UI: `sandbox up` in a terminal, and `sandbox tui`
// attached to a headless sandbox.
func TestTerminalUI(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux is required by the terminal UI tests and was not found on PATH (install it: apt-get install tmux): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "sandbox")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Run("up opens the UI and shows calls", func(t *testing.T) { testUpInTmux(t, tmux, bin) })
	t.Run("tui attaches to a running sandbox", func(t *testing.T) { testAttachInTmux(t, tmux, bin) })
}

func testUpInTmux(t *testing.T, tmux, bin string) {
	addr := tuiFreeAddr(t)
	base := "http://" + addr
	term := startTmux(t, tmux, 80, 24, bin, "up", "--addr", addr)
	tuiWaitHealthy(t, base)
	term.waitFor("sandbox "+base+" · e-shops 1001 1002", "the title bar")

	token := tuiToken(t, base)
	sent := []string{
		tuiGet(t, base+"/api/eshop?include=orderStatuses", token),
		tuiGet(t, base+"/api/orders?page=1", token),
		tuiGet(t, base+"/api/nowhere", ""),
	}
	screen := term.waitFor("/api/nowhere", "the last call")
	for _, want := range []string{"/api/eshop?include=orderStatuses", "/api/orders?page=1", "1001  private GET", " 404 ", "errors 1  deliveries 0"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the screen lacks %q:\n%s", want, screen)
		}
	}
	term.run("resize-window", "-t", "main", "-x", "120", "-y", "40")
	term.waitFor("FAULT", "the wider layout after resizing to 120x40")
	term.run("resize-window", "-t", "main", "-x", "80", "-y", "24")
	term.waitUntil(func(s string) bool { return !strings.Contains(s, "FAULT") && strings.Contains(s, "/api/nowhere") },
		"the 80x24 layout again (no fault column)")
	term.keys("Enter") // detail of the selected (newest) call
	screen = term.waitFor("request id "+sent[2], "the detail pane of the last call")
	if !strings.Contains(screen, "404 Not Found") || !strings.Contains(screen, "Date: ") {
		t.Fatalf("detail pane:\n%s", screen)
	}
	term.keys("Down", "Down", "Down") // the last response headers are below the fold at 24 rows
	term.waitFor("X-Request-ID: "+sent[2], "the answer's request id header in the detail pane")
	term.keys("Escape")
	term.waitFor("? help", "the list again")
	term.keys("q")
	screen = term.waitDead()
	if !strings.Contains(screen, "stopped") {
		t.Fatalf("no clean shutdown after q:\n%s", screen)
	}
}

func testAttachInTmux(t *testing.T, tmux, bin string) {
	addr := tuiFreeAddr(t)
	base := "http://" + addr
	var out bytes.Buffer
	up := exec.Command(bin, "up", "--headless", "--addr", addr)
	up.Stdout, up.Stderr = &out, &out
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = up.Process.Signal(syscall.SIGTERM)
		_ = up.Wait()
	})
	tuiWaitHealthy(t, base)
	token := tuiToken(t, base)
	tuiGet(t, base+"/api/orders?page=2", token) // before attaching: comes from the history

	term := startTmux(t, tmux, 120, 40, bin, "tui", "--url", base)
	screen := term.waitFor("/api/orders?page=2", "the call made before attaching")
	if !strings.Contains(screen, "sandbox "+base) {
		t.Fatalf("title:\n%s", screen)
	}
	tuiGet(t, base+"/api/eshop?language=en", token)
	term.waitFor("/api/eshop?language=en", "a call made after attaching")

	term.keys("M") // maintenance on, through the control plane
	term.waitFor("MAINTENANCE", "the maintenance marker")
	code := tuiStatus(t, base+"/api/eshop", token)
	if code != http.StatusServiceUnavailable {
		t.Fatalf("maintenance on, but the API answered %d", code)
	}
	term.waitFor("POST   /_sandbox/maintenance", "the toggle's own call")
	term.keys("M")
	term.waitFor("maintenance mode off", "maintenance off")
	if code := tuiStatus(t, base+"/api/eshop", token); code != http.StatusOK {
		t.Fatalf("maintenance off, but the API answered %d", code)
	}

	term.keys("/")
	for _, r := range "language" {
		term.keys(string(r))
	}
	term.keys("Enter")
	term.waitFor("Calls 1/", "the filtered list")
	term.keys("Y") // print the selected call as curl on exit
	term.waitFor("printed on exit", "the confirmation")
	term.keys("q")
	screen = term.waitDead()
	if !strings.Contains(screen, "curl 'http://"+addr+"/api/eshop?language=en'") {
		t.Fatalf("the curl command was not printed on exit:\n%s", screen)
	}
}

// tmuxTerm is one tmux server (its own socket) running one command in an
// w x h window; the server is killed when the test ends. The command runs
// under sh, which prints its exit status when it ends (tmux itself may
// report a dead pane before it has reaped the process).
type tmuxTerm struct {
	t          *testing.T
	tmux, sock string
}

var tmuxSeq atomic.Int64

func startTmux(t *testing.T, tmux string, w, h int, args ...string) *tmuxTerm {
	t.Helper()
	term := &tmuxTerm{t: t, tmux: tmux, sock: fmt.Sprintf("sandbox-test-%d-%d", os.Getpid(), tmuxSeq.Add(1))}
	cmd := []string{"new-session", "-d", "-s", "main", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"sh", "-c", `"$0" "$@"; echo "[exited with status $?]"`}
	cmd = append(cmd, args...)
	cmd = append(cmd, ";", "set-option", "-t", "main", "remain-on-exit", "on")
	term.run(cmd...)
	t.Cleanup(func() { _ = exec.Command(tmux, "-L", term.sock, "kill-server").Run() })
	return term
}

func (m *tmuxTerm) run(args ...string) string {
	m.t.Helper()
	full := append([]string{"-L", m.sock, "-f", "/dev/null"}, args...)
	out, err := exec.Command(m.tmux, full...).CombinedOutput()
	if err != nil {
		m.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// screen is what the terminal shows now.
func (m *tmuxTerm) screen() string { return m.run("capture-pane", "-p", "-t", "main") }

// keys types tmux key names, one at a time (an Escape followed at once by
// a letter would read as Alt+letter).
func (m *tmuxTerm) keys(keys ...string) {
	m.t.Helper()
	for _, k := range keys {
		m.run("send-keys", "-t", "main", k)
		time.Sleep(60 * time.Millisecond)
	}
}

// waitFor polls the screen until it contains want.
func (m *tmuxTerm) waitFor(want, what string) string {
	m.t.Helper()
	return m.waitUntil(func(s string) bool { return strings.Contains(s, want) }, fmt.Sprintf("%s (%q)", what, want))
}

// waitUntil polls the screen until ok accepts it.
func (m *tmuxTerm) waitUntil(ok func(string) bool, what string) string {
	m.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var s string
	for time.Now().Before(deadline) {
		if s = m.screen(); ok(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	m.t.Fatalf("%s never appeared on the screen:\n%s", what, s)
	return ""
}

// waitDead waits for the command to exit with status 0 and returns the
// last screen, scroll-back included.
func (m *tmuxTerm) waitDead() string {
	m.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		s := m.run("capture-pane", "-p", "-S", "-", "-t", "main")
		if strings.Contains(s, "[exited with status 0]") {
			return s
		}
		if strings.Contains(s, "[exited with status ") {
			m.t.Fatalf("the command failed:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
	}
	m.t.Fatalf("the command did not exit:\n%s", m.screen())
	return ""
}

func tuiFreeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func tuiWaitHealthy(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(base + "/_sandbox/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no healthy sandbox at %s", base)
}

// tuiToken reads a full private token of e-shop 1001 from the control
// plane (never hard-coded).
func tuiToken(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/_sandbox/eshops")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Data struct {
			Eshops []struct {
				ID            int `json:"id"`
				PrivateTokens []struct {
					Token string `json:"token"`
					All   bool   `json:"allGroups"`
				} `json:"privateTokens"`
			} `json:"eshops"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	for _, e := range env.Data.Eshops {
		for _, p := range e.PrivateTokens {
			if e.ID == 1001 && p.All {
				return p.Token
			}
		}
	}
	t.Fatal("no full private token for e-shop 1001")
	return ""
}

// get calls the API and returns the request id the sandbox answered with.
func tuiGet(t *testing.T, url, token string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Service-Private-API-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Header.Get("X-Request-ID")
}

func tuiStatus(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-Private-API-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

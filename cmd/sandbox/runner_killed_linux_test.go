package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunnerKilledLeavesNothing: `sandbox test` killed with SIGKILL (an
// out-of-memory kill, a CI runner's hard stop) while its add-on runs
// leaves nothing of the add-on running within 2 s: not the add-on, not the
// child it started (both ignore SIGTERM), not the supervisor between them;
// so the next run finds its ports free.
func TestRunnerKilledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close() // nothing listens: the runner waits for the add-on's ready path
	scenario := `name: an add-on killed with its runner
addon:
  name: killed-addon
  eshop: 1001
  url: http://127.0.0.1:` + strconv.Itoa(port) + `
  ready: /healthz
  startTimeout: 60s
  command: [/bin/sh, -c, "trap '' TERM; sleep 300 & echo \"$$ $PPID $!\" > pids.tmp && mv pids.tmp pids; wait"]
steps:
  - call: {eshop: 1001, path: /api/eshop}
`
	file := filepath.Join(dir, "killed.yaml")
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	runner := exec.Command(os.Args[0], "test", file)
	runner.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
	runner.Stdout, runner.Stderr = &out, &out
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { _ = runner.Wait(); close(ended) }()
	var pids []int // the add-on, its parent (the supervisor), its child
	deadline := time.Now().Add(20 * time.Second)
	for pids == nil {
		if raw, err := os.ReadFile(filepath.Join(dir, "pids")); err == nil {
			for _, f := range strings.Fields(string(raw)) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("pids %q", raw)
				}
				pids = append(pids, pid)
			}
			break
		}
		select {
		case <-ended:
			t.Fatalf("sandbox test ended before its add-on started:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = runner.Process.Kill()
			<-ended
			t.Fatalf("the add-on did not start within 20 s:\n%s", out.String())
		}
	}
	if len(pids) != 3 {
		t.Fatalf("pids %v", pids)
	}
	if err := runner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-ended
	killed := time.Now()
	for {
		var left []int
		for _, pid := range pids {
			if pid != runner.Process.Pid && processRunning(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Since(killed) > 2*time.Second {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("2 s after the runner was killed, processes %v of the add-on's %v are still running\n%s", left, pids, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processRunning reports whether a process exists and has not ended (a
// zombie has: it waits for whoever adopted it to reap it).
func processRunning(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat) // pid (comm) state ...
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

package addonproc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runnerEnv makes the test binary act as a runner (TestRunnerKilled): it
// starts the add-on of runnerScript with the folder in its value and
// waits to be killed.
const runnerEnv = "ADDONPROC_TEST_RUNNER"

// runnerScript is an add-on that ignores SIGTERM and starts a child that
// ignores it too, and writes its own, its parent's (the supervisor's) and
// its child's process ids into the folder $D.
const runnerScript = `trap '' TERM
sleep 300 &
echo "$$ $PPID $!" > "$D/pids.tmp" && mv "$D/pids.tmp" "$D/pids"
wait`

func TestMain(m *testing.M) {
	if dir := os.Getenv(runnerEnv); dir != "" {
		cmd := exec.Command("/bin/sh", "-c", runnerScript)
		cmd.Env = append(os.Environ(), "D="+dir)
		if _, err := Start(cmd, 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		select {} // until killed
	}
	os.Exit(m.Run())
}

// TestRunnerKilled: when the program that started the add-on is killed
// with SIGKILL (an out-of-memory kill, a CI runner's hard stop), the
// add-on and what it started end within 2 s, although both ignore
// SIGTERM.
func TestRunnerKilled(t *testing.T) {
	dir := t.TempDir()
	runner := exec.Command(os.Args[0], "-test.run=^$")
	runner.Env = append(os.Environ(), runnerEnv+"="+dir)
	var out strings.Builder
	runner.Stdout, runner.Stderr = &out, &out
	if err := runner.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, filepath.Join(dir, "pids"), 3)
	for _, pid := range pids {
		if !alive(pid) {
			t.Fatalf("process %d of %v is not running before the runner is killed", pid, pids)
		}
	}
	if pids[1] == runner.Process.Pid {
		t.Fatalf("the add-on's parent is the runner itself, not a supervisor")
	}
	if err := runner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = runner.Wait()
	waitGone(t, pids, 2*time.Second)
}

// TestStopEndsTheWholeGroup: a shell that ignores SIGTERM and has a child
// of its own is killed after the grace period, child included, and its
// output is kept.
func TestStopEndsTheWholeGroup(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", `trap '' TERM; sleep 30 & echo "child $!"; wait`)
	p, err := Start(cmd, 0)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p.Output(), "child ") {
		if time.Now().After(deadline) {
			t.Fatalf("no output: %q", p.Output())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := p.Exited(); err != nil {
		t.Fatalf("running process reported as exited: %v", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p.Output()), "child")))
	if err != nil {
		t.Fatalf("output %q: %v", p.Output(), err)
	}
	began := time.Now()
	p.Stop(200 * time.Millisecond)
	if took := time.Since(began); took < 200*time.Millisecond {
		t.Fatalf("stopped after %v although the shell ignores SIGTERM: not the grace period", took)
	}
	if err := p.Exited(); err == nil || !strings.HasPrefix(err.Error(), "signal: killed;") {
		t.Fatalf("Exited = %v, want signal: killed", err)
	}
	waitGone(t, []int{child}, time.Second)
}

// TestEndsWithItsLeftovers: an add-on that ends by itself leaves nothing
// running behind it (here a child that ignores SIGTERM).
func TestEndsWithItsLeftovers(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("/bin/sh", "-c", `trap '' TERM; sleep 300 & echo $! > "$D/child"; exit 3`)
	cmd.Env = append(os.Environ(), "D="+dir)
	p, err := Start(cmd, 0)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not ended 10 s after the add-on exited: what it left running holds its output")
	}
	if err := p.Exited(); err == nil || !strings.HasPrefix(err.Error(), "exit status 3;") {
		t.Fatalf("Exited = %v, want exit status 3", err)
	}
	waitGone(t, waitPids(t, filepath.Join(dir, "child"), 1), time.Second)
}

// TestExitAndStart: what the runner reports is the add-on's own: its exit
// status (code or signal), its start errors; and the add-on gets its
// folder and environment, without the supervisor's variable.
func TestExitAndStart(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		cmd      *exec.Cmd
		startErr string // the error Start gives, or "" when it starts
		exited   string // how Exited begins once it ended by itself
	}{
		{"exit code", exec.Command("/bin/sh", "-c", "exit 7"), "", "exit status 7;"},
		{"exit 0", exec.Command("/bin/sh", "-c", "true"), "", "exit status 0;"},
		{"signal", exec.Command("/bin/sh", "-c", "kill -TERM $$"), "", "signal: terminated;"},
		{"folder and environment", func() *exec.Cmd {
			c := exec.Command("/bin/sh", "-c", `[ "$(pwd)" = "$WANT" ] && [ "$ADDON" = yes ] && [ -z "$`+superviseEnv+`" ] && exit 5`)
			c.Dir, c.Env = dir, append(os.Environ(), "WANT="+dir, "ADDON=yes")
			return c
		}(), "", "exit status 5;"},
		{"no such program", exec.Command("no-such-program-here"), `exec: "no-such-program-here": executable file not found in $PATH`, ""},
		{"not executable", exec.Command(noExec), "permission denied", ""},
		{"no such folder", func() *exec.Cmd {
			c := exec.Command("/bin/sh", "-c", "true")
			c.Dir = filepath.Join(dir, "nope")
			return c
		}(), "no such file or directory", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Start(c.cmd, 0)
			if c.startErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.startErr) {
					t.Fatalf("Start = %v, want an error with %q", err, c.startErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			<-p.Done()
			if err := p.Exited(); err == nil || !strings.HasPrefix(err.Error(), c.exited) {
				t.Fatalf("Exited = %v, want %q", err, c.exited)
			}
		})
	}
}

// waitPids waits up to 10 s for file to hold n process ids.
func waitPids(t *testing.T, file string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		raw, err := os.ReadFile(file)
		if err == nil {
			var pids []int
			for _, f := range strings.Fields(string(raw)) {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatalf("%s: %q", file, raw)
				}
				pids = append(pids, pid)
			}
			if len(pids) != n {
				t.Fatalf("%s: %q, want %d process ids", file, raw, n)
			}
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not written within 10 s", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitGone fails unless every process in pids is gone within limit.
func waitGone(t *testing.T, pids []int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		var left []int
		for _, pid := range pids {
			if alive(pid) {
				left = append(left, pid)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			t.Fatalf("processes %v of %v still running after %v", left, pids, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether a process exists and is not a zombie (a zombie
// has ended; it waits for whoever adopted it to reap it).
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err)
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

package addonproc

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

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
	if p.Exited() == nil {
		t.Fatal("Exited is nil after Stop")
	}
	// The child belonged to the group: it is gone, or a zombie waiting
	// for whoever adopted it to reap it (state Z); give it a moment.
	for i := 0; i < 50; i++ {
		if !alive(child) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the shell's child %d survived Stop", child)
}

// TestTailKeepsTheEnd: beyond its size the oldest bytes go, and the text
// says the start was dropped.
func TestTailKeepsTheEnd(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		want   string
	}{
		{"fits", []string{"ab", "cd"}, "abcd"},
		{"cut", []string{"abc", "defg"}, "...\ndefg"},
		{"one big write", []string{"abcdefgh"}, "...\nefgh"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := &Tail{max: 4}
			for _, w := range c.writes {
				if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := tl.String(); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return err != nil && !os.IsNotExist(err)
	}
	// pid (comm) state ...: the state follows the last ')'.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

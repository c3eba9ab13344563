package addonproc

import (
	"errors"
	"os/exec"
	"reflect"
	"sync"
	"testing"
	"time"
)

// fakeTree is a tree that records what Process asks of it; its process
// ends when end is closed (by a behaviour, or the test).
type fakeTree struct {
	mu       sync.Mutex
	calls    []string
	end      chan struct{}
	once     sync.Once
	startErr error
	// onInterrupt is what asking the tree to end does: end it, ignore
	// it, or fail.
	onInterrupt string // "ends", "ignored", "fails"
}

func (f *fakeTree) record(c string) {
	f.mu.Lock()
	f.calls = append(f.calls, c)
	f.mu.Unlock()
}

func (f *fakeTree) ended() { f.once.Do(func() { close(f.end) }) }

func (f *fakeTree) start(*exec.Cmd) error { f.record("start"); return f.startErr }
func (f *fakeTree) wait() error           { <-f.end; f.record("ended"); return errors.New("signal: killed") }
func (f *fakeTree) release()              { f.record("release") }
func (f *fakeTree) kill() error           { f.record("kill"); f.ended(); return nil }
func (f *fakeTree) interrupt() error {
	f.record("interrupt")
	switch f.onInterrupt {
	case "ends":
		f.ended()
	case "fails":
		return errors.New("cannot ask")
	}
	return nil
}

func (f *fakeTree) got() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// TestStopLogic: the one stop sequence every system's tree gets. Asked
// to end, a tree that ends is not killed; one that ignores it is killed
// after the grace period; one that cannot be asked is killed at once (the
// grace here is an hour, so waiting for it would hang the test); one that
// has ended already is left alone. The tree is released after its end,
// before Done.
func TestStopLogic(t *testing.T) {
	cases := []struct {
		name        string
		onInterrupt string
		endedFirst  bool
		grace       time.Duration
		want        []string
	}{
		{"ends when asked", "ends", false, time.Hour, []string{"start", "interrupt", "ended", "release"}},
		{"ignores the ask", "ignored", false, time.Millisecond, []string{"start", "interrupt", "kill", "ended", "release"}},
		{"cannot be asked", "fails", false, time.Hour, []string{"start", "interrupt", "kill", "ended", "release"}},
		{"ended already", "ends", true, time.Hour, []string{"start", "ended", "release"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeTree{end: make(chan struct{}), onInterrupt: c.onInterrupt}
			p, err := start(f, exec.Command("add-on"), 0)
			if err != nil {
				t.Fatal(err)
			}
			if c.endedFirst {
				f.ended()
				<-p.Done()
			} else if err := p.Exited(); err != nil {
				t.Fatalf("a running process reported as exited: %v", err)
			}
			stopped := make(chan struct{})
			go func() { p.Stop(c.grace); close(stopped) }()
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				t.Fatalf("Stop did not return; calls %v", f.got())
			}
			select {
			case <-p.Done():
			default:
				t.Fatal("Stop returned before the process ended")
			}
			if got := f.got(); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("calls %v, want %v", got, c.want)
			}
			if err := p.Exited(); err == nil || err.Error() != "signal: killed; output:\n" {
				t.Fatalf("Exited = %v", err)
			}
		})
	}
}

// TestStartFails: a tree that cannot start gives its error and no process.
func TestStartFails(t *testing.T) {
	f := &fakeTree{end: make(chan struct{}), startErr: errors.New("no such program")}
	p, err := start(f, exec.Command("add-on"), 0)
	if err == nil || err.Error() != "no such program" || p != nil {
		t.Fatalf("start = %v, %v", p, err)
	}
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

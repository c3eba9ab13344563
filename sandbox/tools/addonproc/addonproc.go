// Package addonproc runs the add-on under test as a child process for the
// commands that drive one (sandbox test, sandbox certify): with whatever it
// starts (a shell, an interpreter, a `go run` child) ending with it; with
// the end of its output kept for the report; and stopped by asking it to
// end, then killing it after a grace period.
//
// How a process tree is held and ended is one small interface, tree, with
// one implementation per system:
//
//   - Unix (tree_unix.go): the add-on runs in a process group of its own
//     under a supervisor, this same program re-executed (see the init
//     function there). Stop sends the group SIGTERM, then SIGKILL. The
//     supervisor ends the group when the add-on ends and when the program
//     that started it is gone, however it ended (SIGKILL included): on
//     Linux it learns that at once from a parent-death signal, on macOS
//     from watching its parent process id (a fifth of a second).
//   - Windows (tree_windows.go): the add-on runs in a job object that kills
//     every process in it when the job's last handle closes, which is also
//     when this program ends however it ended. Stop sends CTRL_BREAK to the
//     add-on's console process group, then terminates the job.
//
// Processes are signalled by their group or job only, never by name.
package addonproc

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// DefaultKeep is how much of the output a process keeps (the last bytes).
const DefaultKeep = 16 << 10

// tree is one system's way to hold an add-on's process tree.
type tree interface {
	// start starts cmd (its Stdout and Stderr set) with everything it
	// will start held in the tree.
	start(cmd *exec.Cmd) error
	// wait waits for the add-on's own process to end, with its status.
	wait() error
	// interrupt asks the whole tree to end (SIGTERM, CTRL_BREAK); an
	// error means it cannot be asked, only killed.
	interrupt() error
	// kill ends the whole tree now.
	kill() error
	// release frees what the tree holds, once wait has returned.
	release()
}

// Process is a started add-on.
type Process struct {
	tree tree
	out  *Tail
	done chan struct{}
	err  error
}

// Start starts cmd with its standard output and error kept in a Tail of
// keep bytes (DefaultKeep when keep <= 0), in a tree of its own (see the
// package comment). cmd describes the add-on (Path, Args, Dir, Env,
// Stdin); its Stdout and Stderr are set here, and it may be run through
// a supervisor rather than started itself, so use the returned Process,
// not cmd.Process.
func Start(cmd *exec.Cmd, keep int) (*Process, error) {
	return start(newTree(), cmd, keep)
}

func start(t tree, cmd *exec.Cmd, keep int) (*Process, error) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	p := &Process{tree: t, out: &Tail{max: keep}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := t.start(cmd); err != nil {
		return nil, err
	}
	go func() {
		p.err = t.wait()
		t.release()
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the process has ended.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited returns a non-nil error, with the output, once the process has
// ended (whatever its exit status: an add-on is meant to keep running).
func (p *Process) Exited() error {
	select {
	case <-p.done:
		if p.err != nil {
			return fmt.Errorf("%v; output:\n%s", p.err, p.out.String())
		}
		return fmt.Errorf("exit status 0; output:\n%s", p.out.String())
	default:
		return nil
	}
}

// Stop asks the process tree to end (SIGTERM to its group; CTRL_BREAK on
// Windows) and kills it when it has not ended after grace, or at once
// when it cannot be asked; it returns once the process ended.
func (p *Process) Stop(grace time.Duration) {
	select {
	case <-p.done:
		return
	default:
	}
	if err := p.tree.interrupt(); err != nil {
		_ = p.tree.kill()
		<-p.done
		return
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		_ = p.tree.kill()
		<-p.done
	}
}

// Output is the end of what the process wrote.
func (p *Process) Output() string { return p.out.String() }

// Tail keeps the last max bytes written to it.
type Tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

// Write keeps p, dropping the oldest bytes beyond max.
func (b *Tail) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
		b.cut = true
	}
	return len(p), nil
}

// String returns what is kept, marked when the start was dropped.
func (b *Tail) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cut {
		return "...\n" + string(b.buf)
	}
	return string(b.buf)
}

// LastLines is the last n lines of an add-on's output, for a report.
func LastLines(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

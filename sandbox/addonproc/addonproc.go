// Package addonproc runs the add-on under test as a child process for the
// commands that drive one (sandbox test, sandbox certify): in a process
// group of its own, so whatever it starts (a shell, an interpreter, a
// `go run` child) ends with it; with the end of its output kept for the
// report; and stopped with SIGTERM, then SIGKILL after a grace period.
// Processes are signalled by their group id only, never by name.
package addonproc

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultKeep is how much of the output a process keeps (the last bytes).
const DefaultKeep = 16 << 10

// Process is a started add-on.
type Process struct {
	cmd  *exec.Cmd
	out  *Tail
	done chan struct{}
	err  error
}

// Start starts cmd in its own process group with its standard output and
// error kept in a Tail of keep bytes (DefaultKeep when keep <= 0). cmd's
// Stdout, Stderr and SysProcAttr are set here.
func Start(cmd *exec.Cmd, keep int) (*Process, error) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	p := &Process{cmd: cmd, out: &Tail{max: keep}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		p.err = cmd.Wait()
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

// Stop asks the process group to end (SIGTERM) and kills it (SIGKILL)
// when it has not ended after grace; it returns once the process ended.
func (p *Process) Stop(grace time.Duration) {
	select {
	case <-p.done:
		return
	default:
	}
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
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

package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// process is the add-on under test, started by the runner and stopped by
// it (its own process group, signalled by id only).
type process struct {
	cmd  *exec.Cmd
	out  *ringBuffer
	done chan struct{}
	err  error
}

// startProcess starts the add-on's command with its placeholders
// expanded, in its folder, with the run's variables in its environment.
func (r *run) startProcess() (*process, error) {
	ad := r.sc.Addon
	argv := make([]string, len(ad.Command))
	for i, a := range ad.Command {
		v, err := r.expand(a)
		if err != nil {
			return nil, fmt.Errorf("addon.command: %w", err)
		}
		argv[i] = v
	}
	// A relative program path is taken from where sandbox test runs
	// (--var EXAMPLE_ADDON=bin/example-addon) when it exists there, else
	// from the command's folder.
	if strings.ContainsRune(argv[0], filepath.Separator) && !filepath.IsAbs(argv[0]) {
		if abs, err := filepath.Abs(argv[0]); err == nil {
			if _, err := os.Stat(abs); err == nil {
				argv[0] = abs
			}
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if ad.Dir != "" {
		d, err := r.expand(ad.Dir)
		if err != nil {
			return nil, fmt.Errorf("addon.dir: %w", err)
		}
		cmd.Dir = r.rel(d)
	} else if r.sc.File != "" {
		cmd.Dir = r.rel(".")
	}
	env := os.Environ()
	keys := make([]string, 0, len(r.vars))
	for k := range r.vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+r.vars[k])
	}
	envKeys := make([]string, 0, len(ad.Env))
	for k := range ad.Env {
		envKeys = append(envKeys, k)
	}
	sort.Strings(envKeys)
	for _, k := range envKeys {
		v, err := r.expand(ad.Env[k])
		if err != nil {
			return nil, fmt.Errorf("addon.env.%s: %w", k, err)
		}
		env = append(env, k+"="+v)
	}
	cmd.Env = env
	p := &process{cmd: cmd, out: &ringBuffer{max: 16 << 10}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the add-on %q: %w", argv[0], err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// exited returns a non-nil error once the process has ended.
func (p *process) exited() error {
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

// stop asks the add-on to end (SIGTERM to its group) and kills it after
// five seconds.
func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
}

func (p *process) output() string { return p.out.String() }

// ringBuffer keeps the last max bytes written to it.
type ringBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

// Write keeps p, dropping the oldest bytes beyond max.
func (b *ringBuffer) Write(p []byte) (int, error) {
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
func (b *ringBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cut {
		return "...\n" + string(b.buf)
	}
	return string(b.buf)
}

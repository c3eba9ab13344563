//go:build unix

package addonproc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// superviseEnv, in a process's environment, makes this program act as
// the supervisor of an add-on instead of doing anything else: its value
// is the process id of the program that started it (the runner). It is
// never passed on to the add-on.
const superviseEnv = "SANDBOX_ADDONPROC_SUPERVISE"

// The supervisor's timings: how often it looks at its parent process id,
// and how long an add-on whose runner is gone has to end after SIGTERM
// before its group is killed.
const (
	parentPoll  = 200 * time.Millisecond
	orphanGrace = 500 * time.Millisecond
)

// init turns this program into the supervisor when the runner started it
// as one (Start below). It is an init function rather than a call in
// main so that every program that starts add-ons through this package,
// test binaries included, can supervise them without knowing.
func init() {
	if runner, ok := os.LookupEnv(superviseEnv); ok {
		os.Exit(supervise(runner, os.Args[1:]))
	}
}

// groupTree holds the add-on's process group under a supervisor.
type groupTree struct {
	sup  *exec.Cmd // the supervisor, this program re-executed
	pgid int       // the add-on's process group (its process id)
}

func newTree() tree { return &groupTree{} }

// start re-executes this program as the supervisor of cmd, which starts
// cmd in a process group of its own and says on a pipe (its file 3)
// either "pid N" or "error TEXT".
func (g *groupTree) start(cmd *exec.Cmd) error {
	if cmd.Err != nil { // exec.Command's path look-up
		return cmd.Err
	}
	if cmd.Path == "" {
		return errors.New("exec: no command")
	}
	self, err := selfPath()
	if err != nil {
		return fmt.Errorf("the add-on's supervisor (this program): %w", err)
	}
	argv := cmd.Args
	if len(argv) == 0 {
		argv = []string{cmd.Path}
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(withoutVar(env, superviseEnv), superviseEnv+"="+strconv.Itoa(os.Getpid()))
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	sup := &exec.Cmd{
		Path: self, Args: append([]string{"sandbox-addon-supervisor", cmd.Path}, argv...),
		Dir: cmd.Dir, Env: env, Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
		ExtraFiles: []*os.File{w},
		// A group of its own: a terminal's Ctrl-C, or a signal to the
		// runner's group, reaches the runner only, which stops the add-on.
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	err = startSupervisor(sup)
	w.Close()
	if err != nil {
		return err
	}
	said, _ := io.ReadAll(io.LimitReader(r, 64<<10))
	line := strings.TrimSpace(string(said))
	if rest, ok := strings.CutPrefix(line, "pid "); ok {
		if pid, err := strconv.Atoi(rest); err == nil && pid > 0 {
			g.sup, g.pgid = sup, pid
			return nil
		}
	}
	_ = sup.Process.Kill()
	_ = sup.Wait()
	if rest, ok := strings.CutPrefix(line, "error "); ok {
		return errors.New(rest)
	}
	return fmt.Errorf("the add-on's supervisor ended without starting it (%q)", line)
}

func (g *groupTree) wait() error { return g.sup.Wait() }

func (g *groupTree) interrupt() error { return syscall.Kill(-g.pgid, syscall.SIGTERM) }

// kill kills the add-on's group, and the supervisor too in case it is
// stuck (it ends with the add-on otherwise, with the same status).
func (g *groupTree) kill() error {
	err := syscall.Kill(-g.pgid, syscall.SIGKILL)
	_ = g.sup.Process.Kill()
	return err
}

func (g *groupTree) release() {}

// supervise is the supervisor's whole life: start the add-on (path, then
// its argv) in a process group of its own, say its process id on file 3,
// and wait for it to end, passing its exit status on as its own. When the
// runner is gone (a parent-death signal on Linux, a changed parent
// process id anywhere) or this process is asked to end, it asks the group
// to end (SIGTERM) and kills it after orphanGrace. Whatever is left in the
// group when the add-on has ended is killed.
func supervise(runner string, args []string) int {
	status := os.NewFile(3, "status")
	syscall.CloseOnExec(3) // the add-on must not hold it open
	fail := func(err error) int {
		fmt.Fprintf(status, "error %v\n", err)
		status.Close()
		return 127
	}
	runnerPid, err := strconv.Atoi(runner)
	if err != nil || len(args) < 2 {
		return fail(fmt.Errorf("%s=%q with arguments %q: not started by addonproc", superviseEnv, runner, args))
	}
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, parentDeathSignal)
	cmd := &exec.Cmd{
		Path: args[0], Args: args[1:], Env: withoutVar(os.Environ(), superviseEnv),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	pgid := cmd.Process.Pid
	fmt.Fprintf(status, "pid %d\n", pgid)
	status.Close()
	exited := make(chan struct{})
	var werr error
	go func() { werr = cmd.Wait(); close(exited) }()
	orphaned := func() bool { return os.Getppid() != runnerPid }
	tick := time.NewTicker(parentPoll)
	defer tick.Stop()
watch:
	for {
		if orphaned() {
			endGroup(pgid, exited)
			break
		}
		select {
		case <-exited:
			break watch
		case s := <-sigs:
			if s == parentDeathSignal && !orphaned() {
				continue // the runner's thread that started us ended, not the runner
			}
			endGroup(pgid, exited)
			break watch
		case <-tick.C:
		}
	}
	<-exited
	// The add-on has been reaped, but its group id stays taken while
	// anything is left in the group: end that too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	return passOn(cmd.ProcessState, werr)
}

// endGroup asks the group to end and kills it after orphanGrace; it
// returns once the add-on has ended.
func endGroup(pgid int, exited <-chan struct{}) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(orphanGrace):
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-exited
}

// passOn ends like the add-on ended: the same exit code, or the same
// signal, so the runner reports what it would without a supervisor.
func passOn(st *os.ProcessState, err error) int {
	if st == nil {
		fmt.Fprintln(os.Stderr, "sandbox: the add-on's supervisor:", err)
		return 1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig := ws.Signal()
		signal.Reset(sig)
		_ = syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second) // the signal ends the process before this does
		return 128 + int(sig)
	}
	return st.ExitCode()
}

// withoutVar is env without the entries for name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

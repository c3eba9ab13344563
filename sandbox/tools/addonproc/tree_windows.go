package addonproc

import (
	"fmt"
	"os/exec"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobTree holds the add-on in a job object that kills every process in it
// when its last handle closes: this program holds the only one, so the
// add-on's tree ends when this program ends, however it ends.
type jobTree struct {
	cmd     *exec.Cmd
	job     windows.Handle
	proc    windows.Handle // the add-on's own process
	watched chan struct{}  // closed once the add-on ended and the job was ended
}

func newTree() tree { return &jobTree{} }

// start starts cmd in a console process group of its own (so CTRL_BREAK
// reaches it alone, and a Ctrl-C in the terminal reaches the runner, which
// stops it) and puts it in the job. A process the add-on starts in the
// moment between its start and joining the job is not held.
func (j *jobTree) start(cmd *exec.Cmd) error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("create a job object for the add-on: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return fmt.Errorf("set up the add-on's job object: %w", err)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
	if err := cmd.Start(); err != nil {
		_ = windows.CloseHandle(job)
		return err
	}
	// The add-on is this program's child, not yet waited for: its process
	// id cannot be reused while os.Process holds its handle.
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE|windows.SYNCHRONIZE, false, uint32(cmd.Process.Pid))
	if err == nil {
		if err = windows.AssignProcessToJobObject(job, proc); err != nil {
			_ = windows.CloseHandle(proc)
		}
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = windows.CloseHandle(job)
		return fmt.Errorf("put the add-on in its job object: %w", err)
	}
	j.cmd, j.job, j.proc, j.watched = cmd, job, proc, make(chan struct{})
	// When the add-on itself ends, whatever it left running ends too (and
	// lets go of its output, which cmd.Wait waits for).
	go func() {
		defer close(j.watched)
		_, _ = windows.WaitForSingleObject(proc, windows.INFINITE)
		_ = windows.TerminateJobObject(job, 1)
	}()
	return nil
}

func (j *jobTree) wait() error { return j.cmd.Wait() }

// interrupt sends CTRL_BREAK to the add-on's console process group; it
// fails when this program has no console, and the add-on is then killed.
func (j *jobTree) interrupt() error {
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(j.cmd.Process.Pid))
}

func (j *jobTree) kill() error { return windows.TerminateJobObject(j.job, 1) }

func (j *jobTree) release() {
	<-j.watched
	_ = windows.CloseHandle(j.proc)
	_ = windows.CloseHandle(j.job)
}

//go:build unix

package built

import (
	"os/exec"
	"syscall"
)

// OwnGroup makes cmd start in a process group of its own, so what it
// starts (a block's background jobs, an interpreter's children) can be
// ended with it by TerminateGroup and KillGroup.
func OwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Terminate asks cmd's process to end (SIGTERM).
func Terminate(cmd *exec.Cmd) error { return cmd.Process.Signal(syscall.SIGTERM) }

// TerminateGroup asks cmd's process group (OwnGroup) to end (SIGTERM).
func TerminateGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }

// KillGroup kills cmd's process group (OwnGroup).
func KillGroup(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

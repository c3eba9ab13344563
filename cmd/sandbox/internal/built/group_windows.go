package built

import (
	"os/exec"
	"syscall"
)

// OwnGroup makes cmd start in a console process group of its own. These
// tests run on Linux; on Windows they only build (go vet), and the
// functions here end cmd's own process, not what it started.
func OwnGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
}

// Terminate kills cmd's process: Windows cannot send it SIGTERM.
func Terminate(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// TerminateGroup kills cmd's process.
func TerminateGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// KillGroup kills cmd's process.
func KillGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

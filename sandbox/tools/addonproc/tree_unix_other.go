//go:build unix && !linux

package addonproc

import (
	"os"
	"os/exec"
	"syscall"
)

// parentDeathSignal: macOS and the BSDs have no parent-death signal, so
// the supervisor learns the runner is gone by watching its parent process
// id (parentPoll); this signal is only listened for.
const parentDeathSignal = syscall.SIGUSR1

func startSupervisor(c *exec.Cmd) error { return c.Start() }

func selfPath() (string, error) { return os.Executable() }

package addonproc

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// parentDeathSignal is what Linux sends the supervisor when the thread
// that started it ends (PR_SET_PDEATHSIG): with the runner, or alone.
// A signal nothing else sends, so the supervisor can tell it apart.
const parentDeathSignal = syscall.SIGUSR1

// startSupervisor starts the supervisor with a parent-death signal. Linux
// ties that signal to the thread that forked, not the process, so the
// start runs locked to its thread, which Go keeps afterwards (a thread
// only ends when a goroutine locked to it exits); if it ever ends first
// the supervisor sees its parent is still there and carries on, and it
// watches its parent process id besides.
func startSupervisor(c *exec.Cmd) error {
	c.SysProcAttr.Pdeathsig = parentDeathSignal
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return c.Start()
}

// selfPath is this program's file, even when it was replaced or removed
// since it started (an upgrade under a running sandbox test).
func selfPath() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

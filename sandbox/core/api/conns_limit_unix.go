//go:build unix

package api

import "syscall"

// ConnLimit is how many connections the sandbox keeps open at most: the
// process's open-file limit, less a reserve for its data file, logs and
// outgoing connections (webhooks, file fetches).
func ConnLimit() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == 0 {
		return 1024
	}
	return connsFor(rl.Cur)
}

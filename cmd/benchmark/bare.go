package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// bareEnv, when set in the environment, makes this program the bare
// baseline server instead of the benchmark: it serves the named file's
// bytes on a free loopback port, prints the address and runs until
// killed. The baseline runs in its own process, as the sandbox does, so
// both are measured across the same process boundary (a server inside
// the load generator's own process answers a lone client faster than
// any other process can, which would flatter the baseline at c=1).
const bareEnv = "SANDBOX_BENCH_BARE_BODY"

// serveBare is the baseline server's main.
func serveBare(path string) {
	body, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(l.Addr().String())
	size := strconv.Itoa(len(body))
	_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The same framing the sandbox uses for a cached answer: its
		// length announced, so neither side pays for chunking.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", size)
		_, _ = w.Write(body)
	}))
}

// bare starts the baseline in a child process serving a fixed body with
// net/http only: the baseline the sandbox's reads are compared with,
// measured in the same run on the same machine.
func bare(body []byte) (string, func(), error) {
	f, err := os.CreateTemp("", "sandbox-bare-*.json")
	if err != nil {
		return "", nil, err
	}
	_, err = f.Write(body)
	_ = f.Close()
	if err != nil {
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), bareEnv+"="+f.Name())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		_ = os.Remove(f.Name())
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("bare baseline: %w", err)
	}
	return "http://" + strings.TrimSpace(line), stop, nil
}

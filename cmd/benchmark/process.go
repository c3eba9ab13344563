package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// startLimit bounds the wait for a sandbox to become healthy (a large
// fixture set takes long to load; the run must still end by itself).
var startLimit = 60 * time.Second

// proc is a running sandbox.
type proc struct {
	cmd  *exec.Cmd
	base string
	out  *bytes.Buffer
	// startup is the time from exec to the first 200 on /_sandbox/health.
	startup time.Duration
}

func freePort() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// start runs the sandbox with --limits off on a free loopback port and
// waits (at most startLimit) for its health check.
func start(bin string, args ...string) (*proc, error) {
	addr, err := freePort()
	if err != nil {
		return nil, err
	}
	out := &bytes.Buffer{}
	cmd := exec.Command(bin, append([]string{"up", "--headless", "--limits", "off", "--log-level", "error", "--addr", addr}, args...)...)
	cmd.Stdout, cmd.Stderr = out, out
	client := &http.Client{Timeout: time.Second}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, base: "http://" + addr, out: out}
	for time.Since(t0) < startLimit {
		resp, err := client.Get(p.base + "/_sandbox/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				p.startup = time.Since(t0)
				return p, nil
			}
		}
		if cmd.ProcessState != nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	p.stop()
	return nil, fmt.Errorf("sandbox did not become healthy: %s", out.String())
}

// peakRSS reads the process's high-water resident set size.
func (p *proc) peakRSS() (int64, error) { return p.memory("VmHWM") }

// rss is the process's resident memory now.
func (p *proc) rss() (int64, error) { return p.memory("VmRSS") }

// memory reads a size field (in kB) of the process's /proc status.
func (p *proc) memory(field string) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no %s", field)
}

func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// medianStartup starts the sandbox n times and returns the median
// start-up time and the last process, left running.
func medianStartup(bin string, n int, args ...string) (time.Duration, *proc, error) {
	var times []time.Duration
	var last *proc
	for i := 0; i < n; i++ {
		p, err := start(bin, args...)
		if err != nil {
			return 0, nil, err
		}
		times = append(times, p.startup)
		if i < n-1 {
			p.stop()
		} else {
			last = p
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], last, nil
}

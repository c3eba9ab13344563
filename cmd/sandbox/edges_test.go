package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestStalledBodiesDoNotStarveTheServer holds 300 connections that sent
// full headers and half a body against a sandbox whose own open-file limit
// is 256, and checks that /_sandbox/health answers within a second
// throughout and again once they are gone, and that the process never
// ran out of file descriptors.
func TestStalledBodiesDoNotStarveTheServer(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatalf("the test sets the sandbox's open-file limit with sh's ulimit: %v", err)
	}
	tests := []struct {
		name string
		path string
		args []string
	}{
		{"API, limits on", "/api/brands", nil},
		{"API, limits off", "/api/brands", []string{"--limits", "off"}},
		{"control plane", "/_sandbox/clock", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			out := &syncBuffer{}
			args := append([]string{"up", "--headless", "--addr", addr, "--body-timeout", "2m"}, tc.args...)
			cmd := exec.Command("sh", append([]string{"-c", `ulimit -n 256 && exec "$0" "$@"`, os.Args[0]}, args...)...)
			cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
			cmd.Stdout, cmd.Stderr = out, out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			base := "http://" + addr
			health := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			healthy := func() error {
				began := time.Now()
				resp, err := health.Get(base + "/_sandbox/health")
				if err != nil {
					return err
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					return fmt.Errorf("status %d", resp.StatusCode)
				}
				if d := time.Since(began); d > time.Second {
					return fmt.Errorf("answered after %s", d)
				}
				return nil
			}
			deadline := time.Now().Add(15 * time.Second)
			for healthy() != nil {
				if time.Now().After(deadline) {
					t.Fatalf("sandbox not healthy: %s", out.String())
				}
				time.Sleep(20 * time.Millisecond)
			}

			var mu sync.Mutex
			var conns []net.Conn
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				for _, c := range conns {
					c.Close()
				}
			}()
			done := make(chan struct{})
			go func() { // the slow clients
				defer close(done)
				for i := 0; i < 300; i++ {
					c, err := net.DialTimeout("tcp", addr, time.Second)
					if err != nil {
						continue
					}
					fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nService-Private-API-Token: %s\r\nContent-Length: 1000\r\n\r\n%s",
						tc.path, addr, fullToken, strings.Repeat(" ", 500))
					mu.Lock()
					conns = append(conns, c)
					mu.Unlock()
				}
			}()
			watch := time.Now().Add(3 * time.Second)
			checks := 0
			for time.Now().Before(watch) {
				if err := healthy(); err != nil {
					mu.Lock()
					n := len(conns)
					mu.Unlock()
					t.Fatalf("health while %d slow clients hold connections: %v", n, err)
				}
				checks++
				time.Sleep(100 * time.Millisecond)
			}
			<-done
			if err := healthy(); err != nil {
				t.Fatalf("health with all 300 slow clients connected: %v", err)
			}
			mu.Lock()
			n := len(conns)
			for _, c := range conns {
				c.Close()
			}
			conns = nil
			mu.Unlock()
			time.Sleep(200 * time.Millisecond)
			if err := healthy(); err != nil {
				t.Fatalf("health after the slow clients left: %v", err)
			}
			if strings.Contains(out.String(), "too many open files") {
				t.Fatalf("the sandbox ran out of file descriptors:\n%s", out.String())
			}
			if n < 300 {
				t.Fatalf("only %d of 300 slow clients connected", n)
			}
			t.Logf("%d health checks answered within a second while 300 slow clients held on", checks)
		})
	}
}

// TestExposedAddressWarns: listening beyond loopback prints a warning on
// stderr saying what becomes reachable, and the printed base URL is one a
// client can call.
func TestExposedAddressWarns(t *testing.T) {
	for _, tc := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:0", true}, {"127.0.0.1:0", false}} {
		t.Run(tc.addr, func(t *testing.T) {
			stdout, stderr := &syncBuffer{}, &syncBuffer{}
			cmd := exec.Command(os.Args[0], "up", "--headless", "--addr", tc.addr)
			cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
			cmd.Stdout, cmd.Stderr = stdout, stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			deadline := time.Now().Add(15 * time.Second)
			for !strings.Contains(stdout.String(), "sandbox is up") {
				if time.Now().After(deadline) {
					t.Fatalf("no banner: %s %s", stdout.String(), stderr.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			_, rest, _ := strings.Cut(stdout.String(), "base URL:")
			base := strings.TrimSpace(strings.SplitN(rest, "\n", 2)[0])
			if !strings.HasPrefix(base, "http://127.0.0.1:") {
				t.Fatalf("printed base URL %q is not one a client can call", base)
			}
			resp, err := http.Get(base + "/_sandbox/health")
			if err != nil {
				t.Fatalf("the printed base URL does not answer: %v", err)
			}
			resp.Body.Close()
			warned := strings.Contains(stderr.String(), "warning:") && strings.Contains(stderr.String(), "/_sandbox/eshops") && strings.Contains(stderr.String(), "network")
			if warned != tc.warn {
				t.Fatalf("warning %v, want %v; stderr:\n%s", warned, tc.warn, stderr.String())
			}
			if strings.Contains(stdout.String(), "warning") {
				t.Fatalf("the warning belongs on stderr:\n%s", stdout.String())
			}
		})
	}
}

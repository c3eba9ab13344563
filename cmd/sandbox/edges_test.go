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
			addr, out := upUnderLimit(t, 256, append([]string{"--body-timeout", "2m"}, tc.args...)...)
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
			if err := healthy(); err != nil {
				t.Fatalf("sandbox not healthy: %v", err)
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

// TestHalfHeaderFloodDoesNotStarveHealth opens, all at once, more
// connections than the sandbox's open-file limit allows, each sending
// half of a request's headers and then nothing (300 at a limit of 256,
// 1,100 at 1,024), and checks that /_sandbox/health and the API answer
// while they are held. New connections used to be spared for 2 s and
// eviction to run only on a successful accept, so the process ran out of
// descriptors and answered nothing for the 10 s header timeout. The test
// bounds each answer at 5 s (a loaded CI machine) and logs the measured
// time; the sandbox is a child process with its own lowered limit.
func TestHalfHeaderFloodDoesNotStarveHealth(t *testing.T) {
	for _, tc := range []struct{ limit, conns int }{{256, 300}, {1024, 1100}} {
		t.Run(fmt.Sprintf("%d at a limit of %d", tc.conns, tc.limit), func(t *testing.T) {
			addr, out := upUnderLimit(t, tc.limit)
			base := "http://" + addr
			client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			get := func(path string, token bool) (time.Duration, error) {
				req, _ := http.NewRequest("GET", base+path, nil)
				req.Header.Set("Content-Type", "application/json")
				if token {
					req.Header.Set("Service-Private-API-Token", fullToken)
				}
				began := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					return time.Since(began), err
				}
				resp.Body.Close()
				if resp.StatusCode != 200 {
					return time.Since(began), fmt.Errorf("status %d", resp.StatusCode)
				}
				return time.Since(began), nil
			}

			// The flood: every connection dialled at once, half a request's
			// headers, then silence.
			var mu sync.Mutex
			var conns []net.Conn
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				for _, c := range conns {
					c.Close()
				}
			}()
			var wg sync.WaitGroup
			for w := 0; w < 50; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := w; i < tc.conns; i += 50 {
						c, err := net.DialTimeout("tcp", addr, 2*time.Second)
						if err != nil {
							continue
						}
						fmt.Fprintf(c, "GET /api/eshop HTTP/1.1\r\nHost: %s\r\nContent-Ty", addr)
						mu.Lock()
						conns = append(conns, c)
						mu.Unlock()
					}
				}(w)
			}
			wg.Wait()
			for _, p := range []struct {
				path  string
				token bool
			}{{"/_sandbox/health", false}, {"/api/eshop", true}, {"/_sandbox/health", false}} {
				took, err := get(p.path, p.token)
				if err != nil {
					t.Fatalf("%s with %d half-header connections opened at once: %v after %s\n%s", p.path, tc.conns, err, took, out.String())
				}
				t.Logf("%s answered in %s with %d half-header connections opened at once", p.path, took, tc.conns)
			}
		})
	}
}

// upUnderLimit starts sandbox up (with more flags) as a child process whose
// open-file limit is limit, on a free loopback address, and waits until
// its health check answers; it returns the address and the child's
// output. The child is killed when the test ends.
func upUnderLimit(t *testing.T, limit int, more ...string) (string, *syncBuffer) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Fatalf("the test sets the sandbox's open-file limit with sh's ulimit: %v", err)
	}
	addr := freeAddr(t)
	out := &syncBuffer{}
	args := append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, limit), os.Args[0], "up", "--headless", "--addr", addr}, more...)
	cmd := exec.Command("sh", args...)
	cmd.Env = append(os.Environ(), "SANDBOX_TEST_MAIN=1")
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := client.Get("http://" + addr + "/_sandbox/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr, out
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("sandbox not healthy: %s", out.String())
		}
	}
}

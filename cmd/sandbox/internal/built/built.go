// Package built runs the sandbox program built from this tree the way a
// user runs it, for the tests that drive it from the outside: the
// README's blocks (cmd/sandbox/internal/readme) and the own-add-on path
// (cmd/sandbox/internal/ownaddon). Only tests use it.
package built

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// RepoRoot is the module's root above the test's folder.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// Build builds the sandbox program from the tree into dir and returns
// its path.
func Build(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "sandbox")
	build := exec.Command("go", "build", "-o", bin, "./cmd/sandbox")
	build.Dir = RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Up runs `sandbox up --headless --addr 127.0.0.1:0` in dir (env nil:
// this process's environment) until the test ends, and returns the base
// URL it printed once it answers its health check. It is stopped with
// SIGTERM (killed on Windows), and killed with its process group after
// 10 s.
func Up(t testing.TB, ctx context.Context, bin, dir string, env []string) string {
	t.Helper()
	up := exec.CommandContext(ctx, bin, "up", "--headless", "--addr", "127.0.0.1:0")
	up.Dir, up.Env = dir, env
	OwnGroup(up)
	stdout, err := up.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	up.Stderr = io.Discard
	if err := up.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = Terminate(up)
		done := make(chan struct{})
		go func() { _ = up.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = KillGroup(up)
			<-done
		}
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "base URL:"); ok {
				found <- strings.TrimSpace(u)
			}
		}
	}()
	select {
	case base := <-found:
		WaitOK(t, base+"/_sandbox/health")
		return base
	case <-time.After(30 * time.Second):
		t.Fatal("sandbox up printed no base URL within 30 s")
	}
	return ""
}

// WaitOK waits up to 10 s for GET url to answer 200.
func WaitOK(t testing.TB, url string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not answer 200 within 10 s", url)
}

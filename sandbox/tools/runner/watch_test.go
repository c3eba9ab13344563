package runner

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"
)

// TestWatchReruns: --watch runs every scenario, then a scenario again when
// its file changes, every scenario when a file under the watched folder
// (the add-on's source) changes, a scenario file added to the folder, and
// nothing while nothing changes; it ends with its context.
func TestWatchReruns(t *testing.T) {
	dir, src := t.TempDir(), t.TempDir()
	write := func(p, content string) { // whole, by rename, as editors save
		t.Helper()
		tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp")
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml")
	write(a, "a")
	write(b, "b")
	write(filepath.Join(src, "main.go"), "package main")
	list := func() ([]string, error) {
		m, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		sort.Strings(m)
		return m, err
	}
	runs := make(chan []string)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Watch{Files: list, Dirs: []string{src}, Interval: 5 * time.Millisecond,
			Run: func(_ context.Context, files []string) { runs <- files }}.Loop(ctx)
	}()
	next := func(want ...string) {
		t.Helper()
		select {
		case got := <-runs:
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ran %v, want %v", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no run of %v", want)
		}
	}
	next(a, b)
	write(a, "a changed")
	next(a)
	write(filepath.Join(src, "main.go"), "package main // changed")
	next(a, b)
	write(c, "c")
	next(c)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-runs:
		t.Fatal("a run with nothing changed")
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not end with its context")
	}
}

package app_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestDamagedDataFileFailsTheStartCleanly cuts a seeded data file at
// half its length, just after a command near the half (a cut no check
// of the bytes can see: the mark of a completed seeding is missing) and
// inside its last command, and breaks a stored JSON value. Each start
// fails saying what is wrong and how to check and repair, and leaves the
// file as it was (a start used to run on the half file, or fail with a
// token conflict after cutting 246 bytes off it).
func TestDamagedDataFileFailsTheStartCleanly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.db")
	s := sandboxtest.New(t, sandbox.Config{DataFile: path})
	if err := s.App.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	boundary := len(good)/2 + bytes.Index(good[len(good)/2:], []byte("\r\n*3\r\n")) + 2
	value := bytes.Index(good, []byte(`{"_seq":1,`))
	broken := append([]byte(nil), good...)
	broken[value] = '['
	tests := []struct {
		name string
		data []byte
		want []string
	}{
		{"cut at half", good[:len(good)/2], []string{"is damaged: truncated at byte", "sandbox data repair"}},
		{"cut at a command boundary", good[:boundary], []string{"not the mark a completed seeding writes", "sandbox data check"}},
		{"cut inside the last command", good[:len(good)-2], []string{"is damaged: truncated at byte"}},
		{"broken JSON value", broken, []string{"is not a valid JSON object", "sandbox data repair"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "sandbox.db")
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			a, err := app.Open(sandbox.Config{DataFile: p, Addr: "127.0.0.1:0"}, nil)
			if err == nil {
				_ = a.Close(context.Background())
				t.Fatal("the sandbox started on a damaged file")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
			if after, _ := os.ReadFile(p); !bytes.Equal(after, tc.data) {
				t.Errorf("the failed start changed the file: %d bytes, was %d", len(after), len(tc.data))
			}
		})
	}
}

package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/cmd/sandbox/internal/runner"
	"github.com/eshop-sandbox/sandbox/scenarios"
)

// TestExamples runs every scenario of scenarios/ against the example
// add-on; each must pass. This test binary acts as the add-on when the
// runner starts it with SANDBOX_TEST_BE_EXAMPLE_ADDON=1 (see TestMain).
func TestExamples(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(beAddon, "1") // inherited by the add-on processes only; this process checked it at start
	entries, err := fs.ReadDir(scenarios.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(strings.TrimSuffix(e.Name(), ".yaml"), func(t *testing.T) {
			res := runner.RunFile(context.Background(), filepath.Join("..", "..", "scenarios", e.Name()), runner.Options{Vars: map[string]string{"EXAMPLE_ADDON": exe}})
			var out bytes.Buffer
			runner.WriteText(&out, res)
			if !res.Passed {
				t.Fatalf("scenario failed:\n%s", out.String())
			}
		})
	}
}

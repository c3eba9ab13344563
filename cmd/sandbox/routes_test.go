package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the command tests")

// TestRoutesGolden pins the output of `sandbox routes`: a change to the
// registry table shows up as a diff of testdata/routes.golden (refresh
// with go test ./cmd/sandbox -run TestRoutesGolden -update).
func TestRoutesGolden(t *testing.T) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"routes"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "routes.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("sandbox routes changed; if intended, run with -update. Got:\n%s", out.String())
	}
}

package sandbox_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGoModAsksForTheOldestGoItsDependenciesNeed: every add-on module that
// imports sandboxtest inherits go.mod's go line, so it must ask for no
// more than the code needs. The code needs the language of the newest go
// directive among its dependencies (a patch release adds no language nor
// standard-library API), so the go line is exactly the maximum of the
// dependencies' GoVersion, and a toolchain line, if any, is not older.
func TestGoModAsksForTheOldestGoItsDependenciesNeed(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed to list the module graph: %v", err)
	}
	cmd := exec.Command("go", "list", "-m", "-json", "all")
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -m -json all: %v\n%s", err, stderr.String())
	}
	type module struct {
		Path      string
		Main      bool
		GoVersion string
		GoMod     string
	}
	var main module
	need, needBy := "", ""
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m module
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if m.Main {
			main = m
			continue
		}
		if m.GoVersion != "" && compareGo(m.GoVersion, need) > 0 {
			need, needBy = m.GoVersion, m.Path
		}
	}
	if main.GoMod == "" || need == "" {
		t.Fatalf("no main module or no dependency go version in go list's answer:\n%s", out)
	}
	if main.GoVersion != need {
		t.Errorf("go.mod asks for go %s; the newest need among the dependencies is go %s (%s): set the go line to %s",
			main.GoVersion, need, needBy, need)
	}
	data, err := os.ReadFile(filepath.Clean(main.GoMod))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "toolchain go"); ok && compareGo(v, main.GoVersion) < 0 {
			t.Errorf("go.mod's toolchain go%s is older than its go line %s", v, main.GoVersion)
		}
	}
}

// compareGo compares two release versions such as 1.26 and 1.26.0 by
// their numbers, a missing part counting as 0; "" is older than any.
func compareGo(a, b string) int {
	if a == b {
		return 0
	}
	if b == "" {
		return 1
	}
	if a == "" {
		return -1
	}
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		na, nb := 0, 0
		if i < len(pa) {
			na, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			nb, _ = strconv.Atoi(pb[i])
		}
		if na != nb {
			if na < nb {
				return -1
			}
			return 1
		}
	}
	return 0
}

package sandbox_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/eshop-sandbox/sandbox/"

// layers ranks the folders of the tree (README, Architecture): a package
// imports only packages of its own rank or lower, so the arrows between
// the role folders point one way: tools and clients on top, then the
// wiring and the control plane (app), the emulated platform (shop), what
// every request passes through (core), and the vocabulary (sandbox) at
// the bottom. The longest prefix decides.
var layers = []struct {
	prefix string
	rank   int
}{
	{"sandbox", 0}, // the vocabulary: the package sandbox's own files
	{"sandbox/core/", 1},
	{"sandbox/shop/", 2},
	{"sandbox/app", 3},
	{"sandbox/controlclient", 4},
	{"sandbox/tools/", 5},
	{"sandbox/exampleaddon", 5},
	{"sandbox/sandboxtest", 6},
	{"sandbox/testing/", 7},
	{"tui", 6},
	{"cmd/", 8},
	{"schemas", 0}, {"fixtures", 0}, {"scenarios", 0},
}

// upward are the arrows that still run against the layers, each with
// why; the test fails when one of them is gone, so the list only shrinks.
var upward = map[string]string{}

// program names the program a cmd/ folder belongs to ("cmd/sandbox"), or
// "" outside cmd/.
func program(pkg string) string {
	parts := strings.Split(pkg, "/")
	if len(parts) < 2 || parts[0] != "cmd" {
		return ""
	}
	return parts[0] + "/" + parts[1]
}

func rank(pkg string) (int, bool) {
	best, r := -1, 0
	for _, l := range layers {
		p := strings.TrimSuffix(l.prefix, "/")
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			if len(l.prefix) > best {
				best, r = len(l.prefix), l.rank
			}
		}
	}
	return r, best >= 0
}

// TestArrowsPointOneWay reads every non-test Go file's imports and fails
// on an import of a higher layer, and on a program importing another
// program's package (sandbox test once imported cmd/example-addon/addon).
func TestArrowsPointOneWay(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	seen := map[string]bool{}
	folders := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			folders++
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		isTest := strings.HasSuffix(rel, "_test.go") // only the program rule applies
		pkg := filepath.ToSlash(filepath.Dir(rel))
		from, ok := rank(pkg)
		if !ok {
			t.Errorf("%s: the folder %s has no layer; add it to layers", rel, pkg)
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, modulePath) {
				continue
			}
			to := strings.TrimPrefix(p, modulePath)
			if program(pkg) != "" && program(to) != "" && program(pkg) != program(to) {
				t.Errorf("%s imports %s: a program imports another program's package", rel, to)
			}
			toRank, ok := rank(to)
			if isTest || !ok || toRank <= from {
				continue
			}
			arrow := pkg + " -> " + to
			seen[arrow] = true
			if _, known := upward[arrow]; !known {
				t.Errorf("%s imports %s: layer %d imports layer %d (arrows point from tools down to the vocabulary)", rel, to, from, toRank)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if folders < 40 {
		t.Fatalf("walked only %d folders from %s", folders, root)
	}
	var stale []string
	for a := range upward {
		if !seen[a] {
			stale = append(stale, a)
		}
	}
	sort.Strings(stale)
	for _, a := range stale {
		t.Errorf("the arrow %s is gone: remove it from upward", a)
	}
}

// TestArchitectureNamesEveryPackage: the README's Architecture table names
// every folder that holds a Go package, and nothing that is not one.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	start := strings.Index(text, "\n## Architecture\n")
	if start < 0 {
		t.Fatal("README.md has no Architecture section")
	}
	section := text[start+1:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	named := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first := strings.SplitN(strings.TrimPrefix(line, "|"), "|", 2)[0]
		for _, f := range strings.Split(first, ",") {
			named[strings.Trim(strings.TrimSpace(f), "`")] = true
		}
	}
	if len(named) < 40 {
		t.Fatalf("the Architecture table names only %d folders", len(named))
	}
	have := map[string]bool{}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".go") && !strings.HasSuffix(rel, "_test.go") {
			have[filepath.ToSlash(filepath.Dir(rel))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for dir := range have {
		if !named[dir] {
			t.Errorf("README Architecture: the package folder %s is not in the table", dir)
		}
	}
	for dir := range named {
		if !have[dir] {
			t.Errorf("README Architecture: the table names %s, which holds no Go package", dir)
		}
	}
}

// TestBuildConstraintsNameNoArchitecture: make cross vets once per
// operating system (on amd64), which checks every file only while no
// build constraint or file name picks an architecture.
func TestBuildConstraintsNameNoArchitecture(t *testing.T) {
	arch := regexp.MustCompile(`\b(386|amd64|arm|arm64|loong64|mips\w*|ppc64\w*|riscv64|s390x|wasm)\b`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		name := strings.TrimSuffix(strings.TrimSuffix(d.Name(), ".go"), "_test")
		if parts := strings.Split(name, "_"); len(parts) > 1 && arch.MatchString(parts[len(parts)-1]) {
			t.Errorf("%s: the file name picks an architecture; make cross vets amd64 only", path)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "//go:build ") && arch.MatchString(line) {
				t.Errorf("%s: %q picks an architecture; make cross vets amd64 only", path, line)
			}
			if strings.HasPrefix(line, "package ") {
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

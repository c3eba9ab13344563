package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TestMakeDist: `make dist` writes one archive per system (tar.gz, zip
// for Windows), each holding the program, the README and the pages of
// docs/ it links (docs/<page>.md), and SHA256SUMS
// matching them; the program for this system prints the stamped version.
func TestMakeDist(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is needed: it is what the README and CI run")
	}
	out := t.TempDir()
	mk := exec.Command("make", "--no-print-directory", "dist", "DIST="+out, "VERSION=v0.0.0-dist")
	mk.Dir = filepath.Join("..", "..")
	if msg, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, msg)
	}
	targets := []string{"darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64"}
	var want []string
	for _, tg := range targets {
		ext := ".tar.gz"
		if strings.HasPrefix(tg, "windows") {
			ext = ".zip"
		}
		want = append(want, "sandbox_v0.0.0-dist_"+tg+ext)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if w := sorted(append(append([]string(nil), want...), "SHA256SUMS")...); strings.Join(got, " ") != strings.Join(w, " ") {
		t.Fatalf("dist holds %q, want %q", got, w)
	}
	sums, err := os.ReadFile(filepath.Join(out, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	var wantSums strings.Builder
	for _, n := range want {
		wantSums.WriteString(sha256Hex(t, filepath.Join(out, n)) + "  " + n + "\n")
	}
	if string(sums) != wantSums.String() {
		t.Fatalf("SHA256SUMS:\n%s\nwant:\n%s", sums, wantSums.String())
	}
	var pages []string
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no pages in docs/ (%v)", err)
	}
	for _, d := range docs {
		pages = append(pages, "docs/"+filepath.Base(d))
	}
	for i, n := range want {
		files := readArchive(t, filepath.Join(out, n))
		exe := "sandbox"
		if strings.HasPrefix(targets[i], "windows") {
			exe = "sandbox.exe"
		}
		if names := sortedKeys(files); strings.Join(names, " ") != strings.Join(sorted(append([]string{exe, "README.md"}, pages...)...), " ") {
			t.Errorf("%s holds %q", n, names)
		}
		if files[exe].mode&0o111 == 0 {
			t.Errorf("%s: %s is not executable (%v)", n, exe, files[exe].mode)
		}
	}
	host := runtime.GOOS + "_" + runtime.GOARCH
	for i, tg := range targets {
		if tg != host {
			continue
		}
		files := readArchive(t, filepath.Join(out, want[i]))
		bin := filepath.Join(t.TempDir(), "sandbox")
		if err := os.WriteFile(bin, files["sandbox"].data, 0o755); err != nil {
			t.Fatal(err)
		}
		v, err := exec.Command(bin, "version").Output()
		if err != nil || !strings.HasPrefix(string(v), "sandbox v0.0.0-dist ") {
			t.Fatalf("sandbox version from %s: %q, %v", want[i], v, err)
		}
		return
	}
	t.Fatalf("no archive for this system (%s) to run", host)
}

// TestArchives: both archive kinds keep names, contents and modes, and
// the sums file reads as sha256sum writes it.
func TestArchives(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	doc := filepath.Join(dir, "doc")
	if err := os.WriteFile(bin, []byte("program"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("read me"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.zip", "a.tar.gz"} {
		t.Run(name, func(t *testing.T) {
			dest := filepath.Join(dir, name)
			if err := writeArchive(dest, []file{{"sandbox", bin, 0o755}, {"README.md", doc, 0o644}}); err != nil {
				t.Fatal(err)
			}
			files := readArchive(t, dest)
			if string(files["sandbox"].data) != "program" || files["sandbox"].mode.Perm() != 0o755 ||
				string(files["README.md"].data) != "read me" || files["README.md"].mode.Perm() != 0o644 || len(files) != 2 {
				t.Fatalf("%s holds %+v", name, files)
			}
		})
	}
	if err := writeSums(dir, []string{"a.zip", "a.tar.gz"}); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	want := sha256Hex(t, filepath.Join(dir, "a.tar.gz")) + "  a.tar.gz\n" + sha256Hex(t, filepath.Join(dir, "a.zip")) + "  a.zip\n"
	if string(raw) != want {
		t.Fatalf("SHA256SUMS %q, want %q", raw, want)
	}
	if archiveName("v1", "windows", "amd64") != "sandbox_v1_windows_amd64.zip" || archiveName("v1", "darwin", "arm64") != "sandbox_v1_darwin_arm64.tar.gz" {
		t.Fatal("archive names")
	}
}

type entry struct {
	data []byte
	mode os.FileMode
}

func readArchive(t *testing.T, path string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name] = entry{data, f.Mode()}
		}
		return out
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = entry{data, h.FileInfo().Mode()}
	}
}

func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(raw)
	return hex.EncodeToString(s[:])
}

func sortedKeys(m map[string]entry) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func sorted(s ...string) []string { sort.Strings(s); return s }

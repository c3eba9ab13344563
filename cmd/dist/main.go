// Command dist writes the release archives `make dist` promises: for each
// target (os/arch) the sandbox program built with the version stamped,
// packed with the README and its reference pages (docs/*.md, which the
// README links) into sandbox_<version>_<os>_<arch>.tar.gz (.zip for
// Windows), and SHA256SUMS over them in the format `sha256sum -c`
// and `shasum -a 256 -c` read. It needs nothing but Go.
//
//	go run ./cmd/dist -version v1.2.3 -out dist linux/amd64 windows/amd64
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("dist", flag.ContinueOnError)
	version := fs.String("version", "", "the version stamped into the program and named in the archives")
	out := fs.String("out", "dist", "the folder the archives and SHA256SUMS are written to (emptied first)")
	ldflags := fs.String("ldflags", "", "more linker flags (make passes -X main.version=...)")
	goCmd := fs.String("go", "go", "the go command")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || fs.NArg() == 0 {
		return errors.New("usage: dist -version V [-out DIR] os/arch...")
	}
	if strings.ContainsAny(*version, `/\ `) {
		return fmt.Errorf("version %q: no slashes or spaces in a file name", *version)
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		return err
	}
	sort.Strings(docs)
	stage := filepath.Join(*out, ".build")
	var archives []string
	for _, t := range fs.Args() {
		goos, goarch, ok := strings.Cut(t, "/")
		if !ok || goos == "" || goarch == "" {
			return fmt.Errorf("target %q: want os/arch", t)
		}
		bin := filepath.Join(stage, goos+"_"+goarch, exeName(goos))
		fmt.Printf("build %s/%s\n", goos, goarch)
		build := exec.Command(*goCmd, "build", "-ldflags", strings.TrimSpace("-s -w -X main.version="+*version+" "+*ldflags), "-o", bin, "./cmd/sandbox")
		build.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		build.Stdout, build.Stderr = os.Stdout, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build for %s: %w", t, err)
		}
		name := archiveName(*version, goos, goarch)
		files := []file{{name: exeName(goos), path: bin, mode: 0o755}, {name: "README.md", path: "README.md", mode: 0o644}}
		for _, d := range docs {
			files = append(files, file{name: "docs/" + filepath.Base(d), path: d, mode: 0o644})
		}
		if err := writeArchive(filepath.Join(*out, name), files); err != nil {
			return err
		}
		archives = append(archives, name)
	}
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	if err := writeSums(*out, archives); err != nil {
		return err
	}
	fmt.Printf("%d archives and SHA256SUMS in %s\n", len(archives), *out)
	return nil
}

func exeName(goos string) string {
	if goos == "windows" {
		return "sandbox.exe"
	}
	return "sandbox"
}

// archiveName is sandbox_<version>_<os>_<arch>.tar.gz, .zip for Windows
// (what its own tools unpack).
func archiveName(version, goos, goarch string) string {
	ext := ".tar.gz"
	if goos == "windows" {
		ext = ".zip"
	}
	return "sandbox_" + version + "_" + goos + "_" + goarch + ext
}

// file is one file of an archive: its name there, where it is, its mode.
type file struct {
	name, path string
	mode       os.FileMode
}

// writeArchive writes files into a .zip or .tar.gz, by the name's end.
func writeArchive(dest string, files []file) (err error) {
	f, err := os.Create(dest)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	now := time.Now().UTC().Truncate(time.Second)
	if strings.HasSuffix(dest, ".zip") {
		zw := zip.NewWriter(f)
		for _, in := range files {
			h := &zip.FileHeader{Name: in.name, Method: zip.Deflate, Modified: now}
			h.SetMode(in.mode)
			w, err := zw.CreateHeader(h)
			if err != nil {
				return err
			}
			if err := copyFile(w, in.path); err != nil {
				return err
			}
		}
		return zw.Close()
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, in := range files {
		st, err := os.Stat(in.path)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: in.name, Mode: int64(in.mode), Size: st.Size(), ModTime: now, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		if err := copyFile(tw, in.path); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func copyFile(w io.Writer, path string) error {
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}

// writeSums writes dir/SHA256SUMS: "<hex>  <name>" per archive, by name.
func writeSums(dir string, names []string) error {
	names = append([]string(nil), names...)
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		h := sha256.New()
		if err := copyFile(h, filepath.Join(dir, n)); err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(h.Sum(nil)), n)
	}
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(b.String()), 0o644)
}

package seed_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// writeTree writes files under a temp dir and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func loadDir(t *testing.T, dir string) error {
	t.Helper()
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	st, err := store.Open(store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = l.Load(st)
	return err
}

const (
	goodBrand = `{"code":"b2","name":"Two","guid":"0d7d2c52-64a4-4c9f-9a3f-6c1f0f0d1a02","indexName":"two","showInBrandList":true,"showInCategoriesMenu":false}`
	// badBrand has the same length as goodBrand, so only the checksum
	// or the time tells them apart.
	badBrand = `{"code":"b2","name":12345,"guid":"0d7d2c52-64a4-4c9f-9a3f-6c1f0f0d1a02","indexName":"two","showInBrandList":true,"showInCategoriesMenu":false}`
)

// TestStampSkipsOnlyUnchangedFiles: a start trusts a stamped file that is
// unchanged (it is not checked again: swapping in a broken record behind
// the stamp's back with size and time kept goes unnoticed, which is the
// point of the stamp), and checks again a file whose time or content moved.
func TestStampSkipsOnlyUnchangedFiles(t *testing.T) {
	brands := func(rec string) string { return "[\n" + rec + "\n]\n" }
	dir := writeTree(t, map[string]string{
		"eshops/5/eshop.json":  eshop,
		"eshops/5/brands.json": brands(goodBrand),
	})
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	if _, err := l.Check(dir); err != nil {
		t.Fatal(err)
	}
	if files, err := seed.StampedFiles(os.DirFS(dir)); err != nil || strings.Join(files, ",") != "eshops/5/brands.json" {
		t.Fatalf("stamped %v %v", files, err)
	}
	file := filepath.Join(dir, "eshops/5/brands.json")
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(goodBrand) != len(badBrand) {
		t.Fatal("the test records must have the same length")
	}
	// Same size, same time: trusted, not checked.
	if err := os.WriteFile(file, []byte(brands(badBrand)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := loadDir(t, dir); err != nil {
		t.Fatalf("an unchanged stamped file was checked again: %v", err)
	}
	// Another time and another checksum: checked, and the problem found.
	later := info.ModTime().Add(time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
	if err := loadDir(t, dir); err == nil || !strings.Contains(err.Error(), `brands.json:2: code "b2" does not match`) {
		t.Fatalf("a changed stamped file: %v", err)
	}
	// Another time, same checksum (a copy): still trusted.
	if err := os.WriteFile(file, []byte(brands(goodBrand)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := loadDir(t, dir); err != nil {
		t.Fatal(err)
	}
	// A stamp made against other schemas vouches for nothing.
	stampPath := filepath.Join(dir, seed.StampFile)
	raw, _ := os.ReadFile(stampPath)
	if err := os.WriteFile(file, []byte(brands(badBrand)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	other := bytes.Replace(raw, []byte(`"schemas": "`), []byte(`"schemas": "0`), 1)
	if err := os.WriteFile(stampPath, other, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := loadDir(t, dir); err == nil {
		t.Fatal("a stamp of other schemas was trusted")
	}
}

// TestCheckRefusesAndDoesNotStamp: a folder with a problem gets no stamp.
func TestCheckRefusesAndDoesNotStamp(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"eshops/5/eshop.json":  eshop,
		"eshops/5/brands.json": "[\n" + badBrand + "\n]\n",
	})
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	if _, err := l.Check(dir); err == nil {
		t.Fatal("a broken folder passed the check")
	}
	if _, err := os.Stat(filepath.Join(dir, seed.StampFile)); !os.IsNotExist(err) {
		t.Fatalf("a broken folder was stamped: %v", err)
	}
}

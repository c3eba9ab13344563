package seed_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

// BenchmarkLoadGenerated loads a generated 5,000-product, 5,000-order set
// with full validation: the profile target of start-up with large sets
// (go test -bench LoadGenerated -cpuprofile / -memprofile).
func BenchmarkLoadGenerated(b *testing.B) {
	dir := b.TempDir()
	if _, err := fixturegen.Generate(fixtures.FS, dir, fixturegen.Options{Products: 5000, Orders: 5000, Customers: 1000}); err != nil {
		b.Fatal(err)
	}
	l := loader(b, nil)
	l.FS = os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		st, err := store.Open(store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Load(st); err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// TestGeneratedStamp: the stamp the generator writes without checking
// (seed.WriteStamp) is the stamp a full check writes of the same set, and
// a start on the stamped set loads it.
func TestGeneratedStamp(t *testing.T) {
	dir := t.TempDir()
	if _, err := fixturegen.Generate(fixtures.FS, dir, fixturegen.Options{Products: 300, Orders: 200, Customers: 20, Stamp: true}); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(dir, seed.StampFile))
	if err != nil {
		t.Fatal(err)
	}
	files, err := seed.StampedFiles(os.DirFS(dir))
	if err != nil || !slices.Contains(files, "eshops/1001/products.json") || !slices.Contains(files, "eshops/1001/orders.json") ||
		slices.Contains(files, "eshops/1001/eshop.json") {
		t.Fatalf("stamped %v %v", files, err)
	}
	if err := loadDir(t, dir); err != nil {
		t.Fatalf("a start on the generated set: %v", err)
	}
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	if _, err := l.Check(dir); err != nil {
		t.Fatalf("the generated set does not pass its check: %v", err)
	}
	checked, err := os.ReadFile(filepath.Join(dir, seed.StampFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, checked) {
		t.Fatalf("the generator's stamp:\n%s\nthe check's:\n%s", written, checked)
	}
}

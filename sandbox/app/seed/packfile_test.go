package seed_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

// packedSet generates a small stamped set and packs every collection
// file the stamp vouches for.
func packedSet(t *testing.T) (dir string, packed []string) {
	t.Helper()
	dir = t.TempDir()
	if _, err := fixturegen.Generate(fixtures.FS, dir, fixturegen.Options{Products: 120, Orders: 80, Customers: 10, Stamp: true}); err != nil {
		t.Fatal(err)
	}
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	l.Marks = map[string][]string{"orders": {"pending"}}
	packed, err := l.WritePacks(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(packed, "eshops/1001/products.json") || !slices.Contains(packed, "eshops/1001/orders.json") {
		t.Fatalf("packed %v; want products and orders among them", packed)
	}
	return dir, packed
}

// noReads is a fixture folder that fails the test when a file it names
// is opened (fs.Stat still answers).
type noReads struct {
	fsys   fs.FS
	t      *testing.T
	denied []string
}

func (n noReads) Open(name string) (fs.File, error) {
	if slices.Contains(n.denied, name) {
		n.t.Errorf("%s was read although its pack stands in for it", name)
	}
	return n.fsys.Open(name)
}

func (n noReads) Stat(name string) (fs.FileInfo, error) { return fs.Stat(n.fsys, name) }

// seeded loads fsys into a new in-memory store (packs on or off) and
// returns what it loaded with every seeded record, by collection.
func seeded(t *testing.T, fsys fs.FS, packs bool) (*seed.Summary, map[string]string) {
	t.Helper()
	l := loader(t, nil)
	l.FS, l.Packs = fsys, packs
	l.Marks = map[string][]string{"orders": {"pending"}}
	st, sum := loadInto(t, l, store.Options{})
	return sum, records(t, st)
}

// loadInto loads l into a new store opened with opts (closed when the
// test ends) and fails the test when that does not go.
func loadInto(t *testing.T, l *seed.Loader, opts store.Options) (*store.Store, *seed.Summary) {
	t.Helper()
	st, err := store.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sum, err := l.Load(st)
	if err != nil {
		t.Fatal(err)
	}
	return st, sum
}

func records(t *testing.T, st *store.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	_ = st.View(func(tx *store.Tx) error {
		for _, coll := range []string{"products", "orders", "customers", "invoices", "stocks", "brands"} {
			var b strings.Builder
			_ = tx.Scan(1001, coll, func(id string, doc []byte) bool {
				fmt.Fprintf(&b, "%s %s\n", id, doc)
				return true
			})
			out[coll] = b.String()
		}
		return nil
	})
	return out
}

// TestPacksStandInForTheirFiles: a load with packs reads none of the
// packed JSON files and seeds exactly the records a load of the files
// seeds, in the same order.
func TestPacksStandInForTheirFiles(t *testing.T) {
	dir, packed := packedSet(t)
	fromPacks, got := seeded(t, noReads{fsys: os.DirFS(dir), t: t, denied: packed}, true)
	fromFiles, want := seeded(t, os.DirFS(dir), false)
	if !slices.Equal(fromPacks.Packed, packed) || len(fromFiles.Packed) != 0 {
		t.Fatalf("attached packs: %v with packs, %v without; want %v and none", fromPacks.Packed, fromFiles.Packed, packed)
	}
	if fromPacks.Records != fromFiles.Records {
		t.Fatalf("%d records from packs, %d from files", fromPacks.Records, fromFiles.Records)
	}
	for coll, w := range want {
		if w == "" {
			t.Fatalf("no %s seeded", coll)
		}
		if got[coll] != w {
			t.Errorf("%s from packs differs from the file's records:\n%.300s\nwant\n%.300s", coll, got[coll], w)
		}
	}
}

// TestPacksIgnoredUnlessMadeFromTheFile: a pack is attached only for the
// file it was made from, as the stamp vouches for it; otherwise (file
// changed, pack damaged or cut short, another file's pack, no stamp) the
// file is read and the records are the file's.
func TestPacksIgnoredUnlessMadeFromTheFile(t *testing.T) {
	products := filepath.FromSlash("eshops/1001/products.json")
	pack := func(dir, file string) string {
		return filepath.Join(dir, seed.PackDir, filepath.FromSlash(file)+".pack")
	}
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"the file was edited (same size, new time)", func(t *testing.T, dir string) {
			p := filepath.Join(dir, products)
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.Index(raw, []byte(`"name":"`)) + len(`"name":"`)
			raw[i] ^= 0x20 // the case of the first name's first letter
			if err := os.WriteFile(p, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(p, later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{"the pack is damaged", func(t *testing.T, dir string) {
			raw, err := os.ReadFile(pack(dir, "eshops/1001/products.json"))
			if err != nil {
				t.Fatal(err)
			}
			raw[len(raw)/2] ^= 1
			if err := os.WriteFile(pack(dir, "eshops/1001/products.json"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"the pack is cut short", func(t *testing.T, dir string) {
			if err := os.Truncate(pack(dir, "eshops/1001/products.json"), 1000); err != nil {
				t.Fatal(err)
			}
		}},
		{"the pack is another file's", func(t *testing.T, dir string) {
			raw, err := os.ReadFile(pack(dir, "eshops/1001/orders.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(pack(dir, "eshops/1001/products.json"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"the stamp is gone", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, seed.StampFile)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := packedSet(t)
			tc.change(t, dir)
			sum, got := seeded(t, os.DirFS(dir), true)
			if slices.Contains(sum.Packed, "eshops/1001/products.json") {
				t.Fatalf("the products pack was attached: %v", sum.Packed)
			}
			_, want := seeded(t, os.DirFS(dir), false)
			if got["products"] != want["products"] {
				t.Fatalf("products differ from the file's:\n%.300s\nwant\n%.300s", got["products"], want["products"])
			}
		})
	}
}

// TestPacksNotForADataFile: a store with a data file holds every record
// itself, so packs are not attached there.
func TestPacksNotForADataFile(t *testing.T) {
	dir, _ := packedSet(t)
	l := loader(t, nil)
	l.FS, l.Packs = os.DirFS(dir), true
	st, sum := loadInto(t, l, store.Options{Path: filepath.Join(t.TempDir(), "data.db")})
	_, want := seeded(t, os.DirFS(dir), false)
	if got := records(t, st); len(sum.Packed) != 0 || got["orders"] != want["orders"] {
		t.Fatalf("a data file's load attached %v; orders equal to the file's: %v", sum.Packed, got["orders"] == want["orders"])
	}
}

// TestWritePacksKeepsOnlyCurrentPacks: packs of files that are no longer
// stamped or no longer large enough are removed, and a folder without a
// stamp is refused.
func TestWritePacksKeepsOnlyCurrentPacks(t *testing.T) {
	dir, _ := packedSet(t)
	stray := filepath.Join(dir, seed.PackDir, "eshops", "1001", "gone.json.pack")
	if err := os.WriteFile(stray, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := loader(t, nil)
	l.FS = os.DirFS(dir)
	big, err := l.WritePacks(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	_ = filepath.WalkDir(filepath.Join(dir, seed.PackDir), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(filepath.Join(dir, seed.PackDir), p)
			left = append(left, strings.TrimSuffix(filepath.ToSlash(rel), ".pack"))
		}
		return nil
	})
	slices.Sort(left)
	if !slices.Equal(left, big) || slices.Contains(left, "eshops/1001/brands.json") {
		t.Fatalf("packs left %v; want only the files of at least 1 MiB, %v", left, big)
	}
	if err := os.Remove(filepath.Join(dir, seed.StampFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.WritePacks(dir, 1); err == nil || !strings.Contains(err.Error(), "no stamp") {
		t.Fatalf("WritePacks without a stamp: %v", err)
	}
}

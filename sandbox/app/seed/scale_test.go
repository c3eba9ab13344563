package seed_test

import (
	"os"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
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

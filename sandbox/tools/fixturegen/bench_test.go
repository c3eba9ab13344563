package fixturegen_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

// benchGenerate writes a set of n products and n orders (n/10 customers)
// per iteration: the profile target of `sandbox fixtures generate`
// (go test -bench Generate -cpuprofile).
func benchGenerate(b *testing.B, n int) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fixturegen.Generate(fixtures.FS, b.TempDir(), fixturegen.Options{Products: n, Orders: n, Customers: n / 10}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGenerate5k(b *testing.B) { benchGenerate(b, 5000) }

package fixturegen_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

// BenchmarkGenerate25k writes the 25,000-product, 25,000-order set
// (2,500 customers, stamped, 625 MB) per iteration, as
// `sandbox fixtures generate` does: issue 27 bounds it at 15 s of wall
// clock. It is also the profile target of generation
// (go test -bench Generate25k -cpuprofile).
func BenchmarkGenerate25k(b *testing.B) {
	const n = 25000
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fixturegen.Generate(fixtures.FS, b.TempDir(), fixturegen.Options{Products: n, Orders: n, Customers: n / 10, Stamp: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*n*b.N)/b.Elapsed().Seconds(), "records/s")
}

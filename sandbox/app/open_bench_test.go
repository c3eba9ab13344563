package app_test

import (
	"context"
	"os"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
)

// BenchmarkOpen builds and seeds a sandbox from the embedded fixtures:
// the in-process part of the start-up time (profile it with
// -cpuprofile).
func BenchmarkOpen(b *testing.B) {
	for b.Loop() {
		a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0", Seed: 1}, nil)
		if err != nil {
			b.Fatal(err)
		}
		_ = a.Close(context.Background())
	}
}

// BenchmarkOpenDir is BenchmarkOpen on a fixture folder named by
// SANDBOX_BENCH_FIXTURES (e.g. one made by `sandbox fixtures generate`).
func BenchmarkOpenDir(b *testing.B) {
	dir := os.Getenv("SANDBOX_BENCH_FIXTURES")
	if dir == "" {
		b.Skip("set SANDBOX_BENCH_FIXTURES to a fixture folder")
	}
	for b.Loop() {
		a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0", Seed: 1, Fixtures: os.DirFS(dir), FixturesName: dir}, nil)
		if err != nil {
			b.Fatal(err)
		}
		_ = a.Close(context.Background())
	}
}

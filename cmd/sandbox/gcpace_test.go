package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	tests := []struct {
		live uint64
		want int
	}{
		{0, 400},
		{12 << 20, 400},       // the default fixtures: 4 times the live heap at most
		{16 << 20, 400},       // exactly 64 MiB of headroom
		{32 << 20, 200},       // 64 MiB of headroom
		{64 << 20, 100},       // Go's default from here
		{148 << 20, 100},      // 25,000 products and orders held packed: as before
		{3 << 30, 100},        // a large set in a data file: as before
		{(64 << 20) / 3, 300}, // rounded down
	}
	for _, tc := range tests {
		if got := gcPercent(tc.live, gcHeadroom, gcMaxPercent); got != tc.want {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
}

// TestPaceGC: with no GOGC in the environment, GOGC follows the live
// heap (the widest pace for a small one, Go's default once it is large);
// a GOGC set by the user is left alone.
func TestPaceGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	var live atomic.Uint64
	live.Store(16 << 20)
	read := func() (uint64, bool) { return live.Load(), true }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	paceGCBy(ctx, read, time.Millisecond)
	if got := gogc(); got != gcMaxPercent {
		t.Fatalf("GOGC with 16 MiB live = %d, want %d", got, gcMaxPercent)
	}
	live.Store(1 << 30)
	deadline := time.Now().Add(5 * time.Second)
	for {
		if got := gogc(); got == 100 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GOGC with 1 GiB live = %d, want 100", gogc())
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	debug.SetGCPercent(100)
	t.Setenv("GOGC", "150")
	paceGCBy(context.Background(), read, time.Hour)
	if got := gogc(); got != 100 {
		t.Fatalf("GOGC after paceGC with GOGC=150 set = %d, want the value left alone (100)", got)
	}
}

// gogc reads the collector's GOGC without changing it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

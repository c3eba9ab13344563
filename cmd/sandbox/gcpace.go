package main

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// The collector's pace for a running sandbox. Go collects when the heap
// has grown by GOGC percent over the live heap (100 by default). The
// default fixtures keep a live heap of about 12 MB, and a read allocates
// a few kilobytes, so at 100 the sandbox collected twenty times a second
// under load: about a tenth of its CPU, where the bare net/http server
// it is measured against spends almost nothing. A sandbox with a small
// live heap now lets it grow by up to gcHeadroom before collecting (GOGC
// up to gcMaxPercent: about 60 MB for the default fixtures, collected
// four times a second); one with a live heap of gcHeadroom or more (a
// large fixture set) keeps Go's default, so its memory is what it was.
const (
	gcHeadroom   = 64 << 20
	gcMaxPercent = 400
)

// gcPercent is the GOGC that lets a heap of live bytes grow by about
// headroom before the next collection, between Go's default 100 and max.
func gcPercent(live, headroom uint64, maxPercent int) int {
	if live == 0 {
		return maxPercent
	}
	return min(max(int(headroom*100/live), 100), maxPercent)
}

// paceGC sets GOGC from the live heap now and every second after until
// ctx ends (the live heap grows with what the sandbox stores), changing
// it only when it moves by a tenth or more. A GOGC or GOMEMLIMIT in the
// environment is the user's choice: then it does nothing.
func paceGC(ctx context.Context) { paceGCBy(ctx, liveHeap, time.Second) }

// liveHeap is the heap the last collection found live.
func liveHeap() (uint64, bool) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return sample[0].Value.Uint64(), true
}

func paceGCBy(ctx context.Context, live func() (uint64, bool), every time.Duration) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	cur := 100
	set := func() {
		n, ok := live()
		if !ok {
			return
		}
		p := gcPercent(n, gcHeadroom, gcMaxPercent)
		if d := p - cur; d*10 >= cur || -d*10 >= cur {
			debug.SetGCPercent(p)
			cur = p
		}
	}
	set()
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				set()
			}
		}
	}()
}

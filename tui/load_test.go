package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

func callEvents(from, n int) []traffic.Event {
	evs := make([]traffic.Event, n)
	for i := range evs {
		evs[i] = traffic.Event{Type: traffic.TypeCall, Call: testCall(from+i, "GET", fmt.Sprintf("/api/orders/%d", from+i), 200, 1001)}
	}
	return evs
}

// TestFrameRateCapped checks that events never draw a frame by themselves:
// however many batches arrive, the screen is drawn once per tick, and not
// at all when nothing changed.
func TestFrameRateCapped(t *testing.T) {
	m, _, _, _ := busyModel(t)
	before := m.renders
	for b := 0; b < 200; b++ {
		m.Update(itemsMsg{items: items(nil, callEvents(100+b*50, 50))})
	}
	if m.renders != before {
		t.Fatalf("%d frames drawn for 200 batches before any tick", m.renders-before)
	}
	m.Update(tickMsg(t0))
	if m.renders != before+1 || !strings.Contains(m.View(), "/api/orders/10099") {
		t.Fatalf("one tick drew %d frames; newest shown: %v", m.renders-before, strings.Contains(m.View(), "/api/orders/10099"))
	}
	m.Update(tickMsg(t0))
	if m.renders != before+1 {
		t.Fatal("a tick without changes drew a frame")
	}
}

// TestHistoryBoundedUnderLoad feeds a hundred thousand calls to a UI that
// keeps 500: memory stays bounded, the totals stay exact, and the frame
// shows the newest call.
func TestHistoryBoundedUnderLoad(t *testing.T) {
	src := newFakeSource()
	m := New(Options{Source: src, History: 500, Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	m.Update(sizeMsg(80, 24))
	start := time.Now()
	for b := 0; b < 100; b++ {
		m.Update(itemsMsg{items: items(nil, callEvents(b*1000, 1000))})
		if b%5 == 0 {
			m.Update(tickMsg(t0)) // 20 frames per 100k events ~ 1000 events a frame
		}
	}
	m.Update(tickMsg(t0))
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("100k events took %v", took)
	}
	if m.hist.calls.len() != 500 || m.counts.calls != 100000 {
		t.Fatalf("kept %d, counted %d", m.hist.calls.len(), m.counts.calls)
	}
	if !strings.Contains(m.View(), "/api/orders/99999") || !strings.Contains(m.View(), "calls 100000") {
		t.Fatalf("frame:\n%s", m.View())
	}
}

// TestPausedBacklogBounded checks that a paused UI keeps at most its
// history size of waiting events and counts the rest as dropped.
func TestPausedBacklogBounded(t *testing.T) {
	src := newFakeSource()
	src.dropped.Store(7) // what the source itself lost
	m := New(Options{Source: src, History: 10, Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	m.Update(sizeMsg(80, 24))
	press(m, "p")
	m.Update(itemsMsg{items: items(nil, callEvents(1, 100))})
	m.Update(tickMsg(t0))
	if len(m.pending) != 10 || m.uiDropped != 90 || !strings.Contains(m.View(), "dropped 97") {
		t.Fatalf("pending %d dropped %d\n%s", len(m.pending), m.uiDropped, m.View())
	}
	press(m, "p")
	if m.hist.calls.len() != 10 || !strings.Contains(m.View(), "/api/orders/100") {
		t.Fatalf("after resume:\n%s", m.View())
	}
}

// TestBusSourceNeverBlocks publishes a flood on the bus while the UI reads
// nothing: publishing stays fast, the source counts what it dropped, and
// it still delivers the info first and the newest events after.
func TestBusSourceNeverBlocks(t *testing.T) {
	b := bus.New()
	src := NewBusSource(b, func() traffic.Info { return *testInfo() }, 64)
	start := time.Now()
	const n = 20000
	for i := 0; i < n; i++ {
		b.Emit(bus.TopicCall, &bus.Call{ID: fmt.Sprint(i), Status: 200})
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("publishing %d events with a stalled UI took %v", n, took)
	}
	if d := src.Dropped(); d < n-64-1 {
		t.Fatalf("dropped %d, want at least %d", d, n-65)
	}
	first := <-src.Items()
	if first.Info == nil {
		t.Fatalf("first item %+v", first)
	}
	var last *traffic.Event
	deadline := time.After(5 * time.Second)
	for last == nil || last.Call.ID != fmt.Sprint(n-1) {
		select {
		case it := <-src.Items():
			last = it.Event
		case <-deadline:
			t.Fatalf("newest event never arrived; last %+v", last)
		}
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	if _, open := <-src.Items(); open {
		t.Fatal("items not closed")
	}
}

// BenchmarkIngest measures taking one event into the UI.
func BenchmarkIngest(b *testing.B) {
	m := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	evs := items(nil, callEvents(0, 1000))
	b.ResetTimer()
	for i := 0; i < b.N; i += len(evs) {
		m.Update(itemsMsg{items: evs})
	}
}

// BenchmarkRender measures one frame of a full 120x40 calls table.
func BenchmarkRender(b *testing.B) {
	m := New(Options{Source: newFakeSource(), Now: func() time.Time { return t0 }, Renderer: plainRenderer()})
	m.Update(sizeMsg(120, 40))
	m.Update(itemsMsg{items: items(testInfo(), callEvents(0, 1000))})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.render()
	}
}

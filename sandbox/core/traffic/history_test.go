package traffic

import (
	"fmt"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

func callEvent(id string) Event { return Event{Type: TypeCall, Call: &bus.Call{ID: id}} }
func deliveryEvent(id string) Event {
	return Event{Type: TypeDelivery, Delivery: &bus.Delivery{ID: id}}
}

// TestHistoryBounded checks that each ring keeps only its newest events,
// that a flood of calls leaves the deliveries alone, and that snapshots
// merge both in order and honour since and limit.
func TestHistoryBounded(t *testing.T) {
	h := newHistory(3)
	h.add(deliveryEvent("d1"))
	for i := 1; i <= 10; i++ {
		h.add(callEvent(fmt.Sprint("c", i)))
	}
	h.add(Event{Type: TypeClock, Clock: &bus.ClockMove{}}) // passed on, not kept
	h.add(deliveryEvent("d2"))
	ids := func(evs []Event) string {
		s := ""
		for _, ev := range evs {
			if ev.Call != nil {
				s += ev.Call.ID + " "
			} else {
				s += ev.Delivery.ID + " "
			}
		}
		return s
	}
	tests := []struct {
		since int64
		limit int
		want  string
	}{
		{0, 0, "d1 c8 c9 c10 d2 "},
		{0, 2, "c10 d2 "},
		{10, 0, "c10 d2 "},
		{13, 0, ""},
		{99, 0, "d1 c8 c9 c10 d2 "}, // a seq from another run: start over
	}
	for _, tc := range tests {
		if got := ids(h.snapshot(tc.since, tc.limit)); got != tc.want {
			t.Errorf("since %d limit %d: %q, want %q", tc.since, tc.limit, got, tc.want)
		}
	}
	if evs := h.snapshot(0, 0); evs[0].Seq != 1 || evs[len(evs)-1].Seq != 13 {
		t.Fatalf("seqs %d..%d", evs[0].Seq, evs[len(evs)-1].Seq)
	}
}

// TestStreamDropsInsteadOfWaiting checks the rule that keeps the server
// fast: a stream that does not read loses events (counted) and add never
// waits for it.
func TestStreamDropsInsteadOfWaiting(t *testing.T) {
	h := newHistory(10)
	h.add(callEvent("before"))
	past, s := h.watch(2, 0, 0)
	if len(past) != 1 || past[0].Call.ID != "before" {
		t.Fatalf("past: %v", past)
	}
	for i := 0; i < 50; i++ {
		h.add(callEvent(fmt.Sprint(i))) // would deadlock if add waited
	}
	if got := s.dropped.Load(); got != 48 {
		t.Fatalf("dropped %d, want 48", got)
	}
	if ev := <-s.ch; ev.Call.ID != "0" {
		t.Fatalf("first queued %s", ev.Call.ID)
	}
	h.closeStreams()
	select {
	case <-s.done:
	default:
		t.Fatal("stream not ended")
	}
	if _, late := h.watch(2, 0, 0); late == nil {
		t.Fatal("nil stream")
	} else {
		select {
		case <-late.done:
		default:
			t.Fatal("a stream opened after shutdown must end at once")
		}
	}
}

// TestTranslatorJoinsFaults checks that a fault published while a request
// runs lands on that request's call, without touching the shared payload.
func TestTranslatorJoinsFaults(t *testing.T) {
	tr := NewTranslator()
	if _, ok := tr.Translate(bus.Message{Topic: bus.TopicFault, Data: bus.Fault{Name: "slow-orders", RequestID: "r1"}}); ok {
		t.Fatal("a fault is not an event of its own")
	}
	shared := &bus.Call{ID: "r1"}
	ev, ok := tr.Translate(bus.Message{Topic: bus.TopicCall, Data: shared})
	if !ok || ev.Call.Fault != "slow-orders" || shared.Fault != "" {
		t.Fatalf("joined %+v, shared %+v", ev.Call, shared)
	}
	if ev, _ := tr.Translate(bus.Message{Topic: bus.TopicCall, Data: bus.Call{ID: "r1"}}); ev.Call.Fault != "" {
		t.Fatal("a fault joins one call only")
	}
	for _, m := range []bus.Message{
		{Topic: bus.TopicDelivery, Data: bus.Delivery{ID: "d"}},
		{Topic: bus.TopicDelivery, Data: &bus.Delivery{ID: "d"}},
		{Topic: bus.TopicClock, Data: bus.ClockMove{}},
	} {
		if _, ok := tr.Translate(m); !ok {
			t.Errorf("%s %T not translated", m.Topic, m.Data)
		}
	}
	for _, m := range []bus.Message{{Topic: bus.TopicEvent}, {Topic: bus.TopicJob, Data: bus.JobChange{}}, {Topic: bus.TopicCall, Data: "junk"}} {
		if _, ok := tr.Translate(m); ok {
			t.Errorf("%s %T translated", m.Topic, m.Data)
		}
	}
	for i := 0; i < faultMemory+10; i++ {
		tr.Translate(bus.Message{Topic: bus.TopicFault, Data: &bus.Fault{Name: "f", RequestID: fmt.Sprint(i)}})
	}
	if len(tr.faults) > faultMemory {
		t.Fatalf("fault memory grew to %d", len(tr.faults))
	}
}

// TestQueuedNotifications checks that a queued notification becomes a
// "queued" event kept with the delivery attempts (a viewer attaching later
// still sees what waits) and left out of the HAR, which lists only
// requests really sent.
func TestQueuedNotifications(t *testing.T) {
	ev, ok := NewTranslator().Translate(bus.Message{Topic: bus.TopicQueued, Data: bus.Delivery{ID: "7", Attempt: 1}})
	if !ok || ev.Type != TypeQueued || ev.Delivery == nil || ev.Delivery.ID != "7" {
		t.Fatalf("translated %+v %v", ev, ok)
	}
	h := newHistory(3)
	h.add(ev)
	h.add(deliveryEvent("7"))
	snap := h.snapshot(0, 0)
	if len(snap) != 2 || snap[0].Type != TypeQueued || snap[1].Type != TypeDelivery {
		t.Fatalf("history %+v", snap)
	}
	har := BuildHAR(snap, HAROptions{})
	if len(har.Log.Entries) != 1 || har.Log.Entries[0].DeliveryID != "7" {
		t.Fatalf("HAR entries %+v", har.Log.Entries)
	}
}

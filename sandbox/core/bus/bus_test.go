package bus

import (
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

func TestHooksSeeEverythingInOrder(t *testing.T) {
	b := New()
	var got []string
	b.Hook(func(m Message) { got = append(got, m.Event.Instance) })
	b.Publish(sandbox.Event{Kind: "order:create", Instance: "1"}, sandbox.Event{Kind: "order:create", Instance: "2"})
	b.Publish(sandbox.Event{Kind: "order:update", Instance: "3"})
	if len(got) != 3 || got[0] != "1" || got[2] != "3" {
		t.Fatalf("got %v", got)
	}
}

func TestSlowSubscriberDropsOldestNeverBlocks(t *testing.T) {
	b := New()
	s := b.Subscribe(4)
	done := make(chan struct{})
	go func() {
		for i := 0; i < 100; i++ {
			b.Emit(TopicCall, i)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("publishing blocked on a slow subscriber")
	}
	if s.Dropped() != 96 {
		t.Fatalf("dropped %d, want 96", s.Dropped())
	}
	for want := 96; want < 100; want++ {
		m := <-s.C()
		if m.Data.(int) != want {
			t.Fatalf("got %v, want the newest messages in order (%d)", m.Data, want)
		}
	}
	s.Close()
	if _, ok := <-s.C(); ok {
		t.Fatal("channel not closed")
	}
	b.Emit(TopicCall, 1) // no panic after close
}

func TestConcurrentPublishers(t *testing.T) {
	b := New()
	var mu sync.Mutex
	n := 0
	b.Hook(func(Message) { mu.Lock(); n++; mu.Unlock() })
	s := b.Subscribe(10)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				b.Publish(sandbox.Event{Kind: "x"})
			}
		}()
	}
	wg.Wait()
	if n != 1600 {
		t.Fatalf("hook saw %d of 1600", n)
	}
	if got := int64(len(s.C())) + s.Dropped(); got != 1600 {
		t.Fatalf("subscription accounted for %d of 1600", got)
	}
}

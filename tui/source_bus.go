package tui

import (
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

// BusSource feeds the UI from the bus of a sandbox in the same process
// (`sandbox up` in a terminal). Its lossy subscription is the only buffer:
// when the UI falls behind, the oldest events are dropped and counted,
// and the server never waits.
type BusSource struct {
	sub   *bus.Subscription
	items chan Item
	done  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

// NewBusSource subscribes to b with room for buffer events; info
// describes the sandbox and is sent first.
func NewBusSource(b *bus.Bus, info func() traffic.Info, buffer int) *BusSource {
	s := &BusSource{sub: b.Subscribe(buffer), items: make(chan Item), done: make(chan struct{})}
	s.wg.Add(1)
	go s.run(info)
	return s
}

func (s *BusSource) run(info func() traffic.Info) {
	defer s.wg.Done()
	defer close(s.items)
	in := info()
	if !s.send(Item{Info: &in}) {
		return
	}
	tr := traffic.NewTranslator()
	var seq int64
	for m := range s.sub.C() {
		ev, ok := tr.Translate(m)
		if !ok {
			continue
		}
		seq++
		ev.Seq = seq
		if !s.send(Item{Event: &ev}) {
			return
		}
	}
}

func (s *BusSource) send(it Item) bool {
	select {
	case s.items <- it:
		return true
	case <-s.done:
		return false
	}
}

// Items implements Source.
func (s *BusSource) Items() <-chan Item { return s.items }

// Dropped implements Source.
func (s *BusSource) Dropped() int64 { return s.sub.Dropped() }

// Close implements Source.
func (s *BusSource) Close() error {
	s.once.Do(func() {
		close(s.done)
		s.sub.Close()
	})
	s.wg.Wait()
	return nil
}

// Package bus is the sandbox's in-memory event bus. It carries domain
// events (the webhook triggers stores emit after a commit) and telemetry
// (API calls, webhook deliveries, job state changes, applied faults) to
// whoever listens: the webhook dispatcher, the terminal UI, the traffic
// stream, the contract report.
//
// Publishing never blocks a request. Lossless consumers register a Hook,
// a function that must return at once (typically appending to its own
// queue). Lossy consumers Subscribe with a bounded buffer; when they fall
// behind, the oldest messages are dropped and counted.
package bus

import (
	"sync"
	"sync/atomic"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Topics of messages on the bus.
const (
	TopicEvent    = "event"    // a domain event; Event is set
	TopicCall     = "call"     // an API call finished; Data is the traffic record
	TopicDelivery = "delivery" // a webhook delivery attempt; Data is the attempt
	TopicJob      = "job"      // a job changed state
	TopicFault    = "fault"    // a scripted fault was applied
	TopicClock    = "clock"    // the sandbox clock was moved
	TopicPayment  = "payment"  // a payment result was stored or an order status set by a call; Data is a *PaymentStep

	// TopicQueued: a webhook notification was queued (new, replayed, or
	// resumed from a data file) and waits for its attempt; Data is a
	// Delivery without an answer, Attempt the one it waits for.
	TopicQueued = "delivery.queued"
)

// Message is one item on the bus.
type Message struct {
	Topic string
	Event *sandbox.Event // TopicEvent
	Data  any            // telemetry payload
}

// Bus fans messages out to hooks and subscriptions.
type Bus struct {
	mu    sync.RWMutex
	hooks []func(Message)
	subs  map[*Subscription]struct{}
}

// New returns an empty bus.
func New() *Bus { return &Bus{subs: map[*Subscription]struct{}{}} }

// Publish implements sandbox.Publisher: committed domain events go out as
// TopicEvent messages, in order.
func (b *Bus) Publish(events ...sandbox.Event) {
	for i := range events {
		ev := events[i]
		b.Send(Message{Topic: TopicEvent, Event: &ev})
	}
}

// Emit sends a telemetry message.
func (b *Bus) Emit(topic string, data any) { b.Send(Message{Topic: topic, Data: data}) }

// Send delivers a message to every hook (synchronously) and subscription
// (without blocking).
func (b *Bus) Send(m Message) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, h := range b.hooks {
		h(m)
	}
	for s := range b.subs {
		s.offer(m)
	}
}

// Hook registers a lossless consumer. fn runs on the publisher's goroutine
// and must not block or call back into the bus.
func (b *Bus) Hook(fn func(Message)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hooks = append(b.hooks, fn)
}

// Subscribe registers a lossy consumer with room for buffer messages.
func (b *Bus) Subscribe(buffer int) *Subscription {
	if buffer < 1 {
		buffer = 1
	}
	s := &Subscription{ch: make(chan Message, buffer), bus: b}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Subscription is a lossy consumer's view of the bus.
type Subscription struct {
	ch      chan Message
	bus     *Bus
	dropped atomic.Int64
	mu      sync.Mutex // serialises offer so drop-oldest stays ordered
	closed  bool
}

// C is the channel to receive from; it is closed by Close.
func (s *Subscription) C() <-chan Message { return s.ch }

// Dropped is how many messages this subscriber lost by falling behind.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

func (s *Subscription) offer(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	for {
		select {
		case s.ch <- m:
			return
		default:
		}
		select {
		case <-s.ch:
			s.dropped.Add(1)
		default:
		}
	}
}

// Close unsubscribes and closes C.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	delete(s.bus.subs, s)
	s.bus.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}

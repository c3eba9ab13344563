package traffic

import (
	"sync"
	"sync/atomic"
)

// ring keeps the newest events of one type, oldest first.
type ring struct {
	buf   []Event
	start int
	n     int
}

func (r *ring) push(ev Event) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = ev
		r.n++
		return
	}
	r.buf[r.start] = ev
	r.start = (r.start + 1) % len(r.buf)
}

func (r *ring) at(i int) Event { return r.buf[(r.start+i)%len(r.buf)] }

// history is the bounded memory of calls and delivery attempts, and the
// fan-out to live streams. Calls and deliveries have a ring each, so a
// flood of calls does not push the few webhook attempts out.
type history struct {
	mu         sync.Mutex
	seq        int64
	calls      ring
	deliveries ring
	streams    map[*stream]struct{}
	closed     bool
}

func newHistory(size int) *history {
	return &history{calls: ring{buf: make([]Event, size)}, deliveries: ring{buf: make([]Event, size)}, streams: map[*stream]struct{}{}}
}

// stream is one live reader: a bounded queue and what it lost.
type stream struct {
	ch      chan Event
	dropped atomic.Int64
	done    chan struct{} // closed when the tap stops or the server shuts down
	once    sync.Once
}

func (s *stream) end() { s.once.Do(func() { close(s.done) }) }

// add numbers ev, keeps it (clock moves are only passed on) and offers it
// to every stream without waiting: a full stream loses it.
func (h *history) add(ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	ev.Seq = h.seq
	switch ev.Type {
	case TypeCall:
		h.calls.push(ev)
	case TypeDelivery, TypeQueued:
		h.deliveries.push(ev)
	}
	for s := range h.streams {
		select {
		case s.ch <- ev:
		default:
			s.dropped.Add(1)
		}
	}
}

// snapshot merges both rings in sequence order: the events after since,
// at most limit of the newest (0: no limit).
func (h *history) snapshot(since int64, limit int) []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.snapshotLocked(since, limit)
}

func (h *history) snapshotLocked(since int64, limit int) []Event {
	if since > h.seq {
		since = 0 // a seq this run never gave out: the client saw another run
	}
	out := make([]Event, 0, h.calls.n+h.deliveries.n)
	i, j := 0, 0
	for i < h.calls.n || j < h.deliveries.n {
		var ev Event
		switch {
		case j >= h.deliveries.n || (i < h.calls.n && h.calls.at(i).Seq < h.deliveries.at(j).Seq):
			ev = h.calls.at(i)
			i++
		default:
			ev = h.deliveries.at(j)
			j++
		}
		if ev.Seq > since {
			out = append(out, ev)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// watch registers a stream and returns, atomically with it, the retained
// events it should see first, so nothing falls between history and live.
func (h *history) watch(buffer int, since int64, limit int) ([]Event, *stream) {
	s := &stream{ch: make(chan Event, buffer), done: make(chan struct{})}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		s.end()
		return nil, s
	}
	h.streams[s] = struct{}{}
	return h.snapshotLocked(since, limit), s
}

func (h *history) unwatch(s *stream) {
	h.mu.Lock()
	delete(h.streams, s)
	h.mu.Unlock()
}

// closeStreams ends every stream, now and later: the server is going away.
func (h *history) closeStreams() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for s := range h.streams {
		s.end()
	}
}

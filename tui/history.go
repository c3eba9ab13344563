package tui

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// ring keeps the newest values, oldest first.
type ring[T any] struct {
	buf   []T
	start int
	n     int
}

func newRing[T any](size int) ring[T] { return ring[T]{buf: make([]T, size)} }

func (r *ring[T]) push(v T) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % len(r.buf)
}

func (r *ring[T]) len() int   { return r.n }
func (r *ring[T]) at(i int) T { return r.buf[(r.start+i)%len(r.buf)] }

// callRow is a recorded call and its place in the feed.
type callRow struct {
	seq int64
	c   *bus.Call
}

// attemptRow is a webhook delivery attempt, or a notification queued for
// one (no answer yet), and its place in the feed.
type attemptRow struct {
	seq    int64
	d      *bus.Delivery
	queued bool
}

// history is what the UI remembers: the newest calls and attempts,
// each bounded, numbered in arrival order.
type history struct {
	seq      int64
	calls    ring[callRow]
	attempts ring[attemptRow]
	eshops   map[int]bool // e-shops seen in calls, for the e-shop filter
}

func newHistory(size int) *history {
	return &history{calls: newRing[callRow](size), attempts: newRing[attemptRow](size), eshops: map[int]bool{}}
}

func (h *history) addCall(c *bus.Call) {
	h.seq++
	h.calls.push(callRow{seq: h.seq, c: c})
	if c.Eshop != 0 {
		h.eshops[c.Eshop] = true
	}
	if isReset(c) {
		h.dropQueued()
	}
}

// isReset reports a reset of the sandbox that went through.
func isReset(c *bus.Call) bool {
	return c.Operation == opReset && c.Status >= 200 && c.Status < 300
}

// opReset is the operation of POST /_sandbox/reset, as the sandbox's
// pipeline names it on every call it publishes.
const opReset = "sandbox.reset"

// dropQueued forgets the notifications still waiting for an attempt: a
// reset emptied the webhook queues, so they will never be sent, and rows
// left "queued" would wait forever. Attempts made stay.
func (h *history) dropQueued() {
	kept := newRing[attemptRow](len(h.attempts.buf))
	for i := 0; i < h.attempts.len(); i++ {
		if a := h.attempts.at(i); !a.queued {
			kept.push(a)
		}
	}
	h.attempts = kept
}

func (h *history) addAttempt(d *bus.Delivery, queued bool) {
	h.seq++
	h.attempts.push(attemptRow{seq: h.seq, d: d, queued: queued})
}

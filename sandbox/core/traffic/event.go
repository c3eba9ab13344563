// Package traffic is the sandbox's traffic tap. Its middleware wraps
// every request (API, control plane, e-shop pages) and publishes what it
// saw as a bus.Call; a lossy bus subscription feeds a bounded history of
// calls and webhook delivery attempts. The control plane serves that
// history as JSON (GET /_sandbox/traffic), as a live Server-Sent Events
// stream (GET /_sandbox/traffic?follow=1) and as HAR 1.2
// (GET /_sandbox/traffic.har). The terminal UI reads the same events,
// in-process from the bus or attached through the stream.
//
// Recording never slows the server: the middleware only copies what
// passes through (bodies capped), publishing is non-blocking, and every
// slow reader loses events (counted) instead of holding a request up.
package traffic

import (
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// Event types, as named in the stream's "event:" lines and Event.Type.
const (
	TypeCall     = "call"     // Call is set
	TypeDelivery = "delivery" // Delivery is set
	TypeQueued   = "queued"   // Delivery is set: a notification waiting for its attempt (no answer yet)
	TypeClock    = "clock"    // Clock is set
)

// Event is one recorded item: the unit of the history, the stream and
// the terminal UI's feed.
type Event struct {
	// Seq orders events; it grows by one per recorded event and is the
	// stream's event id (so a reconnecting client resumes after it).
	Seq      int64          `json:"seq"`
	Type     string         `json:"type"`               // call, delivery, queued or clock: which of the fields below is set
	Call     *bus.Call      `json:"call,omitempty"`     // an API or control-plane call
	Delivery *bus.Delivery  `json:"delivery,omitempty"` // a webhook attempt, or a queued notification
	Clock    *bus.ClockMove `json:"clock,omitempty"`    // a move of the sandbox clock
}

// Info describes the sandbox a traffic feed comes from: what the terminal
// UI's status bar shows. It is the first message of every stream.
type Info struct {
	// Boot identifies this run of the sandbox: a client resuming a stream
	// (since) from another run must start over, as seqs restart at 1.
	Boot    string        `json:"boot"`
	BaseURL string        `json:"baseUrl"` // the sandbox's address
	Eshops  []EshopInfo   `json:"eshops"`  // the e-shops with tokens to call them
	Now     time.Time     `json:"now"`     // sandbox clock when the info was taken
	Offset  time.Duration `json:"offset"`  // how far the sandbox clock is from the wall clock (ns)
	// Dropped counts events the tap lost so far (the history feed
	// fell behind); a stream adds its own losses in "dropped" messages.
	Dropped int64 `json:"dropped"`
	History int   `json:"history"` // calls (and deliveries) the history keeps
}

// EshopInfo is one e-shop with the credentials to call it.
type EshopInfo struct {
	ID     int         `json:"id"`     // the e-shop's id
	Name   string      `json:"name"`   // its name
	URL    string      `json:"url"`    // its address ({eshop_url})
	Tokens []TokenInfo `json:"tokens"` // tokens to call it
	Addons []string    `json:"addons"` // its add-ons' names
}

// TokenInfo is a usable token and the header it goes in.
type TokenInfo struct {
	Header string `json:"header"` // the header the token goes in
	Token  string `json:"token"`  // the token
	Label  string `json:"label"`  // what the token is, e.g. private (all rights) or an add-on's
}

// faultMemory bounds how many applied faults wait for their call.
const faultMemory = 1024

// Translator turns bus messages into Events. It also joins a scripted
// fault (bus.TopicFault, published while the request runs) onto the call
// it was applied to (published when the request ends), so a call row can
// show its fault whichever package applied it. Not safe for concurrent
// use: one per consumer goroutine.
type Translator struct {
	faults map[string]string // request id -> fault name
	order  []string
}

// NewTranslator returns an empty translator.
func NewTranslator() *Translator { return &Translator{faults: map[string]string{}} }

// Translate converts m; ok is false for messages that are not traffic
// (domain events, job changes) and for faults, which are only remembered.
// Payloads may be values or pointers. The returned event never aliases a
// payload it had to change, since other subscribers share it.
func (t *Translator) Translate(m bus.Message) (ev Event, ok bool) {
	switch m.Topic {
	case bus.TopicCall:
		c := m.Call()
		if c == nil {
			return ev, false
		}
		if name, found := t.faults[c.ID]; found && c.Fault == "" {
			cp := *c
			cp.Fault = name
			c = &cp
			delete(t.faults, c.ID)
		}
		return Event{Type: TypeCall, Call: c}, true
	case bus.TopicDelivery:
		d := m.Delivery()
		if d == nil {
			return ev, false
		}
		return Event{Type: TypeDelivery, Delivery: d}, true
	case bus.TopicQueued:
		d := m.Delivery()
		if d == nil {
			return ev, false
		}
		return Event{Type: TypeQueued, Delivery: d}, true
	case bus.TopicClock:
		var c *bus.ClockMove
		switch v := m.Data.(type) {
		case bus.ClockMove:
			c = &v
		case *bus.ClockMove:
			c = v
		}
		if c == nil {
			return ev, false
		}
		return Event{Type: TypeClock, Clock: c}, true
	case bus.TopicFault:
		var f *bus.Fault
		switch v := m.Data.(type) {
		case bus.Fault:
			f = &v
		case *bus.Fault:
			f = v
		}
		if f != nil && f.RequestID != "" {
			t.remember(f.RequestID, f.Name)
		}
	}
	return ev, false
}

func (t *Translator) remember(id, name string) {
	if _, dup := t.faults[id]; !dup {
		t.order = append(t.order, id)
	}
	t.faults[id] = name
	for len(t.order) > faultMemory {
		delete(t.faults, t.order[0])
		t.order = t.order[1:]
	}
}

// Package tui is the sandbox's terminal UI: a live table of the calls the
// sandbox answers and the webhooks it sends, a detail pane, filters, and
// actions through the control plane. It is a bubbletea v1 program that
// reads only a Source, so `sandbox up` (in-process, from the bus) and
// `sandbox tui` (attached, from the traffic stream) look the same.
//
// It stays smooth under load: the history is bounded, the screen is
// redrawn at most 20 times a second, and events that arrive faster than
// the UI takes them are dropped (and counted) by the source, never
// delaying a request.
package tui

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

// Item is one thing a Source delivers; exactly one field is set.
type Item struct {
	Info  *traffic.Info  // the sandbox described (again, after a reconnect)
	Event *traffic.Event // a call, a webhook attempt, a clock move
	Err   error          // the feed is interrupted (attached mode retries)
}

// Source is where the UI's traffic comes from.
type Source interface {
	// Items is the feed; it is closed when the source ends.
	Items() <-chan Item
	// Dropped counts events lost before they reached the UI.
	Dropped() int64
	// Close stops the feed.
	Close() error
}

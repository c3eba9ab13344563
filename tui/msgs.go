package tui

import "time"

// itemsMsg is a batch read from the source: under load the UI takes
// everything queued at once instead of one message per event.
type itemsMsg struct {
	items  []Item
	closed bool // the source ended after these
}

// tickMsg paces redraws (at most one per tick) and the status bar clock.
type tickMsg time.Time

// actionMsg reports how a control-plane action went.
type actionMsg struct {
	what string // what was done, for the message line
	err  error
	// maintenance is set by the maintenance toggle: the state now in force.
	maintenance *bool
}

// clipboardMsg reports a copy: where the text went, or why it did not.
type clipboardMsg struct {
	where string
	err   error
}

// flashTTL is how long a message stays on the message line.
const flashTTL = 6 * time.Second

// frameInterval caps the frame rate at 20 per second.
const frameInterval = 50 * time.Millisecond

// maxBatch bounds one itemsMsg so a flood cannot stall key handling.
const maxBatch = 2048

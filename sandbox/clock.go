package sandbox

import (
	"sync"
	"time"
)

// Clock is the one source of time for the whole sandbox. Token expiry,
// OAuth code validity, job durations, file retention and the rate bucket
// all ask it, so tests and scenarios can move time instead of sleeping.
type Clock struct {
	mu     sync.RWMutex
	offset time.Duration // added to the wall clock while running
	frozen *time.Time    // when set, time stands still at this instant
	wall   func() time.Time
}

// NewClock returns a clock that follows the wall clock until moved.
func NewClock() *Clock { return &Clock{wall: time.Now} }

// NewFrozenClock returns a clock standing still at t; it moves only when
// advanced or set. Tests use it for reproducible output.
func NewFrozenClock(t time.Time) *Clock {
	c := NewClock()
	c.frozen = &t
	return c
}

// Now returns the sandbox's current time.
func (c *Clock) Now() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.frozen != nil {
		return *c.frozen
	}
	return c.wall().Add(c.offset)
}

// Advance moves the clock forward by d (negative d moves it back).
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		t := c.frozen.Add(d)
		c.frozen = &t
		return t
	}
	c.offset += d
	return c.wall().Add(c.offset)
}

// Set moves the clock to t; a running clock keeps running from there.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen != nil {
		c.frozen = &t
		return
	}
	c.offset = t.Sub(c.wall())
}

// Offset reports how far the clock has been moved from the wall clock;
// the TUI's status bar shows it.
func (c *Clock) Offset() time.Duration {
	return c.Now().Sub(c.wall())
}

// TimeFormat is the service's date-time layout: no colon in the offset.
const TimeFormat = "2006-01-02T15:04:05-0700"

// FormatTime renders t in the service's date-time layout.
func FormatTime(t time.Time) string { return t.Format(TimeFormat) }

// ParseTime reads a date-time in the service's layout, also accepting
// RFC 3339 because people type that in control-plane calls.
func ParseTime(s string) (time.Time, error) {
	if t, err := time.Parse(TimeFormat, s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

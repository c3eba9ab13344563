package scenario

import (
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// InFlightMargin is how long after an answer a call on another connection
// of the same client may still have been sent before the client read that
// answer. Calls are recorded when they end, so a concurrent call that
// started before a 429 was answered is recorded after it; and a call that
// reaches the sandbox just after the answer went out may have left the
// client before the answer arrived (a second thread, a scheduler, a busy
// machine). A call on the same connection as the answer was certainly sent
// after it was read: HTTP/1.1 sends one request at a time per connection.
const InFlightMargin = 100 * time.Millisecond

// answerMark is the earliest moment a client could know an answer: its
// connection and when the sandbox had finished answering.
type answerMark struct {
	conn string
	at   time.Time
}

// markOf is the answer mark of a recorded call. Calls recorded without a
// wall-clock reception time (Received) fall back to the sandbox clock.
func markOf(c *bus.Call) answerMark {
	return answerMark{conn: c.RemoteAddr, at: receivedAt(c).Add(c.Duration)}
}

func receivedAt(c *bus.Call) time.Time {
	if c.Received.IsZero() {
		return c.Time
	}
	return c.Received
}

// SentAfterAnswer reports whether the client certainly sent c after it had
// read the answer to answered (the report's own test, for judges outside
// it such as sandbox certify).
func SentAfterAnswer(c, answered *bus.Call) bool { return startedAfter(c, markOf(answered)) }

// startedAfter reports whether the client certainly sent c after it had
// the answer m: on the answer's own connection any time after it, on
// another connection once InFlightMargin has passed. Only such a call can
// be judged by what the answer asked for.
func startedAfter(c *bus.Call, m answerMark) bool {
	at := receivedAt(c)
	if at.Before(m.at) {
		return false
	}
	if c.RemoteAddr != "" && c.RemoteAddr == m.conn {
		return true
	}
	return at.Sub(m.at) >= InFlightMargin
}

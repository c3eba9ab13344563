package webhooks

import (
	"errors"
	"strconv"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// AttemptInfo describes a delivery attempt about to be sent, for a
// FaultFunc to match on.
type AttemptInfo struct {
	Notification int
	Eshop        int
	Event        string
	Instance     string
	URL          string
	Attempt      int // 1 for the first try
}

// AttemptFault is what a scripted fault does to one attempt; the zero
// value sends it normally.
type AttemptFault struct {
	Name         string        // the fault's name, shown with the delivery
	BadSignature bool          // sign with a key that is not the e-shop's
	Duplicate    bool          // deliver the same request a second time
	Delay        time.Duration // hold the attempt this long (wall time) before sending
	OutOfOrder   bool          // send it after the next notification to the same receiver
}

// FaultFunc decides the scripted faults of attempts (sandbox/app/scenario
// provides it). It runs on the dispatcher's attempt goroutine and must
// not block.
type FaultFunc func(AttemptInfo) AttemptFault

// OutOfOrderHold is how long (wall time) a notification moved back by an
// out-of-order fault waits for a successor to overtake it; then it goes
// out anyway.
const OutOfOrderHold = 30 * time.Second

// errPostponed: the attempt was not made, an out-of-order fault moved the
// notification behind its successor.
var errPostponed = errors.New("webhooks: attempt postponed by an out-of-order fault")

// fault asks the FaultFunc about an attempt and applies what it can
// before the request goes out: the delay and the wrong signature. A
// notification already moved back once is sent as it is.
func (d *Dispatcher) fault(n *Notification, at *Attempt, key string, body []byte) (AttemptFault, error) {
	if d.Faults == nil {
		return AttemptFault{}, nil
	}
	d.mu.Lock()
	again := d.postponed[n.ID]
	d.mu.Unlock()
	if again {
		return AttemptFault{}, nil
	}
	f := d.Faults(AttemptInfo{Notification: n.ID, Eshop: n.EshopID, Event: n.Event, Instance: n.Instance, URL: n.URL, Attempt: at.N})
	if f.OutOfOrder {
		return f, errPostponed
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-d.ctx.Done():
			t.Stop()
		}
	}
	if f.BadSignature {
		at.Signature = Sign("not-the-signature-key-"+key, body)
		at.Headers[d.Headers.WebhookSig] = at.Signature
	}
	return f, nil
}

// postponeLocked moves a lane's head behind its successor, or holds it
// until one arrives (at most OutOfOrderHold). Callers hold d.mu.
func (d *Dispatcher) postponeLocked(l *lane, id int) {
	d.postponed[id] = true
	if len(l.queue) > 1 && l.queue[0] == id {
		l.queue[0], l.queue[1] = l.queue[1], l.queue[0]
		return
	}
	l.hold = time.Now().Add(OutOfOrderHold)
}

// holding reports whether a lane's postponed head still waits for a
// successor, and for how long at most; a successor that arrived
// overtakes it now. Callers hold d.mu.
func (d *Dispatcher) holding(l *lane) (time.Duration, bool) {
	if l.hold.IsZero() {
		return 0, false
	}
	if len(l.queue) > 1 {
		l.queue[0], l.queue[1] = l.queue[1], l.queue[0]
		l.hold = time.Time{}
		return 0, false
	}
	if left := time.Until(l.hold); left > 0 {
		return min(left, time.Second), true
	}
	l.hold = time.Time{}
	return 0, false
}

// duplicate delivers an attempt's request a second time, as a duplicate
// delivery fault asks; it is reported on the bus, not stored as an
// attempt of its own.
func (d *Dispatcher) duplicate(n *Notification, at Attempt, body []byte) {
	status, resp, werr := d.post(n.URL, body, at.Headers)
	if d.Bus == nil {
		return
	}
	dl := bus.Delivery{ID: notificationID(n.ID), Attempt: at.N, Time: d.Clock.Now(), Duration: werr.took, Eshop: n.EshopID,
		Event: n.Event, Instance: n.Instance, URL: n.URL, Signature: at.Signature, Status: status, Final: true,
		Succeeded: werr.err == nil && status >= 200 && status < 300, ReqBody: body, RespBody: []byte(resp), Fault: "duplicate"}
	if werr.err != nil {
		dl.Error = werr.err.Error()
	} else if !dl.Succeeded {
		dl.Error = "receiver answered HTTP " + strconv.Itoa(status)
	}
	d.Bus.Emit(bus.TopicDelivery, dl)
}

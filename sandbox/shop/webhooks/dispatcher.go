package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Options tune delivery; zero fields take the sandbox's defaults
// (sandbox.DefaultWebhookAttempts, ...).
type Options struct {
	Attempts int           // attempts per notification, the first included
	Backoff  time.Duration // delay after the first failure; doubles after each further one
	Timeout  time.Duration // how long one attempt waits for the receiver (wall time)
}

func (o Options) withDefaults() Options {
	if o.Attempts < 1 {
		o.Attempts = sandbox.DefaultWebhookAttempts
	}
	if o.Backoff <= 0 {
		o.Backoff = sandbox.DefaultWebhookBackoff
	}
	if o.Timeout <= 0 {
		o.Timeout = sandbox.DefaultWebhookTimeout
	}
	return o
}

// Delay is the back-off before attempt n+1 after attempt n failed:
// Backoff, 2×Backoff, 4×Backoff, ... on the sandbox clock, capped at a day.
func (o Options) Delay(n int) time.Duration {
	d := o.Backoff
	for i := 1; i < n && d < 24*time.Hour; i++ {
		d *= 2
	}
	if d > 24*time.Hour {
		d = 24 * time.Hour
	}
	return d
}

// maxResponseBody is how much of a receiver's answer an attempt records.
const maxResponseBody = 4 << 10

// Dispatcher delivers committed events to their receivers. Events arrive
// through a bus hook that only queues them; one worker turns them into
// notifications and sends them, one receiver URL at a time in the order
// the events were committed (which keeps every entity's events in order).
// A failed attempt holds its receiver's queue until a retry succeeds or
// the attempts run out; retries are due on the sandbox clock, so moving
// the clock makes them run.
type Dispatcher struct {
	Store   *store.Store
	Bus     *bus.Bus
	Clock   *sandbox.Clock
	Headers sandbox.Headers
	Log     *slog.Logger
	Options Options
	Client  *http.Client
	// Faults, when set, may break an attempt (scripted webhook faults of
	// sandbox/app/scenario); see faults.go.
	Faults FaultFunc
	// Local, when set, returns the handler of a receiver served inside the
	// sandbox itself (the webhook inbox), nil for any other URL. Such
	// deliveries are made in-process, never over a socket; see local.go.
	Local func(url string) http.Handler

	mu     sync.Mutex
	inbox  []sandbox.Event
	lanes  map[string]*lane
	gen    int // bumped by Reset; attempts of an older generation are dropped
	wake   chan struct{}
	stop   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	start  sync.Once

	hooked hookedEvents // the events each e-shop's webhooks are registered for

	postponed map[int]bool // notifications an out-of-order fault moved back once (under mu)
	// passes counts the worker's passes over its queues (under mu), so a
	// test can tell that the worker has seen a change (settledSince).
	passes uint64
}

// lane is one receiver URL's queue of notification ids.
type lane struct {
	queue []int
	due   time.Time // when the head may be attempted
	busy  bool      // an attempt of the head is in flight
	hold  time.Time // wall time: a postponed head waits for a successor until then
}

// Hook is the bus consumer: it queues domain events and wakes the worker
// on clock moves. It never blocks.
func (d *Dispatcher) Hook(m bus.Message) {
	d.init()
	switch m.Topic {
	case bus.TopicEvent:
		if m.Event == nil {
			return
		}
		d.mu.Lock()
		d.inbox = append(d.inbox, *m.Event)
		d.mu.Unlock()
		d.Wake()
	case bus.TopicClock:
		d.Wake()
	}
}

// Wake makes the worker look for due work now.
func (d *Dispatcher) Wake() {
	d.init()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *Dispatcher) init() {
	d.start.Do(func() {
		d.Options = d.Options.withDefaults()
		if d.Client == nil {
			d.Client = &http.Client{Timeout: d.Options.Timeout}
		}
		if d.Log == nil {
			d.Log = slog.Default()
		}
		d.lanes = map[string]*lane{}
		d.postponed = map[int]bool{}
		d.wake = make(chan struct{}, 1)
		d.stop = make(chan struct{})
		d.ctx, d.cancel = context.WithCancel(context.Background())
	})
}

// Start resumes the notifications still pending in the store (a data file
// from an earlier run) and starts the worker.
func (d *Dispatcher) Start() error {
	d.init()
	if err := d.resume(); err != nil {
		return err
	}
	d.wg.Add(1)
	go d.run()
	return nil
}

// Stop ends the worker and waits for attempts in flight.
func (d *Dispatcher) Stop(ctx context.Context) error {
	d.init()
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	d.cancel()
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Reset forgets every queue; the store was emptied and re-seeded.
func (d *Dispatcher) Reset() {
	d.init()
	d.mu.Lock()
	d.inbox = nil
	d.lanes = map[string]*lane{}
	d.postponed = map[int]bool{}
	d.gen++
	d.mu.Unlock()
}

func (d *Dispatcher) resume() error {
	var pending []Notification
	err := d.Store.View(func(tx *store.Tx) error {
		return tx.Scan(store.Global, NotificationsCollection, func(_ string, doc []byte) bool {
			var n Notification
			if json.Unmarshal(doc, &n) == nil && n.Status == StatusPending {
				pending = append(pending, n)
			}
			return true
		})
	})
	if err != nil {
		return err
	}
	sort.Slice(pending, func(i, j int) bool { return pending[i].ID < pending[j].ID })
	d.mu.Lock()
	due := make([]time.Time, len(pending))
	for i := range pending {
		due[i] = d.enqueueLocked(&pending[i])
	}
	d.mu.Unlock()
	for i := range pending {
		d.announce(&pending[i], due[i])
	}
	return nil
}

// enqueueLocked appends a stored notification to its receiver's lane and
// returns when that lane moves next: the earliest the notification can be
// attempted (later when others wait before it).
func (d *Dispatcher) enqueueLocked(n *Notification) time.Time {
	l := d.lanes[n.URL]
	if l == nil {
		l = &lane{}
		d.lanes[n.URL] = l
	}
	if len(l.queue) == 0 {
		l.due = d.Clock.Now()
		if n.NextTry != nil {
			l.due = *n.NextTry
		}
	}
	l.queue = append(l.queue, n.ID)
	return l.due
}

// announce tells the bus that a notification waits for an attempt, so a
// viewer (the terminal UI) shows it at once, a replay included, with the
// earliest time it can go out. Called without d.mu held.
func (d *Dispatcher) announce(n *Notification, due time.Time) {
	if d.Bus == nil {
		return
	}
	next := due
	d.Bus.Emit(bus.TopicQueued, bus.Delivery{ID: notificationID(n.ID), Attempt: len(n.Attempts) + 1, Time: n.Created, Eshop: n.EshopID,
		Event: n.Event, Instance: n.Instance, URL: n.URL, ReqBody: []byte(n.Body), NextTry: &next})
}

func (d *Dispatcher) run() {
	defer d.wg.Done()
	for {
		d.intake()
		wait := d.startDue()
		var timer *time.Timer
		var due <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			due = timer.C
		}
		select {
		case <-d.stop:
			return
		case <-d.wake:
		case <-due:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// intake turns queued events into stored notifications, one per receiver.
func (d *Dispatcher) intake() {
	d.mu.Lock()
	events := d.inbox
	d.inbox = nil
	gen := d.gen
	d.mu.Unlock()
	for _, ev := range events {
		if !IsSystem(ev.Kind) && !d.hooked.registered(d.Store, ev) {
			continue
		}
		var created []*Notification
		err := d.Store.Update(func(tx *store.Tx) error {
			created = created[:0]
			targets, err := Targets(tx, ev)
			if err != nil {
				return err
			}
			body := string(NewPayload(ev).Encode())
			for _, t := range targets {
				n := &Notification{EshopID: ev.EshopID, WebhookID: t.WebhookID, Addon: t.Addon, URL: t.URL,
					Event: ev.Kind, Instance: ev.Instance, EventTime: ev.Time, Body: body}
				if err := newNotification(tx, n); err != nil {
					return err
				}
				created = append(created, n)
			}
			return nil
		})
		if err != nil {
			d.Log.Error("webhooks: queue event", "event", ev.Kind, "eshop", ev.EshopID, "err", err)
			continue
		}
		d.mu.Lock()
		current := d.gen == gen
		due := make([]time.Time, len(created))
		if current {
			for i, n := range created {
				due[i] = d.enqueueLocked(n)
			}
		}
		d.mu.Unlock()
		if current {
			for i, n := range created {
				d.announce(n, due[i])
			}
		}
	}
}

// hookedEvents keeps, per e-shop, the events its webhooks are registered
// for, while no webhook is written (a store.Watch of the collection). An
// order emits four events or more, most of which no webhook asks for:
// each took a write transaction to find that out, a turn at the lock
// every write request waits on.
type hookedEvents struct {
	mu    sync.Mutex
	watch *store.Watch
	gen   uint64
	shops map[int]map[string]bool
}

// registered reports whether an e-shop has a webhook for the event (true
// when its webhooks cannot be read: the write transaction reports why).
// The registrations read are those of the moment, as the write
// transaction would read them.
func (h *hookedEvents) registered(st *store.Store, ev sandbox.Event) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.watch == nil {
		h.watch = st.Watch(Collection)
	}
	gen := h.watch.Generation()
	if gen != h.gen || h.shops == nil {
		h.gen, h.shops = gen, map[int]map[string]bool{}
	}
	kinds, ok := h.shops[ev.EshopID]
	if !ok {
		kinds = map[string]bool{}
		err := st.View(func(tx *store.Tx) error {
			gen = h.watch.Generation()
			hooks, err := List(tx, ev.EshopID)
			for _, w := range hooks {
				kinds[w.Event] = true
			}
			return err
		})
		if err != nil {
			return true
		}
		if gen == h.gen {
			h.shops[ev.EshopID] = kinds
		}
	}
	return kinds[ev.Kind]
}

// Target is one receiver of an event.
type Target struct {
	WebhookID int
	Addon     string
	URL       string
}

// Targets are the receivers of an event: the e-shop's webhooks registered
// for it, or, for a system event, the add-on's configured webhook URL
// (every add-on of the e-shop with one when the event names none).
func Targets(tx *store.Tx, ev sandbox.Event) ([]Target, error) {
	var out []Target
	if IsSystem(ev.Kind) {
		err := auth.EachAddon(tx, ev.EshopID, func(a *auth.Addon) bool {
			if a.WebhookURL != "" && (ev.Addon == "" || ev.Addon == a.Name) {
				out = append(out, Target{Addon: a.Name, URL: a.WebhookURL})
			}
			return true
		})
		return out, err
	}
	hooks, err := List(tx, ev.EshopID)
	for _, w := range hooks {
		if w.Event == ev.Kind {
			out = append(out, Target{WebhookID: w.ID, URL: w.URL})
		}
	}
	return out, err
}

// startDue starts an attempt for every lane whose head is due and says how
// long to wait (wall time) before looking again; 0 means until woken.
func (d *Dispatcher) startDue() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.passes++
	now := d.Clock.Now()
	var wait time.Duration
	for url, l := range d.lanes {
		if len(l.queue) == 0 {
			delete(d.lanes, url)
			continue
		}
		if l.busy {
			continue
		}
		if w, held := d.holding(l); held {
			if wait == 0 || w < wait {
				wait = w
			}
			continue
		}
		if l.due.After(now) {
			// A running clock reaches the due time by itself; a moved or
			// frozen one wakes the worker through the bus. Look again at
			// least every second in case the clock was set without notice.
			w := min(l.due.Sub(now), time.Second)
			if wait == 0 || w < wait {
				wait = w
			}
			continue
		}
		l.busy = true
		d.wg.Add(1)
		go d.attempt(url, l.queue[0], d.gen)
	}
	return wait
}

// attempt sends the head notification of a lane once and records it.
func (d *Dispatcher) attempt(url string, id, gen int) {
	defer d.wg.Done()
	final, next, err := d.send(id, gen)
	if err != nil && !errors.Is(err, sandbox.ErrNotFound) && !errors.Is(err, errPostponed) {
		d.Log.Error("webhooks: attempt", "notification", id, "err", err)
	}
	d.mu.Lock()
	if l := d.lanes[url]; l != nil && d.gen == gen && len(l.queue) > 0 && l.queue[0] == id {
		l.busy = false
		if errors.Is(err, errPostponed) {
			d.postponeLocked(l, id)
		} else if final || err != nil {
			l.queue = l.queue[1:]
			l.due = d.Clock.Now()
		} else {
			l.due = next
		}
	}
	d.mu.Unlock()
	d.Wake()
}

// send makes one attempt and stores it. It reports whether the
// notification is settled and, if not, when the next attempt is due.
func (d *Dispatcher) send(id, gen int) (final bool, next time.Time, err error) {
	var n *Notification
	var key string
	err = d.Store.View(func(tx *store.Tx) error {
		var err error
		if n, err = LoadNotification(tx, notificationID(id)); err != nil {
			return err
		}
		key = SignatureKey(tx, n.EshopID)
		return nil
	})
	if err != nil {
		return true, next, sandbox.ErrNotFound
	}
	if n.Status != StatusPending {
		return true, next, nil
	}
	at := Attempt{N: len(n.Attempts) + 1, Time: d.Clock.Now(), Headers: map[string]string{"Content-Type": "application/json"}}
	body := []byte(n.Body)
	if key != "" {
		at.Signature = Sign(key, body)
		at.Headers[d.Headers.WebhookSig] = at.Signature
	}
	fault, err := d.fault(n, &at, key, body)
	if err != nil {
		return false, next, err
	}
	status, resp, werr := d.post(n.URL, body, at.Headers)
	at.DurationMs = werr.took.Milliseconds()
	at.Status, at.ResponseBody = status, resp
	if werr.err != nil {
		at.Error = werr.err.Error()
	}
	ok := werr.err == nil && status >= 200 && status < 300
	if werr.err == nil && !ok {
		at.Error = "receiver answered HTTP " + strconv.Itoa(status)
	}
	final = ok || at.N >= d.Options.Attempts
	switch {
	case ok:
		n.Status, n.NextTry = StatusDelivered, nil
	case final:
		n.Status, n.NextTry = StatusFailed, nil
	default:
		next = at.Time.Add(d.Options.Delay(at.N))
		n.NextTry = &next
	}
	n.Attempts = append(n.Attempts, at)
	err = d.Store.Update(func(tx *store.Tx) error {
		d.mu.Lock()
		stale := d.gen != gen
		d.mu.Unlock()
		if stale || !tx.Exists(store.Global, NotificationsCollection, notificationID(id)) {
			return sandbox.ErrNotFound // the store was reset meanwhile
		}
		return saveNotification(tx, n)
	})
	if err != nil {
		return true, next, err
	}
	if !final {
		// The lane moves next at the retry: say so before the attempt is
		// announced, so a replay queued behind it as soon as a viewer sees
		// the failure is announced with the retry's time, not the old one.
		d.mu.Lock()
		if l := d.lanes[n.URL]; l != nil && d.gen == gen && len(l.queue) > 0 && l.queue[0] == id {
			l.due = next
		}
		d.mu.Unlock()
	}
	if d.Bus != nil {
		dl := bus.Delivery{ID: notificationID(n.ID), Attempt: at.N, Time: at.Time, Duration: werr.took, Eshop: n.EshopID,
			Event: n.Event, Instance: n.Instance, URL: n.URL, Signature: at.Signature, Status: status, Error: at.Error,
			Final: final, Succeeded: ok, ReqBody: body, RespBody: []byte(resp)}
		if !final {
			dl.NextTry = &next
		}
		dl.Fault = fault.Name
		d.Bus.Emit(bus.TopicDelivery, dl)
	}
	if fault.Duplicate {
		d.duplicate(n, at, body)
	}
	return final, next, nil
}

type wireResult struct {
	err  error
	took time.Duration
}

// post sends one request with the configured timeout (wall time).
func (d *Dispatcher) post(url string, body []byte, headers map[string]string) (int, string, wireResult) {
	ctx, cancel := context.WithTimeout(d.ctx, d.Options.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", wireResult{err: err}
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", "eshop-sandbox-webhooks/1.0")
	began := time.Now() // wall time on purpose: how long the receiver really took
	if h := d.local(url); h != nil {
		status, raw := serveLocal(h, req)
		return status, raw, wireResult{took: time.Since(began)}
	}
	resp, err := d.Client.Do(req)
	if err != nil {
		return 0, "", wireResult{err: err, took: time.Since(began)}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	return resp.StatusCode, string(raw), wireResult{took: time.Since(began)}
}

// Replay queues a copy of a notification: the same body to the same URL,
// signed again with the current key. It returns the new notification.
func (d *Dispatcher) Replay(id string) (*Notification, error) {
	d.init()
	var n *Notification
	err := d.Store.Update(func(tx *store.Tx) error {
		orig, err := LoadNotification(tx, id)
		if err != nil {
			return err
		}
		n = &Notification{EshopID: orig.EshopID, WebhookID: orig.WebhookID, Addon: orig.Addon, URL: orig.URL,
			Event: orig.Event, Instance: orig.Instance, EventTime: orig.EventTime, Body: orig.Body, ReplayOf: orig.ID}
		return newNotification(tx, n)
	})
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	due := d.enqueueLocked(n)
	d.mu.Unlock()
	d.announce(n, due)
	d.Wake()
	return n, nil
}

// knownEshop answers 404 for an e-shop the sandbox does not have.
func knownEshop(tx *store.Tx, id int) error {
	_, err := eshop.Get(tx, id)
	return err
}

// passCount is how many passes over its queues the worker has made.
func (d *Dispatcher) passCount() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.passes
}

// settledSince reports whether the worker has nothing in hand: no event
// waiting to become notifications, no attempt on its way, and a pass over
// the queues made after pass number after. Whatever it would do without
// the clock moving or a new event, it has then done: tests wait for it to
// show that nothing more happens, instead of sleeping.
func (d *Dispatcher) settledSince(after uint64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.inbox) > 0 || d.passes <= after {
		return false
	}
	for _, l := range d.lanes {
		if l.busy {
			return false
		}
	}
	return true
}

package webhooks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// receiver is a loopback webhook receiver that fails its first n
// requests and records the others.
type receiver struct {
	mu       sync.Mutex
	failures int
	tries    int
	got      []received
	srv      *httptest.Server
}

type received struct {
	body      []byte
	signature string
}

func newReceiver(t *testing.T, failFirst int) *receiver {
	rc := &receiver{failures: failFirst}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.tries++
		if rc.tries <= rc.failures {
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
			return
		}
		rc.got = append(rc.got, received{body: body, signature: r.Header.Get("Service-Webhook-Signature")})
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) snapshot() (tries int, got []received) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.tries, append([]received(nil), rc.got...)
}

// waitFor polls (wall time: deliveries are real HTTP) until cond holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// settle waits until the dispatcher has made a pass over its queues after
// this call with nothing in hand (settledSince): what it does without the
// clock moving, it has done, so a test can then show that nothing more
// happens without a fixed sleep.
func settle(t *testing.T, d *Dispatcher) {
	t.Helper()
	before := d.passCount()
	d.Wake()
	waitFor(t, "the dispatcher to settle", func() bool { return d.settledSince(before) })
}

type rig struct {
	st    *store.Store
	bus   *bus.Bus
	clock *sandbox.Clock
	disp  *Dispatcher
}

func newRig(t *testing.T, opts Options) *rig {
	t.Helper()
	clock := sandbox.NewFrozenClock(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC))
	b := bus.New()
	st, err := store.Open(store.Options{Clock: clock, Publisher: b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Update(func(tx *store.Tx) error { return eshop.Put(tx, &eshop.Meta{ID: 1001, Name: "Test"}) }); err != nil {
		t.Fatal(err)
	}
	d := &Dispatcher{Store: st, Bus: b, Clock: clock, Headers: sandbox.NewHeaders(""), Options: opts}
	b.Hook(d.Hook)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Stop(context.Background()) })
	return &rig{st: st, bus: b, clock: clock, disp: d}
}

func (g *rig) register(t *testing.T, event, url string) {
	t.Helper()
	err := g.st.Update(func(tx *store.Tx) error {
		id, _ := tx.Next(1001, Collection)
		return put(tx, 1001, &registered{Webhook: Webhook{ID: int(id), Event: event, URL: url}})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (g *rig) emit(t *testing.T, evs ...sandbox.Event) {
	t.Helper()
	if err := g.st.Update(func(tx *store.Tx) error { tx.Emit(evs...); return nil }); err != nil {
		t.Fatal(err)
	}
}

func (g *rig) advance(d time.Duration) {
	g.clock.Advance(d)
	g.bus.Emit(bus.TopicClock, bus.ClockMove{Now: g.clock.Now()})
}

// TestReceiverDownThreeAttempts: a receiver down for the first 3
// attempts gets every event afterwards, in order, nothing lost; retries
// happen only when the sandbox clock reaches their back-off.
func TestReceiverDownThreeAttempts(t *testing.T) {
	g := newRig(t, Options{Attempts: 5, Backoff: time.Minute, Timeout: 2 * time.Second})
	rc := newReceiver(t, 3)
	g.register(t, "order:create", rc.srv.URL)
	g.register(t, "order:update", rc.srv.URL)
	_ = g.st.Update(func(tx *store.Tx) error { return setSignatureKey(tx, 1001, "k3y") })
	var want []string
	for i := 1; i <= 3; i++ {
		code := "202500000" + strconv.Itoa(i)
		g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:create", Instance: code})
		g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:update", Instance: code})
		want = append(want, "order:create "+code, "order:update "+code)
	}
	waitFor(t, "the first attempt", func() bool { n, _ := rc.snapshot(); return n == 1 })
	// Nothing more happens while the clock stands still.
	settle(t, g.disp)
	if n, _ := rc.snapshot(); n != 1 {
		t.Fatalf("retried without the clock moving: %d tries", n)
	}
	g.advance(59 * time.Second)
	settle(t, g.disp)
	if n, _ := rc.snapshot(); n != 1 {
		t.Fatalf("retried before the back-off: %d tries", n)
	}
	g.advance(time.Second) // 1 min: attempt 2
	waitFor(t, "attempt 2", func() bool { n, _ := rc.snapshot(); return n == 2 })
	g.advance(2 * time.Minute) // attempt 3
	waitFor(t, "attempt 3", func() bool { n, _ := rc.snapshot(); return n == 3 })
	g.advance(4 * time.Minute) // attempt 4 succeeds and the queue drains
	waitFor(t, "every event", func() bool { _, got := rc.snapshot(); return len(got) == len(want) })
	_, got := rc.snapshot()
	for i, r := range got {
		var p PayloadView
		if err := json.Unmarshal(r.body, &p); err != nil {
			t.Fatal(err)
		}
		if p.Event+" "+p.EventInstance != want[i] {
			t.Fatalf("delivery %d: %s %s, want %s", i, p.Event, p.EventInstance, want[i])
		}
		if !Verify("k3y", r.body, r.signature) {
			t.Fatalf("delivery %d: bad signature %q", i, r.signature)
		}
	}
	// The first notification holds four attempts, the others one each.
	var ns []Notification
	_ = g.st.View(func(tx *store.Tx) error {
		return tx.Scan(store.Global, NotificationsCollection, func(_ string, doc []byte) bool {
			var n Notification
			_ = json.Unmarshal(doc, &n)
			ns = append(ns, n)
			return true
		})
	})
	if len(ns) != 6 || len(ns[0].Attempts) != 4 || ns[0].Status != StatusDelivered {
		t.Fatalf("notifications: %+v", ns)
	}
	for i, a := range ns[0].Attempts[:3] {
		if a.Status != 503 || a.Error == "" || a.Signature == "" {
			t.Fatalf("attempt %d: %+v", i+1, a)
		}
	}
	if !ns[0].Attempts[1].Time.Equal(ns[0].Attempts[0].Time.Add(time.Minute)) {
		t.Fatalf("attempt 2 at %v, first at %v", ns[0].Attempts[1].Time, ns[0].Attempts[0].Time)
	}
}

// TestGivesUpAfterAttempts marks a notification failed after the last
// attempt and moves on to the next one.
func TestGivesUpAfterAttempts(t *testing.T) {
	g := newRig(t, Options{Attempts: 2, Backoff: time.Second, Timeout: time.Second})
	rc := newReceiver(t, 2)
	g.register(t, "brand:create", rc.srv.URL)
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "brand:create", Instance: "a"}, sandbox.Event{EshopID: 1001, Kind: "brand:create", Instance: "b"})
	waitFor(t, "attempt 1", func() bool { n, _ := rc.snapshot(); return n == 1 })
	g.advance(time.Second)
	waitFor(t, "the second notification", func() bool { _, got := rc.snapshot(); return len(got) == 1 })
	_, got := rc.snapshot()
	if p := string(got[0].body); p != `{"eshopId":1001,"event":"brand:create","eventCreated":"2025-03-01T10:00:00+0000","eventInstance":"b"}` {
		t.Fatalf("body %s", p)
	}
	if got[0].signature != "" {
		t.Fatalf("signed without a key: %q", got[0].signature)
	}
	_ = g.st.View(func(tx *store.Tx) error {
		n, err := LoadNotification(tx, "1")
		if err != nil || n.Status != StatusFailed || len(n.Attempts) != 2 {
			t.Fatalf("first notification: %+v %v", n, err)
		}
		return nil
	})
}

// TestSystemEventsGoToTheAddon: addon:* events go to the add-on's
// webhook URL, never to registered webhooks.
func TestSystemEventsGoToTheAddon(t *testing.T) {
	g := newRig(t, Options{Attempts: 1, Timeout: time.Second})
	addon := newReceiver(t, 0)
	other := newReceiver(t, 0)
	err := g.st.Update(func(tx *store.Tx) error {
		for _, a := range []auth.Addon{{Name: "pay", WebhookURL: addon.srv.URL}, {Name: "quiet"}} {
			if err := auth.PutAddon(tx, 1001, &a); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g.register(t, "addon:suspend", other.srv.URL) // cannot happen through the API; proves it is ignored
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "addon:suspend", Instance: "1001", Addon: "pay"})
	waitFor(t, "the add-on's notification", func() bool { _, got := addon.snapshot(); return len(got) == 1 })
	settle(t, g.disp)
	if n, _ := other.snapshot(); n != 0 {
		t.Fatalf("a registered webhook got a system event")
	}
}

// TestQueuedNotificationsAnnounced: a new notification and a replay are
// announced on the bus (TopicQueued) as soon as they are queued, with the
// earliest time they can go out, so a viewer shows them before any
// attempt; a replay behind a failing notification waits for its retry.
func TestQueuedNotificationsAnnounced(t *testing.T) {
	g := newRig(t, Options{Attempts: 5, Backoff: time.Minute, Timeout: time.Second})
	sub := g.bus.Subscribe(64)
	defer sub.Close()
	rc := newReceiver(t, 100)
	g.register(t, "order:create", rc.srv.URL)
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:create", Instance: "2025000001"})
	next := func(topic string) bus.Delivery {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case m := <-sub.C():
				if m.Topic == topic {
					return m.Data.(bus.Delivery)
				}
			case <-deadline:
				t.Fatalf("no %s message", topic)
			}
		}
	}
	now := g.clock.Now()
	q := next(bus.TopicQueued)
	if q.ID != "1" || q.Attempt != 1 || q.Event != "order:create" || q.Instance != "2025000001" || q.URL != rc.srv.URL ||
		q.NextTry == nil || !q.NextTry.Equal(now) || q.Status != 0 || len(q.ReqBody) == 0 {
		t.Fatalf("queued %+v", q)
	}
	a := next(bus.TopicDelivery)
	if a.ID != "1" || a.Succeeded || a.NextTry == nil || !a.NextTry.Equal(now.Add(time.Minute)) {
		t.Fatalf("first attempt %+v", a)
	}
	n, err := g.disp.Replay("1")
	if err != nil {
		t.Fatal(err)
	}
	r := next(bus.TopicQueued)
	if r.ID != strconv.Itoa(n.ID) || r.Attempt != 1 || r.NextTry == nil || !r.NextTry.Equal(now.Add(time.Minute)) {
		t.Fatalf("replay queued %+v, want id %d due after the retry", r, n.ID)
	}
}

// TestUnhookedEventsTakeNoWrite: an event no webhook of its e-shop asks
// for is dropped without a write transaction (the store's write
// generation stands still); once a webhook for it is registered, the
// next such event is delivered.
func TestUnhookedEventsTakeNoWrite(t *testing.T) {
	g := newRig(t, Options{Attempts: 1, Backoff: time.Minute, Timeout: 2 * time.Second})
	rc := newReceiver(t, 0)
	g.register(t, "order:update", rc.srv.URL)
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:create", Instance: "1"})
	settle(t, g.disp)
	before := g.st.Generation()
	for i := range 5 {
		g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:create", Instance: strconv.Itoa(i + 2)})
	}
	settle(t, g.disp)
	if moved := g.st.Generation() - before; moved != 5 { // the five emits' own transactions
		t.Fatalf("%d write transactions for 5 events no webhook asks for, want only the 5 that emitted them", moved)
	}
	if n, _ := rc.snapshot(); n != 0 {
		t.Fatalf("%d deliveries of unhooked events", n)
	}
	g.register(t, "order:create", rc.srv.URL)
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "order:create", Instance: "9"})
	waitFor(t, "the delivery after the registration", func() bool { n, _ := rc.snapshot(); return n == 1 })
}

package webhooks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// faultRig is a dispatcher with a FaultFunc, a signature key and one
// loopback receiver registered for every event the test emits.
type faultRig struct {
	st    *store.Store
	disp  *Dispatcher
	key   string
	mu    sync.Mutex
	got   []faultSeen
	deliv []bus.Delivery
}

type faultSeen struct {
	instance string
	validSig bool
	at       time.Time
}

func newFaultRig(t *testing.T, events []string, fault FaultFunc) *faultRig {
	t.Helper()
	clock := sandbox.NewFrozenClock(time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC))
	b := bus.New()
	st, err := store.Open(store.Options{Clock: clock, Publisher: b})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	g := &faultRig{st: st, key: "k3y"}
	h := sandbox.NewHeaders("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p struct {
			Instance string `json:"eventInstance"`
		}
		_ = json.Unmarshal(body, &p)
		g.mu.Lock()
		g.got = append(g.got, faultSeen{instance: p.Instance, validSig: Verify(g.key, body, r.Header.Get(h.WebhookSig)), at: time.Now()})
		g.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	err = st.Update(func(tx *store.Tx) error {
		if err := eshop.Put(tx, &eshop.Meta{ID: 1001, Name: "Test"}); err != nil {
			return err
		}
		for _, ev := range events {
			id, _ := tx.Next(1001, Collection)
			if err := put(tx, 1001, &registered{Webhook: Webhook{ID: int(id), Event: ev, URL: srv.URL}}); err != nil {
				return err
			}
		}
		return setSignatureKey(tx, 1001, g.key)
	})
	if err != nil {
		t.Fatal(err)
	}
	g.disp = &Dispatcher{Store: st, Bus: b, Clock: clock, Headers: h, Faults: fault}
	b.Hook(g.disp.Hook)
	b.Hook(func(m bus.Message) {
		if d, ok := m.Data.(bus.Delivery); ok && m.Topic == bus.TopicDelivery { // attempts, not queued notifications
			g.mu.Lock()
			g.deliv = append(g.deliv, d)
			g.mu.Unlock()
		}
	})
	if err := g.disp.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.disp.Stop(context.Background()) })
	return g
}

func (g *faultRig) emit(t *testing.T, kind string, instances ...string) {
	t.Helper()
	for _, in := range instances {
		err := g.st.Update(func(tx *store.Tx) error {
			tx.Emit(sandbox.Event{EshopID: 1001, Kind: kind, Instance: in, Time: tx.Now()})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func (g *faultRig) wait(t *testing.T, n int) []faultSeen {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		g.mu.Lock()
		got := append([]faultSeen(nil), g.got...)
		g.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d deliveries arrived", len(got), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// byInstance returns a fault func that applies f to the deliveries of one
// entity (first attempt only) and records what it was asked.
func byInstance(instance string, f AttemptFault) FaultFunc {
	return func(a AttemptInfo) AttemptFault {
		if a.Instance == instance && a.Attempt == 1 {
			return f
		}
		return AttemptFault{}
	}
}

func TestFaultBadSignature(t *testing.T) {
	g := newFaultRig(t, []string{"order:create"}, byInstance("2", AttemptFault{Name: "sig", BadSignature: true}))
	g.emit(t, "order:create", "1", "2", "3")
	got := g.wait(t, 3)
	for _, s := range got {
		if s.validSig == (s.instance == "2") {
			t.Errorf("delivery of %s: valid signature %v", s.instance, s.validSig)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, d := range g.deliv {
		if d.Instance == "2" && d.Fault != "sig" {
			t.Errorf("the faulted delivery is not marked: %+v", d)
		}
	}
}

func TestFaultDuplicate(t *testing.T) {
	g := newFaultRig(t, []string{"order:create"}, byInstance("1", AttemptFault{Name: "dup", Duplicate: true}))
	g.emit(t, "order:create", "1", "2")
	got := g.wait(t, 3)
	var order []string
	for _, s := range got {
		order = append(order, s.instance)
		if !s.validSig {
			t.Errorf("a duplicate is signed like the original: %+v", s)
		}
	}
	if len(got) != 3 || order[0] != "1" || order[1] != "1" || order[2] != "2" {
		t.Fatalf("deliveries %v, want 1 1 2", order)
	}
}

func TestFaultOutOfOrder(t *testing.T) {
	g := newFaultRig(t, []string{"order:create"}, byInstance("1", AttemptFault{Name: "ooo", OutOfOrder: true}))
	g.emit(t, "order:create", "1")
	settle(t, g.disp) // the held notification waits for a successor
	g.mu.Lock()
	early := len(g.got)
	g.mu.Unlock()
	if early != 0 {
		t.Fatalf("the postponed notification went out alone")
	}
	g.emit(t, "order:create", "2", "3")
	got := g.wait(t, 3)
	var order []string
	for _, s := range got {
		order = append(order, s.instance)
	}
	if order[0] != "2" || order[1] != "1" || order[2] != "3" {
		t.Fatalf("deliveries %v, want 2 1 3", order)
	}
}

func TestFaultDelay(t *testing.T) {
	g := newFaultRig(t, []string{"order:create"}, byInstance("1", AttemptFault{Name: "late", Delay: 300 * time.Millisecond}))
	began := time.Now()
	g.emit(t, "order:create", "1")
	got := g.wait(t, 1)
	if took := got[0].at.Sub(began); took < 300*time.Millisecond {
		t.Fatalf("delivered after %v", took)
	}
}

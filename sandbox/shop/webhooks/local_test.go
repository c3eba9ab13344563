package webhooks

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// countingTransport refuses every request and counts them: an in-process
// delivery must never reach it.
type countingTransport struct {
	mu   sync.Mutex
	urls []string
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.urls = append(c.urls, r.URL.String())
	return nil, errors.New("no network in this test")
}

func (c *countingTransport) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.urls...)
}

// localReceiver answers 503 to its first failFirst deliveries, panics on
// a body containing "boom", and records the rest with their headers.
type localReceiver struct {
	mu        sync.Mutex
	failFirst int
	tries     int
	got       []http.Header
	bodies    [][]byte
}

func (l *localReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tries++
	if l.tries <= l.failFirst {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("not yet"))
		return
	}
	if string(body) != "" && json.Valid(body) && containsBoom(body) {
		panic("receiver bug")
	}
	l.got = append(l.got, r.Header.Clone())
	l.bodies = append(l.bodies, body)
	_, _ = w.Write([]byte(`{"ok":true}`))
}

func containsBoom(b []byte) bool {
	var p PayloadView
	return json.Unmarshal(b, &p) == nil && p.EventInstance == "boom"
}

// TestLocalDeliveryInProcess: a URL the Local hook claims is delivered to
// its handler without the HTTP client, with the same body, signature and
// headers, and the same attempt, retry and record bookkeeping as a
// delivery over the network; other URLs still go over the client.
func TestLocalDeliveryInProcess(t *testing.T) {
	const inboxURL = "http://127.0.0.1:8080/_sandbox/inbox/test"
	tr := &countingTransport{}
	rc := &localReceiver{failFirst: 1}
	g := newRig(t, Options{Attempts: 3, Backoff: time.Minute, Timeout: time.Second})
	g.disp.Client = &http.Client{Transport: tr}
	g.disp.Local = func(url string) http.Handler {
		if url == inboxURL {
			return rc
		}
		return nil
	}
	g.register(t, "brand:create", inboxURL)
	_ = g.st.Update(func(tx *store.Tx) error { return setSignatureKey(tx, 1001, "k3y") })
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "brand:create", Instance: "fjellbekk"})
	waitFor(t, "attempt 1", func() bool { rc.mu.Lock(); defer rc.mu.Unlock(); return rc.tries == 1 })
	g.advance(time.Minute)
	waitFor(t, "attempt 2", func() bool { rc.mu.Lock(); defer rc.mu.Unlock(); return len(rc.got) == 1 })

	rc.mu.Lock()
	h, body := rc.got[0], rc.bodies[0]
	rc.mu.Unlock()
	if !Verify("k3y", body, h.Get("Service-Webhook-Signature")) || h.Get("Content-Type") != "application/json" ||
		h.Get("User-Agent") != "eshop-sandbox-webhooks/1.0" {
		t.Fatalf("headers %v", h)
	}
	var n *Notification
	waitFor(t, "the record", func() bool {
		_ = g.st.View(func(tx *store.Tx) error { n, _ = LoadNotification(tx, "1"); return nil })
		return n != nil && n.Status == StatusDelivered
	})
	if string(body) != n.Body || len(n.Attempts) != 2 {
		t.Fatalf("record %+v, body %s", n, body)
	}
	if a := n.Attempts[0]; a.Status != 503 || a.ResponseBody != "not yet" || a.Error == "" {
		t.Fatalf("attempt 1: %+v", a)
	}
	if a := n.Attempts[1]; a.Status != 200 || a.ResponseBody != `{"ok":true}` || a.Error != "" || a.Signature != h.Get("Service-Webhook-Signature") {
		t.Fatalf("attempt 2: %+v", a)
	}
	if seen := tr.seen(); len(seen) != 0 {
		t.Fatalf("in-process deliveries went over the client: %v", seen)
	}

	// A panicking receiver fails the attempt (500), not the sandbox.
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "brand:create", Instance: "boom"})
	waitFor(t, "the failed attempt", func() bool {
		_ = g.st.View(func(tx *store.Tx) error { n, _ = LoadNotification(tx, "2"); return nil })
		return n != nil && len(n.Attempts) == 1
	})
	if a := n.Attempts[0]; a.Status != 500 || a.Error == "" {
		t.Fatalf("panicking receiver: %+v", a)
	}

	// Any other URL still goes over the network client.
	g.register(t, "brand:update", "http://127.0.0.1:9/elsewhere")
	g.emit(t, sandbox.Event{EshopID: 1001, Kind: "brand:update", Instance: "fjellbekk"})
	waitFor(t, "a network attempt", func() bool { return len(tr.seen()) == 1 })
	if seen := tr.seen(); seen[0] != "http://127.0.0.1:9/elsewhere" {
		t.Fatalf("client saw %v", seen)
	}
}

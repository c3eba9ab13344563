// Package webhookstest gives Go tests a loopback webhook receiver: it
// records every notification with its signature check, can be told to
// fail its first attempts, and waits (in wall time, since deliveries are
// real HTTP) for what a test expects. Add-on authors use it next to
// sandboxtest; the sandbox's own tests use it too.
package webhookstest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// Notification is one request the receiver accepted.
type Notification struct {
	Body      []byte
	Signature string
	Payload   webhooks.PayloadView
}

// Receiver is a webhook endpoint on 127.0.0.1.
type Receiver struct {
	URL string // the address to register

	t         testing.TB
	srv       *httptest.Server
	sigHeader string

	mu       sync.Mutex
	failNext int
	tries    int
	got      []Notification
}

// New starts a receiver that reads the signature from sigHeader (e.g.
// sandbox.NewHeaders("").WebhookSig); it is closed when the test ends.
func New(t testing.TB, sigHeader string) *Receiver {
	rc := &Receiver{t: t, sigHeader: sigHeader}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	rc.URL = rc.srv.URL + "/webhooks"
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.tries++
	if rc.failNext > 0 {
		rc.failNext--
		http.Error(w, "receiver down", http.StatusServiceUnavailable)
		return
	}
	n := Notification{Body: body, Signature: r.Header.Get(rc.sigHeader)}
	_ = json.Unmarshal(body, &n.Payload)
	rc.got = append(rc.got, n)
	w.WriteHeader(http.StatusNoContent)
}

// FailNext makes the next n requests answer 503.
func (rc *Receiver) FailNext(n int) {
	rc.mu.Lock()
	rc.failNext = n
	rc.mu.Unlock()
}

// Tries is how many requests arrived, failed ones included.
func (rc *Receiver) Tries() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.tries
}

// Got returns the accepted notifications in arrival order.
func (rc *Receiver) Got() []Notification {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Notification(nil), rc.got...)
}

// Find returns the accepted notifications of an event.
func (rc *Receiver) Find(event string) []Notification {
	var out []Notification
	for _, n := range rc.Got() {
		if n.Payload.Event == event {
			out = append(out, n)
		}
	}
	return out
}

// Wait polls until cond holds or 10 s pass (then the test fails).
func (rc *Receiver) Wait(what string, cond func() bool) {
	rc.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			rc.t.Fatalf("webhook receiver: timed out waiting for %s; got %d notifications, %d requests", what, len(rc.Got()), rc.Tries())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// WaitFor waits for a notification of the event (and, when instance is
// not "", that eventInstance) and returns it.
func (rc *Receiver) WaitFor(event, instance string) Notification {
	rc.t.Helper()
	var found Notification
	rc.Wait(event+" "+instance, func() bool {
		for _, n := range rc.Find(event) {
			if instance == "" || n.Payload.EventInstance == instance {
				found = n
				return true
			}
		}
		return false
	})
	return found
}

// Valid reports whether the notification's signature matches key.
func (n Notification) Valid(key string) bool { return webhooks.Verify(key, n.Body, n.Signature) }

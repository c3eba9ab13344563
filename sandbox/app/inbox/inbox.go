// Package inbox is the sandbox's built-in webhook receiver. A webhook
// registered to {base_url}/_sandbox/inbox/<name> needs no server of the
// reader's own: the dispatcher hands it the delivery in-process (the
// sandbox never sends a request to its own listener), the inbox checks the
// signature with the e-shop's key, and GET /_sandbox/inbox/<name> lists
// what arrived. The inboxes live in memory, are bounded, and are emptied by
// a reset.
package inbox

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// Bounds: an inbox keeps its newest MaxEntries deliveries; at most
// MaxInboxes names exist at once.
const (
	MaxEntries = 1000
	MaxInboxes = 256
	// MaxWait caps how long GET ...?wait= holds a request.
	MaxWait = 30 * time.Second
)

// Signature checks, as Entry.SignatureCheck reports them.
const (
	SignatureValid    = "valid"    // signed with the e-shop's current key
	SignatureInvalid  = "invalid"  // a signature that does not match (or no key to match it)
	SignatureMissing  = "missing"  // the e-shop has a key but the delivery carried no signature
	SignatureUnsigned = "unsigned" // no key issued yet and no signature: what the service sends before renew-signature-key
)

// Entry is one delivery that arrived.
type Entry struct {
	ID             int             `json:"id"`             // 1, 2, ... per inbox
	Time           string          `json:"time"`           // sandbox clock
	EshopID        int             `json:"eshopId"`        // the payload's eshopId
	Event          string          `json:"event"`          // the payload's event
	EventInstance  any             `json:"eventInstance"`  // the payload's eventInstance
	Signature      string          `json:"signature"`      // the signature header as received ("" when none)
	SignatureValid bool            `json:"signatureValid"` // true only for SignatureValid
	SignatureCheck string          `json:"signatureCheck"` // valid, invalid, missing or unsigned
	Body           json.RawMessage `json:"body"`           // the body as received
}

// Inbox holds every named inbox.
type Inbox struct {
	Store   *store.Store
	Clock   *sandbox.Clock
	Headers sandbox.Headers
	// Bases returns the URLs the sandbox is reached at (its public URL and
	// its listener's); a webhook URL is an inbox when Is holds for one.
	Bases func() []string

	mu      sync.Mutex
	boxes   map[string]*box
	changed chan struct{} // closed and replaced on every change, for waiters
}

type box struct {
	entries []Entry
	next    int
	dropped int // older entries dropped to keep MaxEntries
}

// View is the data of GET /_sandbox/inbox/<name>.
type View struct {
	Name     string  `json:"name"`               // the inbox's name
	URL      string  `json:"url"`                // what to register as the webhook URL
	Count    int     `json:"count"`              // entries held
	Dropped  int     `json:"dropped"`            // older entries dropped to keep the newest
	Entries  []Entry `json:"entries"`            // what the inbox received, oldest first
	TimedOut bool    `json:"timedOut,omitempty"` // ?wait= ended before count entries arrived
}

func (b *Inbox) init() {
	if b.boxes == nil {
		b.boxes = map[string]*box{}
		b.changed = make(chan struct{})
	}
}

// notifyLocked wakes every waiter.
func (b *Inbox) notifyLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

// Receive records one delivery to the named inbox: the body as received,
// its event fields, and whether its signature matches the e-shop's key.
func (b *Inbox) Receive(name string, header http.Header, body []byte) (Entry, error) {
	v, err := decodeBody(body)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Time: sandbox.FormatTime(b.Clock.Now()), Body: json.RawMessage(body), Signature: header.Get(b.Headers.WebhookSig)}
	if ev, ok := v["event"].(string); ok {
		e.Event = ev
	}
	if id, ok := v["eshopId"].(json.Number); ok {
		if n, err := id.Int64(); err == nil {
			e.EshopID = int(n)
		}
	}
	e.EventInstance = v["eventInstance"]
	key := ""
	if e.EshopID != 0 {
		_ = b.Store.View(func(tx *store.Tx) error { key = webhooks.SignatureKey(tx, e.EshopID); return nil })
	}
	e.SignatureCheck = check(key, body, e.Signature)
	e.SignatureValid = e.SignatureCheck == SignatureValid

	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	bx := b.boxes[name]
	if bx == nil {
		if len(b.boxes) >= MaxInboxes {
			return Entry{}, sandbox.Errorf(sandbox.KindConflict, sandbox.CodeConflict, "name",
				"The sandbox already has %d inboxes; DELETE /_sandbox/inbox/<name> one, or reset.", MaxInboxes)
		}
		bx = &box{}
		b.boxes[name] = bx
	}
	bx.next++
	e.ID = bx.next
	bx.entries = append(bx.entries, e)
	if over := len(bx.entries) - MaxEntries; over > 0 {
		bx.entries = append([]Entry(nil), bx.entries[over:]...)
		bx.dropped += over
	}
	b.notifyLocked()
	return e, nil
}

// check compares a signature with the e-shop's key.
func check(key string, body []byte, sig string) string {
	switch {
	case key == "" && sig == "":
		return SignatureUnsigned
	case sig == "":
		return SignatureMissing
	case key != "" && webhooks.Verify(key, body, sig):
		return SignatureValid
	}
	return SignatureInvalid
}

// decodeBody decodes a delivery's body through the one body decoder, at
// most maxBody bytes.
func decodeBody(body []byte) (map[string]any, error) {
	var m map[string]any
	_, err := api.Decode(body, &m, api.Decoding{Limit: maxBody,
		NotObject: "A webhook body is a JSON object with eshopId, event, eventCreated and eventInstance."})
	return m, err
}

// List returns an inbox's entries, oldest first. With wait > 0 it first
// waits (wall time, at most MaxWait, until ctx ends) for the inbox to hold
// at least count entries.
func (b *Inbox) List(ctx context.Context, name string, count int, wait time.Duration) View {
	deadline := time.Now().Add(min(wait, MaxWait))
	for {
		b.mu.Lock()
		b.init()
		v := View{Name: name, Entries: []Entry{}}
		if bx := b.boxes[name]; bx != nil {
			v.Entries = append(v.Entries, bx.entries...)
			v.Count, v.Dropped = len(bx.entries), bx.dropped
		}
		changed := b.changed
		b.mu.Unlock()
		left := time.Until(deadline)
		if wait <= 0 || v.Count >= count {
			return v
		}
		if left <= 0 {
			v.TimedOut = true
			return v
		}
		t := time.NewTimer(left)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			v.TimedOut = true
			return v
		}
		t.Stop()
	}
}

// Summary is one inbox in GET /_sandbox/inbox.
type Summary struct {
	Name  string `json:"name"`  // the inbox's name
	Count int    `json:"count"` // entries it holds
}

// Names lists the inboxes that received something, by name.
func (b *Inbox) Names() []Summary {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []Summary{}
	for name, bx := range b.boxes {
		out = append(out, Summary{Name: name, Count: len(bx.entries)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Clear empties one inbox and says how many entries it held.
func (b *Inbox) Clear(name string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	n := 0
	if bx := b.boxes[name]; bx != nil {
		n = len(bx.entries)
		delete(b.boxes, name)
		b.notifyLocked()
	}
	return n
}

// Reset empties every inbox; the sandbox went back to its fixtures.
func (b *Inbox) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.init()
	b.boxes = map[string]*box{}
	b.notifyLocked()
}

// Local is the dispatcher's hook (webhooks.Dispatcher.Local): the
// in-process receiver of an inbox URL of this sandbox, nil for any other
// URL.
func (b *Inbox) Local(rawURL string) http.Handler {
	name, ok := b.match(rawURL)
	if !ok {
		return nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { b.serveLocal(w, r, name) })
}

// Owns reports whether rawURL is an inbox of this sandbox (Is against any
// of its base URLs): the URL pointing at the sandbox that a webhook may
// name, as the dispatcher delivers it in-process.
func (b *Inbox) Owns(rawURL string) bool {
	_, ok := b.match(rawURL)
	return ok
}

func (b *Inbox) match(rawURL string) (string, bool) {
	if b.Bases == nil {
		return "", false
	}
	for _, base := range b.Bases() {
		if name, ok := nameOf(base, rawURL); ok {
			return name, true
		}
	}
	return "", false
}

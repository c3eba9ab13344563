package webhooks_test

import (
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// TestSpecEventNamesRegister registers every event kind of the spec's
// Events table (and its mass events) under the spec's own name, one at a
// time: each answers 201 and is stored under the reference's name.
func TestSpecEventNamesRegister(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	for _, kind := range specEvents {
		if webhooks.IsSystem(kind) {
			continue // configured on the add-on, refused by registration (TestRegistrationAPI)
		}
		t.Run(kind, func(t *testing.T) {
			r := e.Call(http.MethodPost, "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": kind, "url": e.R.URL}}})
			if r.Status != http.StatusCreated {
				t.Fatalf("register %s: %d %s", kind, r.Status, r.Body)
			}
			var d struct{ Webhooks []hook }
			r.Data(t, &d)
			if len(d.Webhooks) != 1 || d.Webhooks[0].Event != webhooks.Canonical(kind) {
				t.Fatalf("register %s: stored %+v, want event %s", kind, d.Webhooks, webhooks.Canonical(kind))
			}
			if r := e.Call(http.MethodDelete, fmt.Sprintf("/api/webhooks/%d", d.Webhooks[0].ID), nil); r.Status != http.StatusOK {
				t.Fatalf("delete: %d %s", r.Status, r.Body)
			}
		})
	}
}

// TestSpecEventAliasesDeliverReferenceName registers each spec name of
// webhooks.Aliases, makes the change, and expects the notification under
// the reference's name (never the spec's); the registration lists the
// reference's name, and both names together are one registration.
func TestSpecEventAliasesDeliverReferenceName(t *testing.T) {
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	product, _ := products[0]["guid"].(string)
	// trigger makes the change of each aliased kind (by its reference name).
	trigger := map[string]struct {
		method, path string
		body         any
	}{
		"productReview:created": {http.MethodPost, "/api/reviews/products", map[string]any{"data": map[string]any{"rating": 4, "productGuid": product, "description": "Good"}}},
	}
	aliases := make([]string, 0, len(webhooks.Aliases))
	for a := range webhooks.Aliases {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	if len(aliases) == 0 {
		t.Fatal("no aliases: the spec's productReview:create is the reference's productReview:created")
	}
	for _, spec := range aliases {
		ref := webhooks.Aliases[spec]
		t.Run(spec, func(t *testing.T) {
			e := evtest.Start(t, sandbox.Config{})
			e.Register(spec)
			var list struct{ Webhooks []hook }
			e.Call(http.MethodGet, "/api/webhooks", nil).Data(t, &list)
			if len(list.Webhooks) != 1 || list.Webhooks[0].Event != ref {
				t.Fatalf("registered %s, listed %+v; want %s", spec, list.Webhooks, ref)
			}
			if r := e.Call(http.MethodPost, "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": ref, "url": e.R.URL}}}); r.Status != http.StatusConflict {
				t.Errorf("%s next to %s at the same URL: %d %s, want 409 (one registration)", ref, spec, r.Status, r.Body)
			}
			tr, ok := trigger[ref]
			if !ok {
				t.Fatalf("the test has no trigger for %s", ref)
			}
			if r := e.Call(tr.method, tr.path, tr.body); r.Status >= 300 {
				t.Fatalf("%s %s: %d %s", tr.method, tr.path, r.Status, r.Body)
			}
			n := e.R.WaitFor(ref, "")
			if n.Payload.Event != ref {
				t.Errorf("delivered as %q, want %q", n.Payload.Event, ref)
			}
			// A notification under the spec's name would come from the same
			// change, queued with this one before it went out: the
			// notification list below shows none was, and none arrived.
			if got := e.R.Find(spec); len(got) != 0 {
				t.Errorf("%d notifications under the spec's name %s", len(got), spec)
			}
			var notes struct {
				Notifications []struct{ Event string }
			}
			e.Call(http.MethodGet, "/api/webhooks/notifications?event="+spec, nil).Data(t, &notes)
			if len(notes.Notifications) != 1 || notes.Notifications[0].Event != ref {
				t.Errorf("notifications filtered by %s: %+v, want the one %s", spec, notes.Notifications, ref)
			}
		})
	}
}

package inbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/inbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

const token = "sbx_prv_538318d5dbe63220d64365f084946f66"

func inboxView(t *testing.T, s *sandboxtest.Server, path string) inbox.View {
	t.Helper()
	r := s.Do(sandboxtest.Call{Path: path})
	if r.Status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var v inbox.View
	r.Data(t, &v)
	return v
}

func emit(t *testing.T, s *sandboxtest.Server, instance string) {
	t.Helper()
	r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/_sandbox/events",
		Body: map[string]any{"eshopId": 1001, "event": "brand:create", "instance": instance}})
	if r.Status != 200 {
		t.Fatalf("emit: %d %s", r.Status, r.Body)
	}
}

// TestInboxReceivesWebhooks: a webhook registered to the sandbox's own
// inbox URL is delivered in-process (no call reaches the listener), its
// signature checked with the e-shop's key, listed by GET with ?wait,
// recorded as a successful delivery, and emptied by DELETE and by reset.
func TestInboxReceivesWebhooks(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	url := s.URL + "/_sandbox/inbox/brands"
	r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks", PrivateToken: token,
		Body: map[string]any{"data": []any{map[string]any{"event": "brand:create", "url": url}}}})
	if r.Status != 201 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	emit(t, s, "before-key")
	v := inboxView(t, s, "/_sandbox/inbox/brands?wait=10s")
	if v.Count != 1 || v.URL != url || v.TimedOut {
		t.Fatalf("view %+v", v)
	}
	e := v.Entries[0]
	if e.ID != 1 || e.EshopID != 1001 || e.Event != "brand:create" || e.EventInstance != "before-key" ||
		e.SignatureCheck != inbox.SignatureUnsigned || e.SignatureValid || e.Time == "" {
		t.Fatalf("entry %+v", e)
	}

	r = s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks/renew-signature-key", PrivateToken: token})
	var key struct{ SignatureKey string }
	r.Data(t, &key)
	emit(t, s, "after-key")
	v = inboxView(t, s, "/_sandbox/inbox/brands?wait=10s&count=2")
	e = v.Entries[1]
	if v.Count != 2 || e.ID != 2 || e.SignatureCheck != inbox.SignatureValid || !e.SignatureValid ||
		!webhooks.Verify(key.SignatureKey, e.Body, e.Signature) {
		t.Fatalf("signed entry %+v", e)
	}
	var body map[string]any
	if err := json.Unmarshal(e.Body, &body); err != nil || body["eventInstance"] != "after-key" {
		t.Fatalf("body %s", e.Body)
	}

	// The dispatcher's records: two attempts, both answered 200 by the inbox.
	r = s.Do(sandboxtest.Call{Path: "/_sandbox/deliveries?event=brand:create"})
	var ds struct{ Deliveries []webhooks.Notification }
	r.Data(t, &ds)
	if len(ds.Deliveries) != 2 {
		t.Fatalf("%d deliveries", len(ds.Deliveries))
	}
	for _, d := range ds.Deliveries {
		if d.Status != webhooks.StatusDelivered || len(d.Attempts) != 1 || d.Attempts[0].Status != 200 || d.URL != url {
			t.Fatalf("delivery %+v", d)
		}
	}
	// ... and no request reached the sandbox's own listener.
	r = s.Do(sandboxtest.Call{Path: "/_sandbox/traffic?limit=1000"})
	var tr struct {
		Events []struct {
			Type string
			Call *struct{ Method, Path string }
		}
	}
	r.Data(t, &tr)
	deliveries := 0
	for _, ev := range tr.Events {
		if ev.Type == "delivery" {
			deliveries++
		}
		if ev.Call != nil && ev.Call.Method == http.MethodPost && strings.HasPrefix(ev.Call.Path, "/_sandbox/inbox") {
			t.Fatalf("a delivery went through the listener: %+v", ev.Call)
		}
	}
	if deliveries != 2 {
		t.Fatalf("%d delivery events in the traffic history, want 2", deliveries)
	}

	names := s.Do(sandboxtest.Call{Path: "/_sandbox/inbox"})
	if !strings.Contains(string(names.Body), `{"name":"brands","count":2}`) {
		t.Fatalf("inbox list %s", names.Body)
	}
	r = s.Do(sandboxtest.Call{Method: http.MethodDelete, Path: "/_sandbox/inbox/brands"})
	if r.Status != 200 || !strings.Contains(string(r.Body), `"cleared":2`) {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if v := inboxView(t, s, "/_sandbox/inbox/brands"); v.Count != 0 || len(v.Entries) != 0 {
		t.Fatalf("after delete %+v", v)
	}

	emit(t, s, "before-reset")
	inboxView(t, s, "/_sandbox/inbox/brands?wait=10s")
	if r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/_sandbox/reset"}); r.Status != 200 {
		t.Fatalf("reset %d", r.Status)
	}
	if v := inboxView(t, s, "/_sandbox/inbox/brands"); v.Count != 0 {
		t.Fatalf("after reset %+v", v)
	}
}

// TestInboxOverHTTP: POST /_sandbox/inbox/<name> receives like the
// in-process path; a bad signature is recorded as invalid; bad names and
// parameters answer 400, bodies that are not JSON 422; a wait ends.
func TestInboxOverHTTP(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks/renew-signature-key", PrivateToken: token})
	body := `{"eshopId":1001,"event":"order:create","eventCreated":"2025-01-01T00:00:00+0100","eventInstance":"2025000001"}`
	for _, tc := range []struct {
		sig, want string
	}{
		{"", inbox.SignatureMissing},
		{strings.Repeat("0", 40), inbox.SignatureInvalid},
	} {
		h := map[string]string{}
		if tc.sig != "" {
			h["Service-Webhook-Signature"] = tc.sig
		}
		r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/_sandbox/inbox/manual", Body: body, Header: h})
		var e inbox.Entry
		r.Data(t, &e)
		if r.Status != 200 || e.SignatureCheck != tc.want || e.SignatureValid {
			t.Fatalf("sig %q: %d %+v", tc.sig, r.Status, e)
		}
	}
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		instance     string
	}{
		{http.MethodGet, "/_sandbox/inbox/bad%20name", nil, 400, "name"},
		{http.MethodGet, "/_sandbox/inbox/x?wait=forever", nil, 400, "wait"},
		{http.MethodGet, "/_sandbox/inbox/x?wait=31s", nil, 400, "wait"},
		{http.MethodGet, "/_sandbox/inbox/x?count=0", nil, 400, "count"},
		{http.MethodPost, "/_sandbox/inbox/x", "not json", 422, "body"},
		{http.MethodPost, "/_sandbox/inbox/x", "[1,2]", 422, "body"},
	} {
		r := s.Do(sandboxtest.Call{Method: tc.method, Path: tc.path, Body: tc.body})
		if r.Status != tc.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.instance {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, r.Status, r.Body)
		}
	}
	began := time.Now()
	v := inboxView(t, s, "/_sandbox/inbox/empty?wait=300ms")
	if !v.TimedOut || v.Count != 0 || time.Since(began) < 250*time.Millisecond {
		t.Fatalf("wait on an empty inbox: %+v after %s", v, time.Since(began))
	}
}

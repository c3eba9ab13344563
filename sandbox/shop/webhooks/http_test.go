package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

type hook struct {
	ID    int    `json:"id"`
	Event string `json:"event"`
	URL   string `json:"url"`
}

// TestRegistrationAPI walks the Webhooks endpoints: register several at
// once, list, detail, update, delete, and the spec's refusals.
func TestRegistrationAPI(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	reg := func(rows ...string) *sandboxtest.Response {
		var data []map[string]string
		for i := 0; i < len(rows); i += 2 {
			data = append(data, map[string]string{"event": rows[i], "url": rows[i+1]})
		}
		return e.Call("POST", "/api/webhooks", map[string]any{"data": data})
	}
	u := e.R.URL
	r := reg("order:create", u, "job:finished", u, "customer:disableOrders", u)
	if r.Status != 201 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	var created struct{ Webhooks []hook }
	r.Data(t, &created)
	if len(created.Webhooks) != 3 || created.Webhooks[0].Event != "order:create" || created.Webhooks[2].URL != u {
		t.Fatalf("created: %+v", created)
	}
	for _, c := range []struct {
		name   string
		rows   []string
		status int
		inst   string
		words  string
	}{
		{"order:update with order:cancel", []string{"order:update", u, "order:cancel", u}, 409, "data", "cannot be registered together"},
		{"customer:update with existing disableOrders", []string{"customer:update", u}, 409, "data", "customer:disableOrders"},
		{"duplicate", []string{"order:create", u}, 409, "data[0]", "already registered"},
		{"system event", []string{"addon:uninstall", u}, 400, "data[0].event", "system event"},
		{"unknown event", []string{"order:explode", u}, 422, "data[0].event", "order:explode"},
		{"not a URL", []string{"order:paid", "hook"}, 400, "data[0].url", "http"},
	} {
		r := reg(c.rows...)
		if r.Status != c.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != c.inst || !strings.Contains(r.Env.Errors[0].Message, c.words) {
			t.Errorf("%s: %d %s", c.name, r.Status, r.Body)
		}
	}
	// order:update and order:cancel are refused across requests too.
	if r := reg("order:update", u); r.Status != 201 {
		t.Fatalf("order:update alone: %d %s", r.Status, r.Body)
	}
	if r := reg("order:cancel", u); r.Status != 409 {
		t.Fatalf("order:cancel after order:update: %d %s", r.Status, r.Body)
	}

	var list struct {
		Webhooks  []hook
		Paginator struct{ TotalCount int }
	}
	e.Call("GET", "/api/webhooks?itemsPerPage=2", nil).Data(t, &list)
	if list.Paginator.TotalCount != 4 || len(list.Webhooks) != 2 {
		t.Fatalf("list: %+v", list)
	}
	id := created.Webhooks[0].ID
	path := fmt.Sprintf("/api/webhooks/%d", id)
	if r := e.Call("PATCH", path, map[string]any{"data": map[string]any{"url": u + "/v2"}}); r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Body)
	}
	if r := e.Call("PATCH", path, map[string]any{"data": map[string]any{"url": "nope"}}); r.Status != 400 {
		t.Fatalf("update to a bad URL: %d %s", r.Status, r.Body)
	}
	var detail struct{ Webhook hook }
	e.Call("GET", path, nil).Data(t, &detail)
	if detail.Webhook.URL != u+"/v2" || detail.Webhook.Event != "order:create" {
		t.Fatalf("detail: %+v", detail)
	}
	if r := e.Call("DELETE", path, nil); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := e.Call("GET", path, nil); r.Status != 404 {
		t.Fatalf("deleted webhook: %d", r.Status)
	}
	// Another e-shop sees none of them.
	var other struct{ Webhooks []hook }
	e.S.Do(sandboxtest.Call{Path: "/api/webhooks", PrivateToken: e.Other}).Data(t, &other)
	if len(other.Webhooks) != 0 {
		t.Fatalf("e-shop 1002 sees %+v", other.Webhooks)
	}
	// Each renewal issues a new key.
	if k1, k2 := e.RenewKey(), e.RenewKey(); k1 == k2 || len(k1) < 20 {
		t.Fatalf("keys %q %q", k1, k2)
	}
}

// TestEmitDeliverReplay emits through the control plane, checks the
// signed delivery, the notification history, the delivery log and a
// replay.
func TestEmitDeliverReplay(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	key := e.RenewKey()
	e.Register("order:create", "order:massUpdate")
	r := e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "2025000001"})
	if r.Status != 200 {
		t.Fatalf("emit: %d %s", r.Status, r.Body)
	}
	n := e.R.WaitFor("order:create", "2025000001")
	if !n.Valid(key) {
		t.Fatalf("signature %q does not verify", n.Signature)
	}
	if want := fmt.Sprintf(`{"eshopId":1001,"event":"order:create","eventCreated":"%s","eventInstance":"2025000001"}`, sandbox.FormatTime(evtest.T0)); string(n.Body) != want {
		t.Fatalf("body %s\nwant %s", n.Body, want)
	}
	e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:massUpdate", "instance": []any{"2025000001", "2025/2"}})
	mass := e.R.WaitFor("order:massUpdate", "")
	if mass.Payload.EventInstance != `["2025000001","2025\/2"]` {
		t.Fatalf("mass instance %q", mass.Payload.EventInstance)
	}
	for _, c := range []struct {
		body   map[string]any
		status int
	}{
		{map[string]any{"eshop": 1001, "event": "order:nope", "instance": "1"}, 400},
		{map[string]any{"eshop": 1001, "event": "order:create"}, 400},
		{map[string]any{"eshop": 4242, "event": "order:create", "instance": "1"}, 404},
		{map[string]any{"eshopId": 4242, "event": "order:create", "instance": "1"}, 404},
		{map[string]any{"eshopId": 1001, "event": "order:nope", "instance": "1"}, 400},
		{map[string]any{"event": "order:create", "instance": "1"}, 400},
		{map[string]any{"eshop": 1001, "event": "addon:suspend", "instance": "1001", "addon": "nobody"}, 404},
	} {
		if r := e.Control("POST", "/_sandbox/events", c.body); r.Status != c.status {
			t.Errorf("emit %v: %d %s", c.body, r.Status, r.Body)
		}
	}

	var hist struct {
		Notifications []struct {
			ID, Attempts int
			Status       string
			Event        string
			Data         struct{ EventInstance string }
		}
	}
	e.Call("GET", "/api/webhooks/notifications?event=order:create", nil).Data(t, &hist)
	if len(hist.Notifications) != 1 || hist.Notifications[0].Status != webhooks.StatusDelivered || hist.Notifications[0].Attempts != 1 || hist.Notifications[0].Data.EventInstance != "2025000001" {
		t.Fatalf("history: %+v", hist)
	}
	if r := e.Call("GET", "/api/webhooks/notifications?from=yesterday", nil); r.Status != 400 {
		t.Fatalf("bad from: %d", r.Status)
	}

	var log struct{ Deliveries []webhooks.Notification }
	e.Control("GET", "/_sandbox/deliveries?event=order:create", nil).Data(t, &log)
	if len(log.Deliveries) != 1 || len(log.Deliveries[0].Attempts) != 1 {
		t.Fatalf("deliveries: %+v", log)
	}
	a := log.Deliveries[0].Attempts[0]
	if a.Status != http.StatusNoContent || a.Signature != n.Signature || a.Headers["Content-Type"] != "application/json" || a.Error != "" {
		t.Fatalf("attempt: %+v", a)
	}
	id := log.Deliveries[0].ID
	r = e.Control("POST", fmt.Sprintf("/_sandbox/deliveries/%d/replay", id), nil)
	if r.Status != 202 {
		t.Fatalf("replay: %d %s", r.Status, r.Body)
	}
	e.R.Wait("the replay", func() bool { return len(e.R.Find("order:create")) == 2 })
	if again := e.R.Find("order:create")[1]; string(again.Body) != string(n.Body) || !again.Valid(key) {
		t.Fatalf("replayed body %s", again.Body)
	}
	if r := e.Control("POST", "/_sandbox/deliveries/999/replay", nil); r.Status != 404 {
		t.Fatalf("replay unknown: %d", r.Status)
	}
}

// TestReceiverDownHTTP is the acceptance case over HTTP: the receiver is
// down for its first 3 attempts; moving the clock through the control
// plane runs the retries and every event arrives, in order.
func TestReceiverDownHTTP(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{WebhookAttempts: 5, WebhookBackoff: 30 * time.Second})
	key := e.RenewKey()
	e.Register("brand:create", "brand:update")
	e.R.FailNext(3)
	var want []string
	for i := 0; i < 4; i++ {
		kind := []string{"brand:create", "brand:update"}[i%2]
		inst := fmt.Sprintf("brand-%d", i/2)
		e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": kind, "instance": inst})
		want = append(want, kind+" "+inst)
	}
	e.R.Wait("attempt 1", func() bool { return e.R.Tries() == 1 })
	for i, step := range []string{"30s", "60s", "120s"} {
		e.Advance(step)
		tries := i + 2
		e.R.Wait(fmt.Sprintf("attempt %d", tries), func() bool { return e.R.Tries() >= tries })
	}
	e.R.Wait("every event", func() bool { return len(e.R.Got()) == len(want) })
	for i, n := range e.R.Got() {
		if got := n.Payload.Event + " " + n.Payload.EventInstance; got != want[i] || !n.Valid(key) {
			t.Fatalf("notification %d: %s (valid %v), want %s", i, got, n.Valid(key), want[i])
		}
	}
	var log struct{ Deliveries []webhooks.Notification }
	e.Control("GET", "/_sandbox/deliveries", nil).Data(t, &log)
	if len(log.Deliveries) != 4 || len(log.Deliveries[0].Attempts) != 4 || log.Deliveries[0].Attempts[0].Status != 503 {
		raw, _ := json.Marshal(log)
		t.Fatalf("delivery log: %s", raw)
	}
}

// TestClockRoutes moves and reads the clock.
func TestClockRoutes(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	var st struct{ Now, Rfc3339 string }
	e.Control("GET", "/_sandbox/clock", nil).Data(t, &st)
	if st.Now != sandbox.FormatTime(evtest.T0) {
		t.Fatalf("now %s", st.Now)
	}
	e.Control("POST", "/_sandbox/clock", map[string]any{"advance": "1d2h"}).Data(t, &st)
	if st.Now != sandbox.FormatTime(evtest.T0.Add(26*time.Hour)) {
		t.Fatalf("after advance %s", st.Now)
	}
	e.Control("POST", "/_sandbox/clock", map[string]any{"set": "2026-01-01T00:00:00Z"}).Data(t, &st)
	if st.Rfc3339 != "2026-01-01T00:00:00Z" {
		t.Fatalf("after set %+v", st)
	}
	for _, bad := range []map[string]any{{}, {"advance": "soon"}, {"set": "tomorrow"}, {"advance": "1h", "set": "2026-01-01T00:00:00Z"}, {"advance": 5}} {
		if r := e.Control("POST", "/_sandbox/clock", bad); r.Status != 400 {
			t.Errorf("%v: %d %s", bad, r.Status, r.Body)
		}
	}
}

// TestPendingSurviveRestart: notifications still pending when the
// sandbox stops are sent after a restart on the same data file.
func TestPendingSurviveRestart(t *testing.T) {
	file := t.TempDir() + "/sandbox.db"
	a := evtest.Start(t, sandbox.Config{DataFile: file, WebhookBackoff: 10 * time.Second})
	key := a.RenewKey()
	a.R.FailNext(1000)
	a.Register("order:create")
	a.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "2025000001"})
	a.R.Wait("attempt 1", func() bool { return a.R.Tries() == 1 })
	// Wait until the failed attempt is stored, then stop.
	a.R.Wait("the attempt to be recorded", func() bool {
		var log struct{ Deliveries []webhooks.Notification }
		a.Control("GET", "/_sandbox/deliveries", nil).Data(t, &log)
		return len(log.Deliveries) == 1 && len(log.Deliveries[0].Attempts) == 1
	})
	if err := a.S.App.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	a.R.FailNext(0)

	b := evtest.Start(t, sandbox.Config{DataFile: file, WebhookBackoff: 10 * time.Second})
	b.R = a.R // the receiver the webhook was registered with
	b.Advance("10s")
	n := b.R.WaitFor("order:create", "2025000001")
	if !n.Valid(key) {
		t.Fatal("the resumed delivery's signature does not verify")
	}
}

// TestResetForgetsQueues: after POST /_sandbox/reset nothing registered
// before is delivered any more.
func TestResetForgetsQueues(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	e.R.FailNext(1)
	e.Register("order:create")
	e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "1"})
	e.R.Wait("attempt 1", func() bool { return e.R.Tries() == 1 })
	if r := e.Control("POST", "/_sandbox/reset", nil); r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	var list struct{ Webhooks []hook }
	e.Call("GET", "/api/webhooks", nil).Data(t, &list)
	var log struct{ Deliveries []webhooks.Notification }
	e.Control("GET", "/_sandbox/deliveries", nil).Data(t, &log)
	if len(list.Webhooks) != 0 || len(log.Deliveries) != 0 {
		t.Fatalf("after reset: %d webhooks, %d deliveries", len(list.Webhooks), len(log.Deliveries))
	}
	e.Advance("1h")
	// A new registration and event go through; the old one never does.
	e.Register("order:create")
	e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "2"})
	e.R.WaitFor("order:create", "2")
	if got := e.R.Got(); len(got) != 1 {
		t.Fatalf("delivered after reset: %d", len(got))
	}
}

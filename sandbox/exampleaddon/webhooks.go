package exampleaddon

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Notification is the body of a webhook: the e-shop, the event, when it
// happened and the identifier of the changed entity. Nothing more: the
// add-on fetches what it needs through the API.
type Notification struct {
	EshopID       int     `json:"eshopId"`
	Event         string  `json:"event"`
	EventCreated  *string `json:"eventCreated"`
	EventInstance string  `json:"eventInstance"`
}

// Sign is the webhook signature of a body: the lowercase hex HMAC-SHA1
// of the raw bytes, keyed with the e-shop's signature key.
func Sign(key string, body []byte) string {
	m := hmac.New(sha1.New, []byte(key))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks a webhook signature in constant time, over the body
// exactly as received (never a re-encoded copy).
func Verify(key string, body []byte, signature string) bool {
	if key == "" || signature == "" {
		return false
	}
	return hmac.Equal([]byte(Sign(key, body)), []byte(signature))
}

// handleWebhook receives notifications and system events. It answers at
// once (the e-shop retries slow or failed deliveries) and processes
// verified ones in the background.
func (a *Addon) handleWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	var n Notification
	if err := json.Unmarshal(body, &n); err != nil || n.Event == "" {
		http.Error(w, "not a notification", http.StatusBadRequest)
		return
	}
	in := a.installation(n.EshopID)
	key := ""
	if in != nil {
		a.mu.Lock()
		key = in.SignatureKey
		a.mu.Unlock()
	}
	sig := r.Header.Get(a.cfg.HeaderPrefix + "-Webhook-Signature")
	if !Verify(key, body, sig) {
		a.log.Warn("webhook rejected: bad signature", "event", n.Event, "eshop", n.EshopID, "knownEshop", in != nil)
		a.record(Received{Event: n.Event, EshopID: n.EshopID, Instance: n.EventInstance, Result: "rejected: bad signature"})
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	w.WriteHeader(http.StatusOK)
	a.work.add(1)
	go func() {
		defer a.work.add(-1)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		a.record(Received{Event: n.Event, EshopID: n.EshopID, Instance: n.EventInstance, Verified: true, Result: a.process(ctx, in, n)})
	}()
}

// process reacts to one verified notification and says what it did.
func (a *Addon) process(ctx context.Context, in *installation, n Notification) string {
	switch n.Event {
	case "addon:suspend", "addon:approve":
		a.mu.Lock()
		in.Suspended = n.Event == "addon:suspend"
		a.mu.Unlock()
		a.save()
		if n.Event == "addon:suspend" {
			return "suspended: no API calls until addon:approve"
		}
		return "resumed"
	case "addon:terminate", "addon:uninstall":
		a.forget(in)
		return "forgot the installation and its tokens"
	}
	a.mu.Lock()
	suspended := in.Suspended
	a.mu.Unlock()
	if suspended {
		return "ignored while suspended"
	}
	switch n.Event {
	case "customer:import":
		return a.syncCustomers(ctx, in)
	case "job:finished":
		return a.jobFinished(ctx, in, n.EventInstance)
	case "order:create", "order:update", "order:cancel", "order:paid":
		var order struct {
			Order struct {
				Code   string `json:"code"`
				Status struct {
					Name string `json:"name"`
				} `json:"status"`
			} `json:"order"`
		}
		if err := a.call(ctx, in, http.MethodGet, "/api/orders/"+url.PathEscape(n.EventInstance), nil, &order); err != nil {
			a.log.Error("fetch order", "code", n.EventInstance, "err", err)
			return "fetching the order failed: " + err.Error()
		}
		return fmt.Sprintf("fetched order %s (%s)", order.Order.Code, order.Order.Status.Name)
	}
	return "noted"
}

func (a *Addon) record(r Received) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.events = append(a.events, r)
	if len(a.events) > 100 {
		a.events = a.events[len(a.events)-100:]
	}
	a.log.Info("webhook", "event", r.Event, "eshop", r.EshopID, "instance", r.Instance, "result", r.Result)
}

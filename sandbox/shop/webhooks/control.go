package webhooks

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Routes returns the control-plane routes: emit an event, list delivery
// attempts, replay a delivery.
func (s *Service) Routes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.events.emit", Method: http.MethodPost, Summary: "Emit any event, system events included, to the registered receivers", Path: "/_sandbox/events", Handler: s.emit, Answer: EmittedEvent{}, Body: EmitBody{}},
		{Operation: "sandbox.deliveries", Method: http.MethodGet, Summary: "Webhook delivery attempts: request, status, duration, error (filters: eshop, event, status, url)", Path: "/_sandbox/deliveries", Handler: s.deliveries,
			Answer: map[string]any{"deliveries": api.Doc([]*Notification{}, "Every notification matching the filters, with all its attempts, oldest first.")}},
		{Operation: "sandbox.deliveries.replay", Method: http.MethodPost, Summary: "Deliver a notification again: same body, signed with the current key", Path: "/_sandbox/deliveries/{id}/replay", Handler: s.replay, Body: api.NoData{},
			Answer: map[string]any{"delivery": api.Doc(&Notification{}, "The new notification, replaying the old one's body.")}},
	}
}

// EmitBody is the body of POST /_sandbox/events.
type EmitBody struct {
	Eshop        int    `json:"eshop" doc:"The e-shop's id, e.g. 1001 (eshopId, the payload's own name, is accepted too)."`
	Event        string `json:"event" doc:"An event of the reference, e.g. order:create; system events (addon:*) too."`
	Instance     any    `json:"instance" doc:"The changed entity's identifier (a string or a number); a list of them for a mass event."`
	Addon        string `json:"addon,omitempty" doc:"For a system event (addon:*): the add-on it goes to; every add-on with a webhook URL when absent."`
	EventCreated string `json:"eventCreated,omitempty" doc:"The event's time (ISO 8601); the sandbox clock when absent."`
}

// EmittedEvent is the answer of POST /_sandbox/events.
type EmittedEvent struct {
	EshopID      int    `json:"eshopId"`         // the e-shop the event happened in
	Event        string `json:"event"`           // the event as the receivers get it, e.g. order:create
	EventCreated string `json:"eventCreated"`    // the event's time (sandbox clock)
	Instance     string `json:"eventInstance"`   // the changed entity's identifier (a mass event's list, serialised)
	Addon        string `json:"addon,omitempty"` // the add-on a system event went to
}

// emit publishes any event of the reference, system events included, as
// if the e-shop had made the change: {"eshop": 1001 (or "eshopId"), "event":
// "order:create", "instance": "2025000001"}; a list instance (mass
// events) is serialised the way the service does; "addon" names the
// add-on of a system event (all add-ons with a webhook URL when absent).
func (s *Service) emit(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	field := "eshop"
	if _, ok := body["eshop"]; !ok {
		if _, ok := body["eshopId"]; ok {
			field = "eshopId" // the payload's own name for it, accepted too
		}
	}
	id, err := intField(body, field)
	if err != nil {
		return nil, err
	}
	kind, _ := body["event"].(string)
	kind = Canonical(kind)
	if kind == "" || !s.Catalogue[kind] {
		return nil, sandbox.Invalid("event", "Field event: %q is not an event of the reference. %s", kind, s.Catalogue.hint(kind))
	}
	var instance string
	switch v := body["instance"].(type) {
	case string:
		instance = v
	case json.Number:
		instance = v.String()
	case []any:
		ids := make([]string, len(v))
		for i, x := range v {
			switch x := x.(type) {
			case string:
				ids[i] = x
			case json.Number:
				ids[i] = x.String()
			default:
				return nil, sandbox.Invalid("instance", "Field instance[%d] must be a string or a number.", i)
			}
		}
		instance = EncodeList(ids)
	}
	if strings.TrimSpace(instance) == "" {
		return nil, sandbox.Invalid("instance", "Field instance: the changed entity's identifier is required (a list of them for a mass event).")
	}
	addon, _ := body["addon"].(string)
	if addon != "" && !IsSystem(kind) {
		return nil, sandbox.Invalid("addon", "Field addon applies to system events (addon:*) only.")
	}
	ev := sandbox.Event{EshopID: id, Kind: kind, Instance: instance, Addon: addon}
	if v, ok := body["eventCreated"].(string); ok && v != "" {
		t, err := sandbox.ParseTime(v)
		if err != nil {
			return nil, sandbox.Invalid("eventCreated", "Field eventCreated: %q is not a date-time.", v)
		}
		ev.Time = t
	}
	err = s.Store.Update(func(tx *store.Tx) error {
		if err := knownEshop(tx, id); err != nil {
			return err
		}
		if addon != "" && !auth.AddonExists(tx, id, addon) {
			return sandbox.NotFound(addon, "Add-on %q is not installed in e-shop %d.", addon, id)
		}
		tx.Emit(ev)
		if ev.Time.IsZero() {
			ev.Time = tx.Now()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return EmittedEvent{EshopID: id, Event: kind, EventCreated: sandbox.FormatTime(ev.Time), Instance: instance, Addon: addon}, nil
}

func intField(body map[string]any, name string) (int, error) {
	switch v := body[name].(type) {
	case json.Number:
		if n, err := strconv.Atoi(v.String()); err == nil {
			return n, nil
		}
	case string:
		if n, err := strconv.Atoi(v); err == nil {
			return n, nil
		}
	}
	return 0, sandbox.Invalid(name, "Field %s: the e-shop id (e.g. 1001) is required.", name)
}

// deliveries lists every notification with all its attempts, oldest
// first; filters: eshop, event, status (pending, delivered, failed), url.
func (s *Service) deliveries(r *api.Request) (any, error) {
	eshopFilter := r.Query("eshop")
	event, status, url := r.Query("event"), r.Query("status"), r.Query("url")
	out := []*Notification{}
	err := s.Store.View(func(tx *store.Tx) error {
		return tx.Scan(store.Global, NotificationsCollection, func(_ string, doc []byte) bool {
			var n Notification
			if json.Unmarshal(doc, &n) != nil {
				return true
			}
			if (eshopFilter != "" && strconv.Itoa(n.EshopID) != eshopFilter) || (event != "" && n.Event != event) ||
				(status != "" && n.Status != status) || (url != "" && n.URL != url) {
				return true
			}
			out = append(out, &n)
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"deliveries": out}, nil
}

func (s *Service) replay(r *api.Request) (any, error) {
	n, err := s.Dispatcher.Replay(r.Var("id"))
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(r.Var("id"), "Delivery %s does not exist.", r.Var("id"))
	}
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: http.StatusAccepted, Data: map[string]any{"delivery": n}}, nil
}

// Package webhooks is the event side of the sandbox: webhook
// registration through the reference's Webhooks endpoints, the e-shop's
// signature key, the notification history, and the dispatcher that signs
// and delivers every committed event to its receivers with retries on
// the sandbox clock. The control plane can emit any event, list every
// delivery attempt and replay a delivery.
package webhooks

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/egress"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Paging of the webhook and notification lists.
const (
	PerPage    = 20
	MaxPerPage = 100
)

// Service serves the Webhooks endpoints and the delivery control routes.
type Service struct {
	Store      *store.Store
	IDs        *sandbox.IDs
	Catalogue  Catalogue // every event name of the reference
	Dispatcher *Dispatcher
	// Egress refuses receiver URLs that point at the sandbox itself; nil
	// checks nothing (tests of the package alone).
	Egress *egress.Guard
}

// checkReachable refuses a receiver URL at the sandbox's own address.
func (s *Service) checkReachable(r *api.Request, field, u string) error {
	if s.Egress == nil {
		return nil
	}
	if err := s.Egress.Check(r.Context(), u); err != nil {
		return sandbox.Invalid(field, "Field %s: the URL %q cannot receive webhooks: %v.", field, u, err)
	}
	return nil
}

// Handlers returns the Webhooks group's handlers keyed by operation.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	return map[string]api.HandlerFunc{
		"GetOverviewOfRegisteredWebhooks": s.list,
		"RegisterNewWebhook":              s.register,
		"GetDetailOfRegisteredWebhooks":   s.detail,
		"UpdateExistingWebhook":           s.update,
		"DeleteRegisteredWebhook":         s.remove,
		"GenerateWebhookSignatureKey":     s.renewKey,
		"GetWebhookNotification":          s.notifications,
	}
}

func (s *Service) list(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(PerPage, MaxPerPage)
	if err != nil {
		return nil, err
	}
	var all []Webhook
	if err := s.Store.View(func(tx *store.Tx) error {
		all, err = List(tx, r.Eshop)
		return err
	}); err != nil {
		return nil, err
	}
	items := pageOf(all, page, perPage)
	return map[string]any{"webhooks": items, "paginator": api.NewPaginator(len(all), page, perPage, len(items))}, nil
}

func pageOf[T any](all []T, page, perPage int) []T {
	from := (page - 1) * perPage
	if from >= len(all) {
		return []T{}
	}
	return all[from:min(from+perPage, len(all))]
}

func (s *Service) register(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, s.explainEvent(err, r.RawBody())
	}
	rows, ok := body["data"].([]any)
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Field data: a list of webhooks, each {\"event\": \"order:create\", \"url\": \"https://...\"}, is required.")
	}
	regs := make([]Registration, len(rows))
	for i, row := range rows {
		m, _ := row.(map[string]any)
		ev, _ := m["event"].(string)
		u, _ := m["url"].(string)
		regs[i] = Registration{Event: Canonical(ev), URL: strings.TrimSpace(u)}
	}
	for i, reg := range regs {
		if err := s.checkReachable(r, fmt.Sprintf("data[%d].url", i), reg.URL); err != nil {
			return nil, err
		}
	}
	var created []Webhook
	err = s.Store.Update(func(tx *store.Tx) error {
		created = nil
		existing, err := List(tx, r.Eshop)
		if err != nil {
			return err
		}
		byEvent := map[string][]string{}
		for _, w := range existing {
			byEvent[w.Event] = append(byEvent[w.Event], w.URL)
		}
		if err := s.Catalogue.CheckNew(byEvent, regs); err != nil {
			return err
		}
		now := formatPtr(tx.Now())
		for _, reg := range regs {
			id, err := tx.Next(r.Eshop, Collection)
			if err != nil {
				return err
			}
			w := registered{Webhook: Webhook{ID: int(id), Event: reg.Event, URL: reg.URL, Created: now}}
			if p := r.Principal; p != nil && p.Addon != nil {
				w.Addon = p.Addon.Name
			}
			if err := put(tx, r.Eshop, &w); err != nil {
				return err
			}
			created = append(created, w.Webhook)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: map[string]any{"webhooks": created}}, nil
}

// explainEvent replaces the schema's long enum message for an unknown
// event name with one naming the value and its entity's known events.
func (s *Service) explainEvent(err error, raw []byte) error {
	e := sandbox.AsError(err)
	var i int
	if e.Kind != sandbox.KindUnprocessable || !strings.HasSuffix(e.Instance, ".event") {
		return err
	}
	if _, scanErr := fmt.Sscanf(e.Instance, "data[%d].event", &i); scanErr != nil {
		return err
	}
	var body map[string]any
	if _, derr := api.Decode(raw, &body, api.Decoding{}); derr != nil {
		return err
	}
	rows, _ := body["data"].([]any)
	if i >= len(rows) {
		return err
	}
	row, _ := rows[i].(map[string]any)
	name, ok := row["event"].(string)
	if !ok {
		return err
	}
	return sandbox.Unprocessable(e.Code, e.Instance, "Field %s: unknown event %q. %s", e.Instance, name, s.Catalogue.hint(name))
}

func (s *Service) detail(r *api.Request) (any, error) {
	var w *Webhook
	err := s.Store.View(func(tx *store.Tx) error {
		var err error
		w, err = Get(tx, r.Eshop, r.Var("id"))
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"webhook": w}, nil
}

func (s *Service) update(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data, _ := body["data"].(map[string]any)
	if data == nil {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Field data: an object with url and/or sendPayload is required.")
	}
	var w *Webhook
	err = s.Store.Update(func(tx *store.Tx) error {
		reg, err := get(tx, r.Eshop, r.Var("id"))
		if err != nil {
			return err
		}
		w = &reg.Webhook
		if v, ok := data["url"]; ok && v != nil {
			u := strings.TrimSpace(v.(string))
			if err := CheckURL("data.url", u); err != nil {
				return err
			}
			if err := s.checkReachable(r, "data.url", u); err != nil {
				return err
			}
			others, err := List(tx, r.Eshop)
			if err != nil {
				return err
			}
			for _, o := range others {
				if o.ID != w.ID && o.Event == w.Event && o.URL == u {
					return sandbox.Conflict("data.url", "Webhook %d already sends %s to %s.", o.ID, o.Event, u)
				}
			}
			w.URL = u
		}
		if v, ok := data["sendPayload"]; ok {
			if v == nil {
				w.SendPayload = nil
			} else {
				sp := v.(string)
				w.SendPayload = &sp
			}
		}
		w.Updated = formatPtr(tx.Now())
		return put(tx, r.Eshop, reg)
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"webhook": w}, nil
}

func (s *Service) remove(r *api.Request) (any, error) {
	err := s.Store.Update(func(tx *store.Tx) error {
		if _, err := Get(tx, r.Eshop, r.Var("id")); err != nil {
			return err
		}
		return tx.Delete(r.Eshop, Collection, r.Var("id"))
	})
	if err != nil {
		return nil, err
	}
	return nil, nil
}

func (s *Service) renewKey(r *api.Request) (any, error) {
	key := s.IDs.Token(40)
	if err := s.Store.Update(func(tx *store.Tx) error { return setSignatureKey(tx, r.Eshop, key) }); err != nil {
		return nil, err
	}
	return map[string]any{"signatureKey": key}, nil
}

// notifications answers the notification history with the reference's
// filters: status, event, active and from (created at or after).
func (s *Service) notifications(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(PerPage, MaxPerPage)
	if err != nil {
		return nil, err
	}
	status, event := r.Query("status"), Canonical(r.Query("event"))
	var active *bool
	if r.Query("active") != "" {
		a, err := r.BoolQuery("active")
		if err != nil {
			return nil, err
		}
		active = &a
	}
	var from time.Time
	if v := r.Query("from"); v != "" {
		if from, err = sandbox.ParseTime(v); err != nil {
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "from",
				"Query parameter from must be a date-time such as 2024-01-31T12:00:00+0100, not %q.", v)
		}
	}
	var items []View
	total := 0
	err = s.Store.View(func(tx *store.Tx) error {
		items = []View{}
		return tx.Scan(store.Global, NotificationsCollection, func(_ string, doc []byte) bool {
			var n Notification
			if json.Unmarshal(doc, &n) != nil || n.EshopID != r.Eshop {
				return true
			}
			v := n.APIView()
			if (status != "" && v.Status != status) || (event != "" && v.Event != event) ||
				(active != nil && v.Active != *active) || (!from.IsZero() && n.Created.Before(from)) {
				return true
			}
			if total >= (page-1)*perPage && len(items) < perPage {
				items = append(items, v)
			}
			total++
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"notifications": items, "paginator": api.NewPaginator(total, page, perPage, len(items))}, nil
}

package orders

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// ControlRoutes are the order parts of the control plane: the e-mail
// outbox and the order-status list editor.
func (s *Service) ControlRoutes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.outbox", Method: http.MethodGet, Summary: "E-mails the sandbox sent (order confirmations, status changes)", Path: "/_sandbox/outbox", Handler: s.outbox, Answer: map[string]any{"emails": api.Doc([]map[string]any{}, "The e-mails sent, oldest first, each as the service would have sent it.")}},
		{Operation: "sandbox.outbox.clear", Method: http.MethodDelete, Summary: "Empty the e-mail outbox", Path: "/_sandbox/outbox", Handler: s.clearOutbox, Answer: api.NoData{}},
		{Operation: "sandbox.orderStatuses.put", Method: http.MethodPut, Summary: "Create or change a custom order status (orderStatusesList:change)", Path: "/_sandbox/eshops/{eshopId:[0-9]+}/order-statuses/{statusId:-?[0-9]+}", Handler: s.putStatus, Answer: map[string]any{}, Body: StatusBody{}},
		{Operation: "sandbox.orderStatuses.delete", Method: http.MethodDelete, Summary: "Delete a custom order status (orderStatusesList:change)", Path: "/_sandbox/eshops/{eshopId:[0-9]+}/order-statuses/{statusId:-?[0-9]+}", Handler: s.deleteStatus, Answer: api.NoData{}},
	}
}

// outbox serves GET /_sandbox/outbox: the e-mails the e-shops would have
// sent, oldest first; filters eshop, orderCode, to, kind.
func (s *Service) outbox(r *api.Request) (any, error) {
	q := r.URL.Query()
	var mails []map[string]any
	err := s.Store.View(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			if v := q.Get("eshop"); v != "" && v != strconv.Itoa(m.ID) {
				continue
			}
			err := tx.Scan(m.ID, OutboxCollection, func(_ string, doc []byte) bool {
				rec, err := decodeRecord(doc)
				if err != nil {
					return true
				}
				for _, f := range []string{"orderCode", "to", "kind"} {
					if v := q.Get(f); v != "" && !strings.EqualFold(v, str(rec[f])) {
						return true
					}
				}
				mails = append(mails, rec)
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	sort.SliceStable(mails, func(i, j int) bool { return str(mails[i]["creationTime"]) < str(mails[j]["creationTime"]) })
	if mails == nil {
		mails = []map[string]any{}
	}
	return map[string]any{"emails": mails}, err
}

// clearOutbox serves DELETE /_sandbox/outbox.
func (s *Service) clearOutbox(r *api.Request) (any, error) {
	return nil, s.Store.Update(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			if err := tx.DeleteCollection(m.ID, OutboxCollection); err != nil {
				return err
			}
		}
		return nil
	})
}

// putStatus serves PUT /_sandbox/eshops/{id}/order-statuses/{statusId}:
// creates or replaces a status (the fields of GET /api/orders/statuses
// items plus "_role", "_sendEmail"), emitting orderStatusesList:change.
func (s *Service) putStatus(r *api.Request) (any, error) {
	var in map[string]any
	if _, err := r.Decode(&in, api.Decoding{NotObject: "Send the status as a JSON object."}); err != nil {
		return nil, err
	}
	if d, ok := in["data"].(map[string]any); ok {
		in = d
	}
	id, _ := strconv.Atoi(r.Var("statusId"))
	if strings.TrimSpace(str(in["name"])) == "" {
		return nil, sandbox.Invalid("name", "A status needs a name.")
	}
	in["id"] = id
	var out map[string]any
	err := s.editStatuses(r, func(doc map[string]any, list []any) ([]any, error) {
		for _, st := range list {
			if m, ok := st.(map[string]any); ok {
				if n, _ := intOf(m["id"]); int(n) == id {
					for k, v := range in {
						m[k] = v
					}
					out = m
					return list, nil
				}
			}
		}
		defaults := map[string]any{"changeOrderItems": false, "markAsPaid": false, "system": false, "stockClaimResolved": false,
			"color": "#000000", "backgroundColor": "#FFFFFF", "order": len(list) + 1,
			"documents": map[string]any{"generateInvoice": false, "generateDeliveryNote": false, "generateProformaInvoice": false, "generateProofPayment": false}}
		for k, v := range in {
			defaults[k] = v
		}
		out = defaults
		return append(list, defaults), nil
	})
	return out, err
}

// StatusBody is the body of PUT .../order-statuses/{statusId} (also
// accepted inside "data"): the status's fields as the reference's order
// status list has them; a new status takes defaults for the absent ones.
type StatusBody struct {
	Name               string          `json:"name" doc:"The status's name."`
	Color              string          `json:"color,omitempty" doc:"Its text colour, e.g. #000000."`
	BackgroundColor    string          `json:"backgroundColor,omitempty" doc:"Its background colour, e.g. #FFFFFF."`
	ChangeOrderItems   *bool           `json:"changeOrderItems,omitempty" doc:"Whether orders in this status may have their items changed."`
	MarkAsPaid         *bool           `json:"markAsPaid,omitempty" doc:"Whether an order set to this status is marked paid."`
	StockClaimResolved *bool           `json:"stockClaimResolved,omitempty" doc:"Whether the status resolves the order's stock claim."`
	Order              *int            `json:"order,omitempty" doc:"Its position in the list."`
	Documents          map[string]bool `json:"documents,omitempty" doc:"Which documents the status generates: generateInvoice, generateDeliveryNote, generateProformaInvoice, generateProofPayment."`
}

// deleteStatus serves DELETE /_sandbox/eshops/{id}/order-statuses/{statusId}:
// custom statuses only, never the default one or one that orders use.
func (s *Service) deleteStatus(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("statusId"))
	return nil, s.editStatuses(r, func(doc map[string]any, list []any) ([]any, error) {
		if def, _ := intOf(doc["defaultStatus"]); int(def) == id {
			return nil, sandbox.Conflict(r.Var("statusId"), "Status %d is the default status.", id)
		}
		for i, st := range list {
			m, _ := st.(map[string]any)
			if n, _ := intOf(m["id"]); int(n) != id {
				continue
			}
			if m["system"] == true {
				return nil, sandbox.Conflict(r.Var("statusId"), "Status %d is a basic status; only custom statuses can be deleted.", id)
			}
			return append(list[:i:i], list[i+1:]...), nil
		}
		return nil, sandbox.NotFound(r.Var("statusId"), "Status %d does not exist.", id)
	})
}

// editStatuses rewrites an e-shop's status list and emits
// orderStatusesList:change with the status id.
func (s *Service) editStatuses(r *api.Request, fn func(doc map[string]any, list []any) ([]any, error)) error {
	eshopID, _ := strconv.Atoi(r.Var("eshopId"))
	return s.Store.Update(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, eshopID); err != nil {
			return err
		}
		doc, err := Get(tx, eshopID, eshop.InfoCollection, "order-statuses", "Order status list")
		if err != nil {
			return err
		}
		list, _ := doc["statuses"].([]any)
		if list, err = fn(doc, list); err != nil {
			return err
		}
		if r.Method == http.MethodDelete {
			code := r.Var("statusId")
			id, _ := strconv.Atoi(code)
			used := false
			_ = tx.Scan(eshopID, Collection, func(_ string, o []byte) bool {
				used = gjsonGet(o, "status.id").Int() == int64(id)
				return !used
			})
			if used {
				return sandbox.Conflict(code, "Status %d is the status of existing orders.", id)
			}
		}
		doc["statuses"] = list
		raw, err := json.Marshal(doc)
		if err != nil {
			return err
		}
		if _, err := tx.Put(eshopID, eshop.InfoCollection, "order-statuses", raw); err != nil {
			return err
		}
		tx.Emit(sandbox.Event{EshopID: eshopID, Kind: EventStatusesList, Instance: r.Var("statusId")})
		return nil
	})
}

package orders

import (
	"encoding/json"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// statusFlags are the flags of the status-changing endpoints.
var statusFlags = []string{rules.FlagDocuments, rules.FlagEmails, rules.FlagSMS}

// updateStatus serves PATCH /api/orders/{code}/status and the spec's
// PATCH /orders/{code}/status: statusId (integer or digit string), paid,
// billingMethodId. A body that changes nothing answers 422 (the spec: the
// order status modification answers 422 in some cases). This is the call
// that moves an order paid online to its paid status (spec: payment flow
// steps 6 and 7); the payment result alone changes no order.
func (s *Service) updateStatus(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	flags, err := ReadFlags(r, body, statusFlags...)
	if err != nil {
		return nil, err
	}
	data := Data(body)
	if data["statusId"] == nil && data["paid"] == nil && data["billingMethodId"] == nil {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Send data.statusId, data.paid or data.billingMethodId: the request changes nothing.")
	}
	var step *bus.PaymentStep
	out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		step = nil
		opt := ChangeOptions{SuppressDocuments: flags[rules.FlagDocuments], SuppressEmails: flags[rules.FlagEmails]}
		st, err := sh.targetStatus(o, data["statusId"])
		if err != nil {
			return nil, err
		}
		if p, ok := data["paid"].(bool); ok {
			opt.Paid = &p
		}
		if v := data["billingMethodId"]; v != nil {
			bm, err := sh.billingMethod(v, nil, "data.billingMethodId")
			if err != nil {
				return nil, err
			}
			opt.BillingMethod, _ = bm.(map[string]any)
		}
		changed, unreported, err := sh.statusCall(o, st, opt)
		if err != nil {
			return nil, err
		}
		if changed {
			// ApplyStatus logged the edit and emitted order:update.
			if err := sh.W.Save(Collection, str(o["code"]), o, crud.Edited); err != nil {
				return nil, err
			}
		}
		ps := statusStep(r, sh, str(o["code"]), st, unreported)
		step = &ps
		return orderData(sh, o)
	})
	if err == nil && step != nil {
		s.PublishSteps(*step)
	}
	return out, err
}

// targetStatus resolves the requested status (the order's own when none
// is given).
func (sh *Shop) targetStatus(o map[string]any, v any) (rules.Status, error) {
	if v == nil {
		cur, _ := o["status"].(map[string]any)
		id, _ := intOf(cur["id"])
		return sh.Statuses.Get(int(id), "data.statusId")
	}
	id, err := rules.StatusID(v, "data.statusId")
	if err != nil {
		return rules.Status{}, err
	}
	return sh.Statuses.Get(*id, "data.statusId")
}

// bulkStatus serves PATCH /api/orders/status-change: one status for many
// orders. Unknown codes are skipped and listed in errors with 200 (spec,
// Errors rule 2).
func (s *Service) bulkStatus(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	flags, err := ReadFlags(r, body, statusFlags...)
	if err != nil {
		return nil, err
	}
	data := Data(body)
	codes, _ := data["orderCodes"].([]any)
	if len(codes) == 0 {
		return nil, sandbox.Invalid("data.orderCodes", "Field data.orderCodes must list at least one order code.")
	}
	if data["statusId"] == nil {
		return nil, sandbox.Invalid("data.statusId", "Field data.statusId is required.")
	}
	var skipped []api.ErrorItem
	var steps []bus.PaymentStep
	err = s.update(r, func(sh *Shop) error {
		skipped, steps = nil, nil
		st, err := sh.targetStatus(nil, data["statusId"])
		if err != nil {
			return err
		}
		var changedCodes []string
		for _, c := range codes {
			code := str(c)
			o, err := LoadOrder(sh.Tx, sh.ID, code)
			if err != nil {
				skipped = append(skipped, api.ErrorItemOf(err))
				continue
			}
			changed, unreported, err := sh.statusCall(o, st, ChangeOptions{SuppressDocuments: flags[rules.FlagDocuments], SuppressEmails: flags[rules.FlagEmails]})
			if err != nil {
				return err
			}
			steps = append(steps, statusStep(r, sh, code, st, unreported))
			if changed {
				if err := sh.W.Save(Collection, code, o, crud.Edited); err != nil {
					return err
				}
				changedCodes = append(changedCodes, code)
			}
		}
		if len(changedCodes) > 0 {
			// The mass event accompanies the single-entity events (spec,
			// Events rule 5).
			list, _ := json.Marshal(changedCodes)
			sh.Tx.Emit(sandbox.Event{EshopID: sh.ID, Kind: "order:massUpdate", Instance: string(list)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.PublishSteps(steps...)
	return &api.Result{Status: 200, Data: nil, Errors: skipped}, nil
}

// updateNotes serves PATCH /api/orders/{code}/notes.
func (s *Service) updateNotes(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		notes, _ := o["notes"].(map[string]any)
		if notes == nil {
			notes = sh.notes(nil)
		}
		for _, k := range []string{"customerRemark", "eshopRemark", "trackingNumber"} {
			if v, ok := data[k]; ok {
				notes[k] = v
			}
		}
		if _, ok := data["trackingNumber"]; ok {
			notes["trackingUrl"] = sh.trackingURL(o, str(data["trackingNumber"]))
		}
		if list, ok := data["additionalFields"].([]any); ok {
			fields, _ := notes["additionalFields"].([]any)
			for i, f := range list {
				m, _ := f.(map[string]any)
				idx, _ := intOf(m["index"])
				found := false
				for _, cur := range fields {
					cm, _ := cur.(map[string]any)
					if n, _ := intOf(cm["index"]); n == idx {
						cm["text"], found = m["text"], true
					}
				}
				if !found {
					return nil, sandbox.Invalid("data.additionalFields["+itoa(int64(i))+"].index", "The e-shop has no additional order field %d.", idx)
				}
			}
		}
		o["notes"] = notes
		return nil, sh.Touch(o)
	})
}

// trackingURL joins the shipping method's tracking address and a number.
func (sh *Shop) trackingURL(o map[string]any, number string) any {
	if number == "" {
		return nil
	}
	ship, _ := o["shipping"].(map[string]any)
	m, err := Get(sh.Tx, sh.ID, ShippingMethods, str(ship["guid"]), "Shipping method")
	if err != nil || str(m["trackingUrl"]) == "" {
		return nil
	}
	return str(m["trackingUrl"]) + number
}

// deleteOrder serves DELETE /api/orders/{code}: the stock the order took
// goes back, its history goes, its documents stay; order:delete.
func (s *Service) deleteOrder(r *api.Request) (any, error) {
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		code := str(o["code"])
		if err := sh.ReturnStock(o); err != nil {
			return nil, err
		}
		// order:delete and the delete entry.
		if err := sh.W.Delete(Collection, code); err != nil {
			return nil, err
		}
		return nil, sh.deleteOrderHistory(code)
	})
}

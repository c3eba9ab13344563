package payments

import (
	"net/url"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// ReturnURL is the address the gateway sends the buyer back to: the
// e-shop's thank-you page of the order, naming the payment.
func ReturnURL(eshopURL, orderCode, paymentCode string) string {
	return eshopURL + "/order/" + url.PathEscape(orderCode) + "/thank-you?paymentCode=" + url.QueryEscape(paymentCode)
}

// code loads the payment code of the path; an add-on sees only the codes
// of its own gateway (others answer 404, as unknown codes do).
func code(r *api.Request, sh *orders.Shop) (*orders.PaymentCode, error) {
	if _, err := sh.Meta.Language(r.Query("language")); err != nil {
		return nil, err
	}
	id := r.Var("paymentCode")
	pc, err := sh.LoadPaymentCode(id)
	if err == nil {
		if p := r.Principal; p != nil && p.Kind() == auth.KindAddon && p.Addon != nil && pc.Addon != "" && pc.Addon != p.Addon.Name {
			err = sandbox.NotFound(id, "Payment code %q does not exist in this e-shop.", id)
		}
	}
	return pc, err
}

// paymentInfo serves GET /api/payment-status/{paymentCode}: the order
// being paid (its code, a string) and the return address. Whether the
// order is already paid or canceled the add-on reads from the order
// detail (spec: step 5; an inconsistency to escalate, not an API error).
func (s *Service) paymentInfo(r *api.Request) (any, error) {
	var out map[string]any
	err := s.Orders.View(r.Eshop, func(sh *orders.Shop) error {
		pc, err := code(r, sh)
		if err != nil {
			return err
		}
		out = map[string]any{"orderCode": pc.OrderCode, "returnUrl": ReturnURL(sh.EshopURL, pc.OrderCode, pc.Code)}
		return nil
	})
	return out, err
}

// updatePaymentStatus serves PATCH /api/payment-status/{paymentCode}: it
// stores the payment result and nothing else (spec: payment flow step 6).
// The result goes on the payment code and on the order's transaction,
// with a history entry; the order's status, paid flag, billing method,
// documents and e-mails are left alone: they follow from the status the
// add-on sets with its status call (PATCH /orders/{code}/status; step 7).
// An add-on that forgets that call leaves the order unpaid, here as on
// the live service, and the contract report says so. A final result
// (paid, canceled) cannot be changed: another result answers 409, the
// same one again is a no-op.
func (s *Service) updatePaymentStatus(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	// The reference lists the document and e-mail flags for this
	// endpoint: they are checked like everywhere, and have nothing to act
	// on, since the result changes no status.
	if _, err := orders.ReadFlags(r, body, rules.FlagDocuments, rules.FlagEmails); err != nil {
		return nil, err
	}
	data := orders.Data(body)
	result := strings.ToLower(strings.TrimSpace(str(data["status"])))
	if result == "" {
		return nil, sandbox.Invalid("data.status", "Field data.status is required: the payment result.")
	}
	var step *bus.PaymentStep
	err = s.Orders.Update(r.Eshop, func(sh *orders.Shop) error {
		step = nil
		pc, err := code(r, sh)
		if err != nil {
			return err
		}
		statusID, ok := sh.Statuses.Results()[result]
		if !ok {
			return sandbox.Invalid("data.status", "Field data.status: %q is not a payment result of this e-shop; use one of %s.",
				result, strings.Join(sh.Statuses.ResultNames(), ", "))
		}
		if pc.Final() {
			if pc.Status == result {
				return nil
			}
			return sandbox.Conflict(pc.Code, "Payment %s already ended as %s; a one-time payment code takes no other result.", pc.Code, pc.Status)
		}
		o, err := orders.LoadOrder(sh.Tx, sh.ID, pc.OrderCode)
		if err != nil {
			return sandbox.Conflict(pc.Code, "The order of payment %s no longer exists.", pc.Code)
		}
		pc.Status, pc.Message, pc.Changed = result, data["message"], sh.Time()
		if err := sh.SavePaymentCode(pc); err != nil {
			return err
		}
		orders.SetTransaction(o, pc.Code, result, sh.Time())
		text := "Payment " + pc.Code + ": " + result
		if m := strings.TrimSpace(str(data["message"])); m != "" {
			text += " (" + m + ")"
		}
		if _, err := sh.AddHistory(o, orders.HistoryPayment, text, true); err != nil {
			return err
		}
		ps := orders.PaymentStep(r, sh, bus.PaymentResult, pc.OrderCode)
		ps.PaymentCode, ps.Result, ps.StatusID = pc.Code, result, statusID
		if st, ok := sh.Statuses.Find(statusID); ok {
			ps.StatusName = st.Name
		}
		// A result for a canceled or an already paid order is the
		// inconsistency the add-on escalates (spec: step 5): no status
		// call is due, the e-shop owner decides.
		switch {
		case sh.OrderCanceled(o):
			_, err = sh.AddHistory(o, orders.HistoryPayment, "Payment "+pc.Code+" reported "+result+" for a canceled order; to be escalated to the e-shop owner.", true)
		case o["paid"] == true:
			_, err = sh.AddHistory(o, orders.HistoryPayment, "Payment "+pc.Code+" reported "+result+" for an order that was already paid; to be escalated to the e-shop owner.", true)
		default:
			cur, _ := o["status"].(map[string]any)
			id, _ := rules.Int(cur["id"])
			ps.StatusDue = int(id) != statusID
		}
		if err != nil {
			return err
		}
		step = &ps
		return sh.Touch(o) // the transaction and the history changed
	})
	if err != nil {
		return nil, err
	}
	if step != nil {
		s.Orders.PublishSteps(*step)
	}
	return map[string]any{}, nil
}

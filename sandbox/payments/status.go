package payments

import (
	"net/url"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/orders/rules"
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

// updatePaymentStatus serves PATCH /api/payment-status/{paymentCode}: the
// result is stored on the payment code and the order's transaction, and
// the order gets the status the e-shop maps to the result, with what that
// status implies (paid flag, documents, e-mails; spec: step 7, not the
// add-on's task). On success the order's payment form becomes the
// method's (typically card). A final result (paid, canceled) cannot be
// changed: another result answers 409, the same one again is a no-op.
func (s *Service) updatePaymentStatus(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	flags, err := orders.ReadFlags(r, body, rules.FlagDocuments, rules.FlagEmails)
	if err != nil {
		return nil, err
	}
	data := orders.Data(body)
	result := strings.ToLower(strings.TrimSpace(str(data["status"])))
	if result == "" {
		return nil, sandbox.Invalid("data.status", "Field data.status is required: the payment result.")
	}
	err = s.Orders.Update(r.Eshop, func(sh *orders.Shop) error {
		pc, err := code(r, sh)
		if err != nil {
			return err
		}
		results := sh.Statuses.Results()
		statusID, ok := results[result]
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
		// A result for a canceled order, or a second payment of a paid one,
		// is the inconsistency the add-on escalates (spec: step 5): it is
		// recorded, and the order's status is left to the e-shop owner.
		if sh.OrderCanceled(o) || (o["paid"] == true && result == rules.ResultPaid) {
			what := "a canceled order"
			if !sh.OrderCanceled(o) {
				what = "an order that was already paid"
			}
			if _, err := sh.AddHistory(o, orders.HistoryPayment, "Payment "+pc.Code+" reported "+result+" for "+what+"; the status is left unchanged.", true); err != nil {
				return err
			}
			return sh.Touch(o)
		}
		st, err := sh.Statuses.Get(statusID, "data.status")
		if err != nil {
			return err
		}
		opt := orders.ChangeOptions{SuppressDocuments: flags[rules.FlagDocuments], SuppressEmails: flags[rules.FlagEmails]}
		if result == rules.ResultPaid {
			opt.BillingMethod = paymentForm(sh, o)
		}
		changed, err := sh.ApplyStatus(o, st, opt)
		if err != nil {
			return err
		}
		if changed {
			return orders.SaveOrder(sh.Tx, sh.ID, o)
		}
		return sh.Touch(o) // the transaction changed
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{}, nil
}

// paymentForm is the billing method a successful online payment records:
// the payment type of the order's method, card when it names none.
func paymentForm(sh *orders.Shop, o map[string]any) map[string]any {
	id := int64(4)
	if m := sh.OnlineMethod(o); m != nil {
		if pt, ok := m["paymentType"].(map[string]any); ok {
			if n, ok := rules.Int(pt["id"]); ok && n >= 1 && n <= 4 {
				id = n
			}
		}
	}
	return orders.BillingMethodRef(sh, id)
}

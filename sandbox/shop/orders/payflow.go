package orders

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// The payment-gateway flow splits step 6 of the spec in two calls: PATCH
// /api/payment-status/{paymentCode} stores the gateway's result and
// nothing else (sandbox/shop/payments), and the status call (PATCH
// /orders/{code}/status) changes the order, with what the status
// definition implies (step 7: paid flag, documents, e-mails). This file
// holds what the status call adds for a payment, and the steps both calls
// report to the contract report, which pairs them.

// HasPaidResult reports whether a gateway reported the result paid for
// one of the order's payments (its payment transactions).
func HasPaidResult(o map[string]any) bool {
	txs, _ := o["paymentTransactions"].([]any)
	for _, t := range txs {
		if m, ok := t.(map[string]any); ok && m["status"] == rules.ResultPaid {
			return true
		}
	}
	return false
}

// PaymentForm is the billing method a successful online payment records
// (spec: step 6, "on success the payment form (typically card) is
// recorded"): the payment type of the order's online method, card when it
// names none.
func (s *Shop) PaymentForm(o map[string]any) map[string]any {
	id := int64(4)
	if m := s.OnlineMethod(o); m != nil {
		if pt, ok := m["paymentType"].(map[string]any); ok {
			if n, ok := rules.Int(pt["id"]); ok && n >= 1 && n <= 4 {
				id = n
			}
		}
	}
	return BillingMethodRef(s, id)
}

// statusCall is a status call's change of one order: ApplyStatus, and,
// when the call marks an order paid online whose gateway reported the
// result paid, the payment form recorded as its billing method (unless
// the call names one). unreported is true when the call marks an order
// paid online that has no paid result: the contract report's
// paid-status-without-payment-result, unless the result follows in time.
func (s *Shop) statusCall(o map[string]any, st rules.Status, opt ChangeOptions) (changed, unreported bool, err error) {
	wasPaid := o["paid"] == true
	changed, err = s.ApplyStatus(o, st, opt)
	if err != nil || wasPaid || o["paid"] != true || s.OnlineMethod(o) == nil {
		return changed, false, err
	}
	if !HasPaidResult(o) {
		return changed, true, nil
	}
	if opt.BillingMethod == nil {
		form := s.PaymentForm(o)
		old, _ := o["billingMethod"].(map[string]any)
		oid, _ := intOf(old["id"])
		nid, _ := intOf(form["id"])
		if old == nil || oid != nid {
			o["billingMethod"] = form
		}
	}
	return changed, false, nil
}

// PaymentStep starts the contract report's record of a payment-flow step
// that a request made in an e-shop, at the shop's time.
func PaymentStep(r *api.Request, sh *Shop, kind, order string) bus.PaymentStep {
	st := bus.PaymentStep{Kind: kind, Eshop: sh.ID, Order: order, Time: sh.Now, RequestID: r.RequestID(),
		Method: r.Method, Path: r.URL.RequestURI(), Agent: r.Header.Get("User-Agent")}
	if r.Route != nil {
		st.Operation = r.Route.Operation
	}
	if p := r.Principal; p != nil && p.Token != nil {
		st.TokenKind = p.Kind()
	}
	return st
}

// statusStep is the step a status call made on one order.
func statusStep(r *api.Request, sh *Shop, code string, st rules.Status, unreported bool) bus.PaymentStep {
	ps := PaymentStep(r, sh, bus.PaymentStatus, code)
	ps.StatusID, ps.StatusName, ps.MarksPaid = st.ID, st.Name, unreported
	return ps
}

// PublishSteps hands payment-flow steps to the bus. Call it only once
// their transaction has committed: the report must never hear of a
// change that was rolled back.
func (s *Service) PublishSteps(steps ...bus.PaymentStep) {
	if s.Bus == nil {
		return
	}
	for i := range steps {
		s.Bus.Emit(bus.TopicPayment, &steps[i])
	}
}

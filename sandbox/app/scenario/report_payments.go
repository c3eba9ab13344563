package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// The payment rules pair the two calls of payment flow step 6: the
// payment result (PATCH /api/payment-status/{paymentCode}) and the order
// status (PATCH /orders/{code}/status). Only the status call changes the
// order, so an add-on that makes one without the other leaves orders
// unpaid (or paid without a payment) on the live service. The calls may
// come in either order, even overlap: a step is a finding only when its
// partner has not come within the allowed time (sandbox clock) after it.

// payments is the report's bookkeeping of the payment rules.
type payments struct {
	now    func() time.Time
	within time.Duration
	// results waits for the status call of a payment result, by
	// e-shop/order/payment code.
	results map[string]*pendingStep
	// paid waits for the paid result of an order a status call marked
	// paid online, by e-shop/order.
	paid map[string]*pendingStep
}

// pendingStep is a step waiting for its partner.
type pendingStep struct {
	step bus.PaymentStep
	// other is the last status a status call set on the order meanwhile,
	// when it was not the one the result maps to.
	other *bus.PaymentStep
}

func (p *payments) clear() {
	p.results, p.paid = map[string]*pendingStep{}, map[string]*pendingStep{}
}

func orderKey(eshop int, order string) string { return strconv.Itoa(eshop) + "/" + order }

// WatchPayments sets the clock the payment rules read and how long they
// allow between the payment result and the matching status call
// (within <= 0: sandbox.DefaultPaymentStatusWithin). Without it they
// read the wall clock.
func (rp *Report) WatchPayments(now func() time.Time, within time.Duration) {
	if within <= 0 {
		within = sandbox.DefaultPaymentStatusWithin
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.pay.now, rp.pay.within = now, within
}

// PaymentWithin is the time the payment rules allow.
func (rp *Report) PaymentWithin() time.Duration {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.pay.within
}

// ObservePayment pairs one committed payment-flow step with the steps
// before it. Steps of the scenario runner's own calls are not judged.
func (rp *Report) ObservePayment(ps *bus.PaymentStep) {
	if ps == nil || ps.Agent == RunnerAgent {
		return
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	defer rp.trimLocked()
	rp.expirePaymentsLocked(ps.Time) // a partner that comes late settles nothing
	p := &rp.pay
	key := orderKey(ps.Eshop, ps.Order)
	switch ps.Kind {
	case bus.PaymentResult:
		if ps.Result == "paid" {
			delete(p.paid, key)
		}
		if ps.StatusDue {
			p.results[key+"/"+ps.PaymentCode] = &pendingStep{step: *ps}
		}
	case bus.PaymentStatus:
		prefix := key + "/"
		for k, w := range p.results {
			if !strings.HasPrefix(k, prefix) {
				continue
			}
			if w.step.StatusID == ps.StatusID {
				delete(p.results, k)
				continue
			}
			cp := *ps
			w.other = &cp
		}
		if _, waiting := p.paid[key]; ps.MarksPaid && !waiting {
			p.paid[key] = &pendingStep{step: *ps}
		}
	}
}

// expirePaymentsLocked turns the steps whose partner did not come by now
// into findings, oldest first. Callers hold mu.
func (rp *Report) expirePaymentsLocked(now time.Time) {
	p := &rp.pay
	var due []Finding
	for k, w := range p.results {
		if now.Sub(w.step.Time) > p.within {
			due = append(due, rp.paymentFinding(RulePaymentWithoutStatus, w))
			delete(p.results, k)
		}
	}
	for k, w := range p.paid {
		if now.Sub(w.step.Time) > p.within {
			due = append(due, rp.paymentFinding(RulePaidWithoutPayment, w))
			delete(p.paid, k)
		}
	}
	sort.SliceStable(due, func(i, j int) bool {
		if !due[i].Time.Equal(due[j].Time) {
			return due[i].Time.Before(due[j].Time)
		}
		return due[i].Message < due[j].Message
	})
	for _, f := range due {
		rp.addLocked(f)
	}
}

// paymentFinding describes a step whose partner never came.
func (rp *Report) paymentFinding(rule string, w *pendingStep) Finding {
	s := w.step
	f := Finding{Rule: rule, Time: s.Time, RequestID: s.RequestID, Eshop: s.Eshop, TokenKind: s.TokenKind, Method: s.Method, Path: s.Path, Operation: s.Operation}
	within := rp.pay.within
	switch rule {
	case RulePaymentWithoutStatus:
		f.Message = fmt.Sprintf("Payment %s of order %s got the result %s, but no status call set the order to status %d (%s), which the e-shop maps that result to, within %s",
			s.PaymentCode, s.Order, s.Result, s.StatusID, s.StatusName, within)
		if o := w.other; o != nil {
			f.Message += fmt.Sprintf(" (it was set to %d (%s) instead)", o.StatusID, o.StatusName)
		}
		f.Message += fmt.Sprintf(". The payment result changes no order: set the status with PATCH /orders/%s/status as well (spec: payment flow step 6), or the order stays as it is on the live service.", s.Order)
	case RulePaidWithoutPayment:
		f.Message = fmt.Sprintf("Order %s, paid online, was marked paid (status %d (%s)) without the payment result paid, and none came within %s; store the result with PATCH /api/payment-status/{paymentCode} as well (spec: payment flow step 6).",
			s.Order, s.StatusID, s.StatusName, within)
	}
	return f
}

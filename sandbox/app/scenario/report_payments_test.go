package scenario

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// result is a payment result stored at t0+at seconds for an order whose
// status (due: not yet the mapped one) the add-on still has to set.
func result(at float64, order, res string, mapped int, due bool) *bus.PaymentStep {
	return &bus.PaymentStep{Kind: bus.PaymentResult, Eshop: 1001, Order: order, PaymentCode: "PAY-" + order, Result: res,
		StatusID: mapped, StatusName: "mapped", StatusDue: due, Time: t0.Add(time.Duration(at * float64(time.Second))),
		Method: "PATCH", Path: "/api/payment-status/PAY-" + order, Operation: "UpdatePaymentStatus", TokenKind: "addon"}
}

// status is a status call at t0+at seconds; marksPaid: it marked an order
// paid online that has no paid result.
func status(at float64, order string, id int, marksPaid bool) *bus.PaymentStep {
	return &bus.PaymentStep{Kind: bus.PaymentStatus, Eshop: 1001, Order: order, StatusID: id, StatusName: "set", MarksPaid: marksPaid,
		Time: t0.Add(time.Duration(at * float64(time.Second))), Method: "PATCH", Path: "/orders/" + order + "/status", Operation: "UpdateOrderStatus"}
}

func byRunner(ps *bus.PaymentStep) *bus.PaymentStep { ps.Agent = RunnerAgent; return ps }

// TestReportPaymentRules pairs the two calls of payment flow step 6: a
// result needs the status call that sets the status the e-shop maps it
// to, a status call that marks an order paid online needs the paid
// result, each within the allowed time (60 s here) after it, in either
// order, overlapping included.
func TestReportPaymentRules(t *testing.T) {
	cases := []struct {
		name  string
		steps []*bus.PaymentStep
		view  float64 // seconds after t0 the report is read
		want  []string
	}{
		{"result, then the matching status", []*bus.PaymentStep{result(0, "A", "paid", -5, true), status(1, "A", -5, false)}, 600, nil},
		{"result without status, within the time", []*bus.PaymentStep{result(0, "A", "paid", -5, true)}, 59, nil},
		{"result without status, past the time", []*bus.PaymentStep{result(0, "A", "paid", -5, true)}, 61, []string{RulePaymentWithoutStatus}},
		{"result, then another status", []*bus.PaymentStep{result(0, "A", "paid", -5, true), status(1, "A", -2, false)}, 61, []string{RulePaymentWithoutStatus}},
		{"result, then the matching status too late", []*bus.PaymentStep{result(0, "A", "paid", -5, true), status(90, "A", -5, false)}, 91, []string{RulePaymentWithoutStatus}},
		{"result whose status the order already has", []*bus.PaymentStep{result(0, "A", "failed", -1, false)}, 600, nil},
		{"status of another order settles nothing", []*bus.PaymentStep{result(0, "A", "paid", -5, true), status(1, "B", -5, false)}, 61, []string{RulePaymentWithoutStatus}},
		{"paid status without a result", []*bus.PaymentStep{status(0, "A", -5, true)}, 61, []string{RulePaidWithoutPayment}},
		{"paid status, then the paid result (overlapping calls)", []*bus.PaymentStep{status(0, "A", -5, true), result(0.01, "A", "paid", -5, false)}, 600, nil},
		{"paid status, then a failed result", []*bus.PaymentStep{status(0, "A", -5, true), result(1, "A", "failed", -1, false)}, 61, []string{RulePaidWithoutPayment}},
		{"paid status, then the paid result too late", []*bus.PaymentStep{status(0, "A", -5, true), result(61, "A", "paid", -5, false)}, 62, []string{RulePaidWithoutPayment}},
		{"the scenario runner's steps are not judged", []*bus.PaymentStep{byRunner(result(0, "A", "paid", -5, true)), byRunner(status(1, "B", -5, true))}, 600, nil},
		{"both forgotten, oldest first", []*bus.PaymentStep{status(0, "B", -5, true), result(1, "A", "paid", -5, true)}, 600, []string{RulePaidWithoutPayment, RulePaymentWithoutStatus}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			now := t0
			rp := NewReport(testHeaders, nil)
			rp.WatchPayments(func() time.Time { return now }, time.Minute)
			for _, ps := range tc.steps {
				now = ps.Time
				rp.Hook(bus.Message{Topic: bus.TopicPayment, Data: ps})
			}
			now = t0.Add(time.Duration(tc.view * float64(time.Second)))
			var got []string
			for _, f := range rp.Findings() {
				got = append(got, f.Rule)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("rules %v, want %v (%+v)", got, tc.want, rp.Findings())
			}
			// a finding is made once
			if again := rp.Findings(); len(again) != len(tc.want) {
				t.Errorf("read again: %d findings", len(again))
			}
		})
	}
}

// TestReportPaymentFinding: a finding names the call, the order, the
// status the e-shop maps the result to and the status set instead.
func TestReportPaymentFinding(t *testing.T) {
	now := t0
	rp := NewReport(testHeaders, nil)
	rp.WatchPayments(func() time.Time { return now }, 10*time.Second)
	rp.ObservePayment(result(0, "2025000030", "paid", -5, true))
	rp.ObservePayment(status(1, "2025000030", -2, false))
	now = t0.Add(11 * time.Second)
	fs := rp.Findings()
	if len(fs) != 1 {
		t.Fatalf("findings %+v", fs)
	}
	f := fs[0]
	if f.Rule != RulePaymentWithoutStatus || f.Operation != "UpdatePaymentStatus" || f.Eshop != 1001 || !f.Time.Equal(t0) ||
		f.Path != "/api/payment-status/PAY-2025000030" || f.TokenKind != "addon" {
		t.Errorf("finding %+v", f)
	}
	for _, want := range []string{"order 2025000030", "status -5", "within 10s", "set to -2", "PATCH /orders/2025000030/status"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	// Clear forgets what waits, too
	rp.ObservePayment(result(12, "B", "paid", -5, true))
	rp.Clear()
	now = t0.Add(time.Hour)
	if fs := rp.Findings(); len(fs) != 0 {
		t.Errorf("after Clear: %+v", fs)
	}
	if rp.PaymentWithin() != 10*time.Second {
		t.Errorf("within %v", rp.PaymentWithin())
	}
	rp.WatchPayments(time.Now, 0)
	if rp.PaymentWithin() != sandbox.DefaultPaymentStatusWithin {
		t.Errorf("default within %v", rp.PaymentWithin())
	}
}

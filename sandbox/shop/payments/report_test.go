package payments_test

import (
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// report reads the contract report over the control plane.
func (e *env) report(t testing.TB) scenario.ReportView {
	t.Helper()
	var v scenario.ReportView
	r := e.Do(sandboxtest.Call{Path: scenario.ReportPath})
	if r.Status != 200 {
		t.Fatalf("report: %d %s", r.Status, r.Body)
	}
	r.Data(t, &v)
	return v
}

// TestReportPaymentSteps plays four add-ons against a sandbox whose report
// allows 30 s (sandbox clock) between the two calls of payment step 6:
// one stores the result and forgets the status call, one marks the order
// paid and forgets the result, one makes both calls at once, and an
// e-shop owner marks a cash-on-delivery order paid. The report lists the
// first two, once the time has passed, and nothing else.
func TestReportPaymentSteps(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	e := startWith(t, sandbox.Config{Clock: clock, PaymentStatusWithin: 30 * time.Second})
	f := e.f
	paid := map[string]any{"data": map[string]any{"status": "paid"}}
	toPaid := map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}}

	forgot, forgotCode := e.newOrder(t, f.Card)
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+forgotCode, paid)); r.Status != 200 {
		t.Fatalf("result: %d %s", r.Status, r.Body)
	}
	unreported, _ := e.newOrder(t, f.Card)
	if r := e.Do(e.addon("PATCH", "/orders/"+unreported["code"].(string)+"/status", toPaid)); r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}
	both, bothCode := e.newOrder(t, f.Card)
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, c := range []sandboxtest.Call{e.addon("PATCH", "/api/payment-status/"+bothCode, paid), e.addon("PATCH", "/orders/"+both["code"].(string)+"/status", toPaid)} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = e.Do(c).Status
		}()
	}
	wg.Wait()
	if statuses[0] != 200 || statuses[1] != 200 {
		t.Fatalf("the overlapping calls: %v", statuses)
	}
	cod, _ := e.newOrder(t, f.COD)
	if r := e.Do(e.private("PATCH", "/orders/"+cod["code"].(string)+"/status", toPaid)); r.Status != 200 {
		t.Fatalf("cash on delivery paid: %d %s", r.Status, r.Body)
	}
	if after := e.orderNow(t, both["code"].(string)); after["paid"] != true || billingID(after) != 4 {
		t.Errorf("the order of both calls: paid %v, billing method %d", after["paid"], billingID(after))
	}

	clock.Advance(29 * time.Second)
	if v := e.report(t); !v.Clean || v.PaymentStatusWithin != "30s" {
		t.Fatalf("before the time passed: %+v", v)
	}
	clock.Advance(2 * time.Second)
	v := e.report(t)
	if v.Counts[scenario.RulePaymentWithoutStatus] != 1 || v.Counts[scenario.RulePaidWithoutPayment] != 1 || len(v.Findings) != 2 {
		t.Fatalf("report: %+v", v)
	}
	for _, fd := range v.Findings {
		switch fd.Rule {
		case scenario.RulePaymentWithoutStatus:
			if fd.Path != "/api/payment-status/"+forgotCode || fd.TokenKind != "addon" || fd.Eshop != 1001 {
				t.Errorf("finding %+v", fd)
			}
		case scenario.RulePaidWithoutPayment:
			if fd.Path != "/orders/"+unreported["code"].(string)+"/status" || fd.Operation != "UpdateOrderStatus" {
				t.Errorf("finding %+v", fd)
			}
		}
	}
	if after := e.orderNow(t, forgot["code"].(string)); after["paid"] != false {
		t.Errorf("the order whose status call was forgotten is paid")
	}
}

// TestReportPaymentDefaultTime: without a setting the report allows
// sandbox.DefaultPaymentStatusWithin.
func TestReportPaymentDefaultTime(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	e := startWith(t, sandbox.Config{Clock: clock})
	_, code := e.newOrder(t, e.f.Card)
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 200 {
		t.Fatalf("result: %d %s", r.Status, r.Body)
	}
	clock.Advance(sandbox.DefaultPaymentStatusWithin)
	if v := e.report(t); !v.Clean {
		t.Fatalf("findings at the default time: %+v", v.Findings)
	}
	clock.Advance(time.Second)
	if v := e.report(t); v.Counts[scenario.RulePaymentWithoutStatus] != 1 {
		t.Fatalf("report after the default time: %+v", v)
	}
}

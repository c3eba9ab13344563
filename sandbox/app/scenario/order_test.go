package scenario

import (
	"reflect"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// w0 is the wall clock the overlapping calls below are received on.
var w0 = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// span places a call on the wall clock and on a connection: received ms
// after w0, answered dur ms later, on connection conn. The sandbox clock
// (Time) follows the wall clock, as it does unless a scenario moves it.
func span(received, dur float64, conn string) func(*bus.Call) {
	return func(c *bus.Call) {
		c.Received = w0.Add(time.Duration(received * float64(time.Millisecond)))
		c.Time = t0.Add(time.Duration(received * float64(time.Millisecond)))
		c.Duration = time.Duration(dur * float64(time.Millisecond))
		c.RemoteAddr = conn
	}
}

// TestReportJudgesOnlyWhatTheClientKnew: calls are recorded in the order
// they end, so a call that was on its way when an answer went out reaches
// the report after that answer. Each rule is checked with overlapping
// calls: one that started before the answer (no finding) and one that
// started after it (a finding where the rule says so).
func TestReportJudgesOnlyWhatTheClientKnew(t *testing.T) {
	const a1, a2 = "127.0.0.1:41001", "127.0.0.1:41002" // two connections of one client
	cases := []struct {
		name  string
		calls []*bus.Call // in the order they ended
		want  []string
	}{
		// ignored-retry-after, per token
		{"a concurrent call answered after the 429", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/2", "a", 200, span(1, 30, a2)),
		}, nil},
		{"a call on another connection just after the 429 was still on its way", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/2", "a", 200, span(5+50, 5, a2)),
		}, nil},
		{"started after the 429 on its connection, before the date", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/1", "a", 200, span(10, 5, a1)),
		}, []string{RuleIgnoredRetryAfter}},
		{"started well after the 429 on another connection, before the date", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/1", "a", 200, span(400, 5, a2)),
		}, []string{RuleIgnoredRetryAfter}},
		{"the in-flight call does not use up the wait", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/2", "a", 200, span(1, 30, a2)),
			call(0, "GET", "/api/orders/1", "a", 200, span(40, 5, a1)),
		}, []string{RuleIgnoredRetryAfter}},
		{"after the date", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 429, span(0, 5, a1), retryAfter(2)),
			call(0, "GET", "/api/orders/2", "a", 200, span(1, 30, a2)),
			call(0, "GET", "/api/orders/1", "a", 200, span(2000, 5, a1)),
		}, nil},
		// ignored-retry-after, per resource for 423
		{"an identical write in flight when the 423 went out", []*bus.Call{
			call(0, "PATCH", "/api/orders/1/status", "a", 423, span(0, 5, a1), retryAfter(2)),
			call(0, "PATCH", "/api/orders/1/status", "a", 200, span(2, 30, a2)),
		}, nil},
		{"the same write again after the 423, before the date", []*bus.Call{
			call(0, "PATCH", "/api/orders/1/status", "a", 423, span(0, 5, a1), retryAfter(2)),
			call(0, "PATCH", "/api/orders/2/status", "a", 200, span(8, 5, a1)),
			call(0, "PATCH", "/api/orders/1/status", "a", 200, span(20, 5, a1)),
		}, []string{RuleIgnoredRetryAfter}},
		// retried-unchanged
		{"the same bad request twice at once", []*bus.Call{
			call(0, "POST", "/api/brands", "a", 422, span(0, 5, a1), body(`{}`)),
			call(0, "POST", "/api/brands", "a", 422, span(1, 8, a2), body(`{}`)),
		}, nil},
		{"the same bad request again after the 422", []*bus.Call{
			call(0, "POST", "/api/brands", "a", 422, span(0, 5, a1), body(`{}`)),
			call(0, "POST", "/api/brands", "a", 422, span(1, 8, a2), body(`{}`)),
			call(0, "POST", "/api/brands", "a", 422, span(20, 5, a1), body(`{}`)),
		}, []string{RuleRetriedUnchanged}},
		// expired-token-reused
		{"a call with the token in flight when it was answered expired", []*bus.Call{
			call(0, "GET", "/api/orders", "old", 401, span(0, 5, a1), resp(errBody("expired-token"))),
			call(0, "GET", "/api/products", "old", 401, span(2, 6, a2), resp(errBody("expired-token"))),
		}, nil},
		{"the token used again after the expired-token answer", []*bus.Call{
			call(0, "GET", "/api/orders", "old", 401, span(0, 5, a1), resp(errBody("expired-token"))),
			call(0, "GET", "/api/products", "old", 401, span(2, 6, a2), resp(errBody("expired-token"))),
			call(0, "GET", "/api/orders", "old", 401, span(300, 5, a2), resp(errBody("expired-token"))),
		}, []string{RuleExpiredTokenAgain}},
		// paged-on-changed-total
		{"a page fetched ahead, before the changed total was read", []*bus.Call{
			call(0, "GET", "/api/orders?page=1", "a", 200, span(0, 5, a1), resp(page(1, 50))),
			call(0, "GET", "/api/orders?page=2", "a", 200, span(10, 5, a1), resp(page(2, 51))),
			call(0, "GET", "/api/orders?page=3", "a", 200, span(12, 10, a2), resp(page(3, 51))),
		}, nil},
		{"the next page after the changed total was read", []*bus.Call{
			call(0, "GET", "/api/orders?page=1", "a", 200, span(0, 5, a1), resp(page(1, 50))),
			call(0, "GET", "/api/orders?page=2", "a", 200, span(10, 5, a1), resp(page(2, 51))),
			call(0, "GET", "/api/orders?page=3", "a", 200, span(20, 5, a1), resp(page(3, 51))),
		}, []string{RulePagedOnChanged}},
		// Rules judged on a call's own answer: overlap changes nothing.
		{"the fourth of four overlapping calls refused by the limit", []*bus.Call{
			call(0, "GET", "/api/orders/4", "a", 429, span(3, 1, "127.0.0.1:41004"), resp(errBody("too-many-connections"))),
			call(0, "GET", "/api/orders/1", "a", 200, span(0, 20, a1)),
			call(0, "GET", "/api/orders/2", "a", 200, span(1, 20, a2)),
			call(0, "GET", "/api/orders/3", "a", 200, span(2, 20, "127.0.0.1:41003")),
		}, []string{RuleTooManyConns}},
		{"three overlapping calls are within the limit", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 200, span(0, 20, a1)),
			call(0, "GET", "/api/orders/2", "a", 200, span(1, 20, a2)),
			call(0, "GET", "/api/orders/3", "a", 200, span(2, 20, "127.0.0.1:41003")),
		}, nil},
		{"overlapping calls, one without Content-Type", []*bus.Call{
			call(0, "GET", "/api/orders/1", "a", 200, span(0, 20, a1)),
			call(0, "GET", "/api/orders/2", "a", 422, span(1, 2, a2), noContentType),
		}, []string{RuleNoContentType}},
		{"an async call sent before the job:finished registration was answered", []*bus.Call{
			call(0, "POST", "/api/products/snapshot", "a", 403, span(1, 2, a2), op("CreateProductsSnapshot"), resp(errBody("job-finished-webhook-not-registered"))),
			call(0, "POST", "/api/webhooks", "a", 201, span(0, 10, a1), op("RegisterNewWebhook")),
		}, []string{RuleAsyncNoJobHook}},
		{"an async call after the registration was answered", []*bus.Call{
			call(0, "POST", "/api/webhooks", "a", 201, span(0, 10, a1), op("RegisterNewWebhook")),
			call(0, "POST", "/api/products/snapshot", "a", 200, span(12, 2, a1), op("CreateProductsSnapshot")),
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rp := NewReport(testHeaders, func(op string) bool { return op == "CreateProductsSnapshot" })
			for _, x := range c.calls {
				rp.Observe(x)
			}
			var got []string
			for _, f := range rp.Findings() {
				got = append(got, f.Rule)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("rules %v, want %v\n%+v", got, c.want, rp.Findings())
			}
		})
	}
}

// TestStartedAfter pins the ordering rule itself.
func TestStartedAfter(t *testing.T) {
	answer := answerMark{conn: "c1", at: w0.Add(10 * time.Millisecond)}
	for _, tc := range []struct {
		name     string
		received time.Duration
		conn     string
		want     bool
	}{
		{"before the answer, same connection", 9 * time.Millisecond, "c1", false},
		{"right after, same connection", 10 * time.Millisecond, "c1", true},
		{"before the answer, another connection", 5 * time.Millisecond, "c2", false},
		{"within the margin, another connection", 10*time.Millisecond + InFlightMargin - time.Millisecond, "c2", false},
		{"past the margin, another connection", 10*time.Millisecond + InFlightMargin, "c2", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &bus.Call{Received: w0.Add(tc.received), RemoteAddr: tc.conn}
			if got := startedAfter(c, answer); got != tc.want {
				t.Fatalf("startedAfter = %v, want %v", got, tc.want)
			}
		})
	}
}

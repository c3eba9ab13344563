package scenario

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

var t0 = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// call builds a finished call at t0+at seconds.
func call(at float64, method, path, token string, status int, opts ...func(*bus.Call)) *bus.Call {
	c := &bus.Call{Time: t0.Add(time.Duration(at * float64(time.Second))), Method: method, Path: path, Status: status,
		ReqHeader: http.Header{"Content-Type": {"application/json"}}, RespHeader: http.Header{}, RemoteAddr: "127.0.0.1:5000"}
	if token != "" {
		c.ReqHeader.Set(testHeaders.AccessToken, token)
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

func body(b string) func(*bus.Call) { return func(c *bus.Call) { c.ReqBody = []byte(b) } }
func resp(b string) func(*bus.Call) { return func(c *bus.Call) { c.RespBody = bus.NewBody([]byte(b)) } }
func retryAfter(at float64) func(*bus.Call) {
	return func(c *bus.Call) {
		c.RespHeader.Set("Retry-After", t0.Add(time.Duration(at*float64(time.Second))).Format(http.TimeFormat))
	}
}
func op(name string) func(*bus.Call) { return func(c *bus.Call) { c.Operation = name } }
func faulted(c *bus.Call)            { c.Fault = "scripted" }
func noContentType(c *bus.Call)      { c.ReqHeader.Del("Content-Type") }
func runner(c *bus.Call)             { c.ReqHeader.Set("User-Agent", RunnerAgent) }

func errBody(code string) string {
	return `{"data":null,"errors":[{"errorCode":"` + code + `","message":"m","instance":"i"}],"metadata":{"requestId":"r"}}`
}

func page(p, total int) string {
	return `{"data":{"orders":[],"paginator":{"totalCount":` + jsonNum(total) + `,"page":` + jsonNum(p) + `,"pageCount":3,"itemsOnPage":0,"itemsPerPage":20}},"errors":null,"metadata":{"requestId":"r"}}`
}

func TestReportRules(t *testing.T) {
	cases := []struct {
		name  string
		calls []*bus.Call
		want  []string // rules found, in order
	}{
		{"clean traffic", []*bus.Call{call(0, "GET", "/api/orders", "a", 200), call(1, "GET", "/api/orders/1", "a", 200)}, nil},
		{"422 retried unchanged", []*bus.Call{
			call(0, "POST", "/api/orders", "a", 422, body(`{"data":{}}`)),
			call(1, "POST", "/api/orders", "a", 422, body(`{"data":{}}`)),
		}, []string{RuleRetriedUnchanged}},
		{"400 retried unchanged, then fixed", []*bus.Call{
			call(0, "PATCH", "/api/pricelists/1", "a", 400, body(`{"data":[1]}`)),
			call(1, "PATCH", "/api/pricelists/1", "a", 400, body(`{"data":[1]}`)),
			call(2, "PATCH", "/api/pricelists/1", "a", 200, body(`{"data":[2]}`)),
		}, []string{RuleRetriedUnchanged}},
		{"422 retried with a changed body", []*bus.Call{
			call(0, "POST", "/api/orders", "a", 422, body(`{"data":{}}`)),
			call(1, "POST", "/api/orders", "a", 201, body(`{"data":{"email":"x@example.com"}}`)),
		}, nil},
		{"another client sending the same body", []*bus.Call{
			call(0, "POST", "/api/orders", "a", 422, body(`{}`)),
			call(1, "POST", "/api/orders", "b", 422, body(`{}`)),
		}, nil},
		{"500 retried unchanged is fine", []*bus.Call{
			call(0, "POST", "/api/orders", "a", 500, body(`{}`)),
			call(1, "POST", "/api/orders", "a", 201, body(`{}`)),
		}, nil},
		{"429 Retry-After ignored", []*bus.Call{
			call(0, "GET", "/api/orders", "a", 429, retryAfter(30), resp(errBody("rate-limit-exceeded"))),
			call(10, "GET", "/api/products", "a", 200),
		}, []string{RuleIgnoredRetryAfter}},
		{"429 Retry-After honoured", []*bus.Call{
			call(0, "GET", "/api/orders", "a", 429, retryAfter(30), resp(errBody("rate-limit-exceeded"))),
			call(30.2, "GET", "/api/orders", "a", 200),
		}, nil},
		{"503 Retry-After ignored once, not again", []*bus.Call{
			call(0, "GET", "/api/orders", "a", 503, retryAfter(60)),
			call(1, "GET", "/api/orders", "a", 503),
			call(2, "GET", "/api/orders", "a", 503),
		}, []string{RuleIgnoredRetryAfter}},
		{"423 is per URL", []*bus.Call{
			call(0, "PATCH", "/api/orders/1/status", "a", 423, retryAfter(5)),
			call(1, "PATCH", "/api/orders/2/status", "a", 200),
			call(2, "PATCH", "/api/orders/1/status", "a", 200),
		}, []string{RuleIgnoredRetryAfter}},
		{"another client may call", []*bus.Call{
			call(0, "GET", "/api/orders", "a", 429, retryAfter(30)),
			call(1, "GET", "/api/orders", "b", 200),
		}, nil},
		{"too many connections", []*bus.Call{call(0, "GET", "/api/orders", "a", 429, resp(errBody("too-many-connections")))}, []string{RuleTooManyConns}},
		{"a scripted 429 is not the client's doing", []*bus.Call{call(0, "GET", "/api/orders", "a", 429, faulted, resp(errBody("too-many-connections")))}, nil},
		{"missing Content-Type", []*bus.Call{call(0, "GET", "/api/orders", "a", 422, noContentType)}, []string{RuleNoContentType}},
		{"e-shop pages need no Content-Type", []*bus.Call{call(0, "GET", "/eshops/1001/action/ApiOAuthServer/getAccessToken", "", 200, noContentType)}, nil},
		{"expired token used again", []*bus.Call{
			call(0, "GET", "/api/orders", "old", 401, resp(errBody("expired-token"))),
			call(1, "GET", "/api/orders", "old", 401, resp(errBody("expired-token"))),
			call(2, "GET", "/api/orders", "old", 401, resp(errBody("expired-token"))),
		}, []string{RuleExpiredTokenAgain}},
		{"expired token replaced", []*bus.Call{
			call(0, "GET", "/api/orders", "old", 401, resp(errBody("expired-token"))),
			call(1, "GET", "/api/orders", "new", 200),
		}, nil},
		{"paged on after totalCount changed", []*bus.Call{
			call(0, "GET", "/api/orders?page=1", "a", 200, resp(page(1, 50))),
			call(1, "GET", "/api/orders?page=2", "a", 200, resp(page(2, 51))),
			call(2, "GET", "/api/orders?page=3", "a", 200, resp(page(3, 51))),
		}, []string{RulePagedOnChanged}},
		{"restarted after totalCount changed", []*bus.Call{
			call(0, "GET", "/api/orders?page=1", "a", 200, resp(page(1, 50))),
			call(1, "GET", "/api/orders?page=2", "a", 200, resp(page(2, 51))),
			call(2, "GET", "/api/orders?page=1", "a", 200, resp(page(1, 51))),
			call(3, "GET", "/api/orders?page=2", "a", 200, resp(page(2, 51))),
			call(4, "GET", "/api/orders?page=3", "a", 200, resp(page(3, 51))),
		}, nil},
		{"stable totalCount", []*bus.Call{
			call(0, "GET", "/api/orders", "a", 200, resp(page(1, 50))),
			call(1, "GET", "/api/orders?page=2", "a", 200, resp(page(2, 50))),
			call(2, "GET", "/api/orders?page=3", "a", 200, resp(page(3, 50))),
		}, nil},
		{"different filters are different lists", []*bus.Call{
			call(0, "GET", "/api/orders?page=1&statusId=1", "a", 200, resp(page(1, 50))),
			call(1, "GET", "/api/orders?page=2&statusId=2", "a", 200, resp(page(2, 51))),
			call(2, "GET", "/api/orders?page=3&statusId=2", "a", 200, resp(page(3, 51))),
		}, nil},
		{"async without job:finished", []*bus.Call{call(0, "POST", "/api/products/snapshot", "a", 403, op("CreateProductsSnapshot"), resp(errBody("job-finished-webhook-not-registered")))}, []string{RuleAsyncNoJobHook}},
		{"async without the right", []*bus.Call{call(0, "POST", "/api/products/snapshot", "a", 403, op("CreateProductsSnapshot"), resp(errBody("invalid-token-no-rights")))}, nil},
		{"synchronous 403", []*bus.Call{call(0, "GET", "/api/orders", "a", 403, op("GetListOfOrders"), resp(errBody("other")))}, nil},
		{"the runner's own calls", []*bus.Call{call(0, "GET", "/api/orders", "a", 422, runner, noContentType), call(1, "GET", "/api/orders", "a", 422, runner, noContentType)}, nil},
		{"control plane", []*bus.Call{call(0, "POST", "/_sandbox/reset", "", 200, noContentType)}, nil},
		{"several at once", []*bus.Call{
			call(0, "POST", "/api/orders", "a", 422, noContentType),
			call(1, "POST", "/api/orders", "a", 422, noContentType),
		}, []string{RuleNoContentType, RuleNoContentType, RuleRetriedUnchanged}},
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
				if f.Message == "" || f.Time.IsZero() {
					t.Errorf("finding without message or time: %+v", f)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("rules %v, want %v\n%+v", got, c.want, rp.Findings())
			}
		})
	}
}

func TestReportInstall(t *testing.T) {
	early := &addons.InstallReport{EshopID: 1001, Addon: "bad-addon", Answer: &addons.Answer{Status: 200}, Passed: false,
		Summary: "The add-on answered 200 without exchanging the code.", FinishedAt: "2025-06-01T09:00:00+0000"}
	late := &addons.InstallReport{EshopID: 1001, Addon: "late-addon", Answer: &addons.Answer{Status: 200}, Passed: false,
		Exchanges: []addons.Attempt{{Exchange: oauth.Exchange{Accepted: true}, AfterAnswer: true}}, Summary: "late", FinishedAt: "2025-06-01T09:00:00+0000"}
	good := &addons.InstallReport{EshopID: 1001, Addon: "good", Answer: &addons.Answer{Status: 200}, Passed: true,
		Exchanges: []addons.Attempt{{Exchange: oauth.Exchange{Accepted: true}}}}
	refusedOther := &addons.InstallReport{EshopID: 1001, Addon: "r", Answer: &addons.Answer{Status: 500}, Passed: false}
	unreachable := &addons.InstallReport{EshopID: 1001, Addon: "u", Passed: false}
	rp := NewReport(testHeaders, nil)
	b := bus.New()
	b.Hook(rp.Hook)
	for _, rec := range []*addons.InstallReport{early, late, good, refusedOther, unreachable} {
		b.Emit(addons.TopicInstall, rec)
	}
	fs := rp.Findings()
	if len(fs) != 2 || fs[0].Rule != RuleInstallEarly || !strings.Contains(fs[0].Message, "bad-addon") || !strings.Contains(fs[1].Message, "late-addon") || fs[0].Time.IsZero() {
		t.Fatalf("findings %+v", fs)
	}
	// Calls reach the report through the bus too (the traffic recorder
	// emits *bus.Call).
	b.Emit(bus.TopicCall, call(0, "GET", "/api/orders", "a", 200, noContentType))
	if n := len(rp.Findings()); n != 3 {
		t.Fatalf("a call on the bus was not judged: %d findings", n)
	}
	v := rp.View()
	if v.Clean || v.Counts[RuleInstallEarly] != 2 || v.Counts[RuleNoContentType] != 1 || len(v.Counts) != len(Rules) || len(v.Rules) != len(Rules) {
		t.Fatalf("view %+v", v)
	}
	rp.Clear()
	if v := rp.View(); !v.Clean || len(v.Findings) != 0 {
		t.Fatalf("after clear %+v", v)
	}
}

// TestReportStaysBounded: a long session keeps at most MaxFindings
// findings (counting the rest) and forgets old bookkeeping.
func TestReportStaysBounded(t *testing.T) {
	rp := NewReport(testHeaders, nil)
	for i := 0; i < MaxFindings+5; i++ {
		rp.Observe(call(float64(i), "GET", "/api/orders?n="+jsonNum(i), "a", 200, noContentType))
	}
	if n, d := len(rp.Findings()), rp.Dropped(); n != MaxFindings || d != 5 {
		t.Fatalf("%d findings, %d dropped", n, d)
	}
	if first := rp.Findings()[0]; first.Path != "/api/orders?n=5" {
		t.Fatalf("the oldest should give way: %s", first.Path)
	}
	for i := 0; i < MaxTracked+1; i++ {
		rp.Observe(call(0, "POST", "/api/orders/"+jsonNum(i), "a", 422))
	}
	rp.mu.Lock()
	n := len(rp.failed)
	rp.mu.Unlock()
	if n > MaxTracked {
		t.Fatalf("%d failed requests remembered", n)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// t0 is the fixed wall clock of every test frame.
var t0 = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

// fakeSource is a Source the test feeds by hand.
type fakeSource struct {
	ch      chan Item
	dropped atomic.Int64
	once    sync.Once
}

func newFakeSource() *fakeSource { return &fakeSource{ch: make(chan Item, 100)} }

func (s *fakeSource) Items() <-chan Item { return s.ch }
func (s *fakeSource) Dropped() int64     { return s.dropped.Load() }
func (s *fakeSource) Close() error {
	s.once.Do(func() { close(s.ch) })
	return nil
}

// fakeControl records the actions the UI asked for.
type fakeControl struct {
	mu    sync.Mutex
	calls []string
	reads []string
	views map[string]any // GET answers by path (viewFixtures when nil)
	fail  error
	maint bool
}

func (c *fakeControl) record(s string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, s)
	return c.fail
}

func (c *fakeControl) ReplayDelivery(_ context.Context, id string) error {
	return c.record("replay " + id)
}
func (c *fakeControl) EmitEvent(_ context.Context, eshop int, event, instance string) error {
	return c.record(fmt.Sprintf("emit %d %s %s", eshop, event, instance))
}
func (c *fakeControl) AdvanceClock(_ context.Context, by string) error {
	return c.record("clock " + by)
}
func (c *fakeControl) ApproveAddon(_ context.Context, eshop int, addon string) error {
	return c.record(fmt.Sprintf("approve %d %s", eshop, addon))
}
func (c *fakeControl) SetMaintenance(_ context.Context, on bool) (bool, error) {
	if err := c.record(fmt.Sprint("maintenance ", on)); err != nil {
		return !on, err
	}
	c.maint = on
	return on, nil
}
func (c *fakeControl) Maintenance(context.Context) (bool, error) { return c.maint, nil }

// Read answers the views from viewFixtures (or c.views when set), and
// records the path.
func (c *fakeControl) Read(_ context.Context, path string, out any) error {
	c.mu.Lock()
	c.reads = append(c.reads, path)
	views := c.views
	c.mu.Unlock()
	if views == nil {
		views = viewFixtures()
	}
	data, ok := views[path]
	if !ok {
		return fmt.Errorf("GET %s: 404 No endpoint GET %s", path, path)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

func (c *fakeControl) readLog() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.reads...)
}

// viewFixtures are the control plane's answers for the views, built from
// the server's own types: a report with findings, faults of every source,
// e-mails, jobs in each state and two installs.
func viewFixtures() map[string]any {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	ts := func(s int) *string { v := sandbox.FormatTime(at(s)); return &v }
	str := func(s string) *string { return &s }
	findings := []scenario.Finding{
		{Rule: scenario.RuleNoContentType, Message: "GET /api/orders was sent without Content-Type; send application/json on every request, GET and DELETE included.",
			Time: at(3), RequestID: callID(3), Eshop: 1001, TokenKind: "private", Token: "sbx_prv_…1001", Method: "GET", Path: "/api/orders", Operation: "GetListOfOrders"},
		{Rule: scenario.RuleRetriedUnchanged, Message: "PATCH /api/products/surcharge-parameters/gift-wrapping was sent again unchanged after it was answered 400 or 422; fix the request instead of retrying it.",
			Time: at(14), RequestID: callID(14), Eshop: 1001, TokenKind: "private", Method: "PATCH", Path: "/api/products/surcharge-parameters/gift-wrapping", Operation: "UpdateSurchargeParameter"},
		{Rule: scenario.RuleInstallEarly, Message: "Add-on example-addon: answered 200 before exchanging the code.", Time: at(20), Eshop: 1002},
	}
	counts := map[string]int{}
	for _, r := range scenario.Rules {
		counts[r.Name] = 0
	}
	for _, f := range findings {
		counts[f.Rule]++
	}
	report := scenario.ReportView{Counts: counts, Findings: findings, Rules: scenario.Rules}
	faults := map[string]any{"header": "Service-Sandbox-Fault", "scenario": "checkout-flaky", "faults": []scenario.FaultView{
		{Name: "flaky-receiver", Kind: "webhook-status", Trigger: "auto", Source: scenario.SourceScenario, Description: "The receiver answers 500 once.", Matched: 3, Hits: 1,
			Fault: map[string]any{"name": "flaky-receiver", "match": map[string]any{"event": "order:update"}, "webhook": map[string]any{"status": 500}, "times": 1}},
		{ID: "f1", Name: "slow-orders", Kind: "delay", Trigger: "auto", Source: scenario.SourceRuntime, Matched: 9, Hits: 9,
			Fault: map[string]any{"name": "slow-orders", "match": map[string]any{"path": "/api/orders"}, "delay": "2s"}},
		{Name: "maintenance", Kind: "status", Trigger: "header", Source: scenario.SourceBuiltin, Builtin: true, Description: "503 with Retry-After, as during the service's maintenance."},
	}}
	outbox := map[string]any{"emails": []orders.Mail{
		{ID: 1, EshopID: 1001, Kind: orders.MailConfirmation, To: "jana.novakova@example.com", Subject: "Trailvik Outdoor: order 2025000031 received",
			Body: "Thank you for your order 2025000031. Total 1290.00 CZK.", OrderCode: "2025000031", Created: sandbox.FormatTime(at(30))},
		{ID: 2, EshopID: 1001, Kind: orders.MailStatus, To: "jana.novakova@example.com", Subject: "Trailvik Outdoor: order 2025000031 is now Vyřizuje se",
			Body: "The status of your order 2025000031 changed to Vyřizuje se.", OrderCode: "2025000031", Created: sandbox.FormatTime(at(42))},
	}}
	jobList := map[string]any{"jobs": []jobs.ControlItem{
		{EshopID: 1001, Operation: "GetListOfAllProducts", View: jobs.View{JobID: "a1b2c3d4e5", Endpoint: "/api/products/snapshot", CreationTime: ts(5),
			CompletionTime: ts(10), Duration: str("00:00:05"), Status: jobs.Completed, ResultURL: str("http://127.0.0.1:8080/files/jobs/a1b2c3d4e5.json.gz"), ValidUntil: ts(86410)}},
		{EshopID: 1002, Operation: "GetListOfAllOrders", View: jobs.View{JobID: "f6e5d4c3b2", Endpoint: "/api/orders/snapshot", CreationTime: ts(40),
			Status: jobs.Running}, NextDue: ts(45), Fault: jobs.FaultStall},
		{EshopID: 1001, Operation: "BatchUpdateProducts", View: jobs.View{JobID: "0a9b8c7d6e", Endpoint: "/api/products/batch", CreationTime: ts(50),
			CompletionTime: ts(55), Duration: str("00:00:05"), Status: jobs.Failed, Log: str("Export exploded.")}},
	}}
	installs := map[string]any{"installs": []addons.InstallReport{
		{ID: "inst-1", EshopID: 1001, Addon: "example-addon", InstallURL: "http://127.0.0.1:9300/install", Result: addons.Passed, Passed: true,
			StartedAt: sandbox.FormatTime(at(2)), FinishedAt: sandbox.FormatTime(at(2)), Answer: &addons.Answer{Status: 200, DurationMs: 12},
			Summary: "Installed: the add-on exchanged the code and answered 200.", AddonStatus: "installed", Problems: []string{}},
		{ID: "inst-2", EshopID: 1002, Addon: "payments-demo", InstallURL: "http://127.0.0.1:9400/install", Result: addons.Failed,
			StartedAt: sandbox.FormatTime(at(20)), FinishedAt: sandbox.FormatTime(at(21)), Answer: &addons.Answer{Status: 200, DurationMs: 40},
			Summary: "Failed: answered 200 before exchanging the code.", AddonStatus: "not-installed",
			Problems: []string{"The add-on answered 200 before it exchanged the code at the token URL."}},
	}}
	return map[string]any{scenario.ReportPath: report, scenario.FaultsPath: faults, "/_sandbox/outbox": outbox, jobs.ControlPath: jobList, "/_sandbox/installs": installs}
}

func (c *fakeControl) log() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}

// plainRenderer renders without any colour or attribute, as NO_COLOR
// terminals and the golden files see it.
func plainRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return r
}

// testInfo is a sandbox with the fixtures' two e-shops.
func testInfo() *traffic.Info {
	return &traffic.Info{BaseURL: "http://127.0.0.1:8080", Now: t0, History: 1000, Eshops: []traffic.EshopInfo{
		{ID: 1001, Name: "Trailvik Outdoor", URL: "http://127.0.0.1:8080/eshops/1001", Addons: []string{"example-addon"},
			Tokens: []traffic.TokenInfo{{Header: "Service-Private-API-Token", Token: "sbx_prv_00000000000000000000000000001001", Label: "Full access"}}},
		{ID: 1002, Name: "Lakelark Paddle Supply", URL: "http://127.0.0.1:8080/eshops/1002", Addons: []string{},
			Tokens: []traffic.TokenInfo{{Header: "Service-Private-API-Token", Token: "sbx_prv_00000000000000000000000000001002", Label: "Owner token"}}},
	}}
}

// testCall builds a deterministic call.
func testCall(i int, method, path string, status, eshop int) *bus.Call {
	c := &bus.Call{
		ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Time: t0.Add(time.Duration(i) * time.Second),
		Duration: time.Duration(1+i%7) * 1500 * time.Microsecond, Eshop: eshop, Method: method, Path: path, Status: status,
		ReqHeader:  http.Header{"Content-Type": {"application/json"}, "Host": {"127.0.0.1:8080"}},
		RespHeader: http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {fmt.Sprintf("00000000-0000-4000-8000-%012d", i)}},
		RespBody:   bus.NewBody([]byte(fmt.Sprintf(`{"data":{"n":%d},"errors":null,"metadata":{"requestId":"00000000-0000-4000-8000-%012d"}}`, i, i))),
	}
	if eshop != 0 {
		c.TokenKind = "private"
		c.ReqHeader.Set("Service-Private-API-Token", fmt.Sprintf("sbx_prv_00000000000000000000000000%06d", eshop))
	}
	return c
}

// busyEvents is a sandbox in use: calls of every kind and webhooks with
// retries.
func busyEvents() []traffic.Event {
	paths := []struct {
		method, path, op string
		status, eshop    int
	}{
		{"GET", "/api/eshop?include=orderStatuses,paymentMethods", "GetEshopInfo", 200, 1001},
		{"GET", "/api/orders?page=1&itemsPerPage=20", "GetListOfOrders", 200, 1001},
		{"POST", "/api/orders", "CreateOrder", 201, 1001},
		{"GET", "/api/products/3eba2812-7d31-5dce-92a7-467c093b5e64", "GetProductDetail", 200, 1002},
		{"PATCH", "/api/products/surcharge-parameters/gift-wrapping", "UpdateSurchargeParameter", 422, 1001},
		{"GET", "/api/eshop", "", 401, 0},
		{"DELETE", "/api/pricelists/7", "DeletePricelist", 404, 1002},
		{"GET", "/_sandbox/health", "sandbox.health", 200, 0},
		{"PUT", "/api/orders/2025000001/status", "UpdateOrderStatus", 503, 1001},
	}
	var evs []traffic.Event
	seq := int64(0)
	for i := 0; i < 27; i++ {
		p := paths[i%len(paths)]
		c := testCall(i+1, p.method, p.path, p.status, p.eshop)
		c.Operation = p.op
		if p.method != "GET" && p.method != "DELETE" {
			c.ReqBody = []byte(`{"data":{"statusId":-2,"note":"from the test"}}`)
		}
		if p.status == 503 {
			c.Fault = "maintenance"
		}
		seq++
		evs = append(evs, traffic.Event{Seq: seq, Type: traffic.TypeCall, Call: c})
	}
	hooks := []*bus.Delivery{
		{ID: "dlv-0001", Attempt: 1, Eshop: 1001, Event: "order:create", Instance: "2025000031", URL: "http://127.0.0.1:9100/webhooks", Signature: "3f2a9c0b1d4e5f60718293a4b5c6d7e8f9012345", Status: 200, Succeeded: true, Final: true},
		{ID: "dlv-0002", Attempt: 1, Eshop: 1001, Event: "order:update", Instance: "2025000001", URL: "http://127.0.0.1:9100/webhooks", Signature: "aa11bb22cc33dd44ee55ff6677889900aabbccdd", Status: 500, Fault: "flaky-receiver"},
		{ID: "dlv-0003", Attempt: 1, Eshop: 1002, Event: "customer:create", Instance: "b1c2d3e4-0000-4000-8000-000000000001", URL: "http://127.0.0.1:9200/hooks/customers", Signature: "0123456789abcdef0123456789abcdef01234567", Status: 0, Error: "dial tcp 127.0.0.1:9200: connect: connection refused", Final: true},
		{ID: "dlv-0002", Attempt: 2, Eshop: 1001, Event: "order:update", Instance: "2025000001", URL: "http://127.0.0.1:9100/webhooks", Signature: "aa11bb22cc33dd44ee55ff6677889900aabbccdd", Status: 502},
		{ID: "dlv-0002", Attempt: 3, Eshop: 1001, Event: "order:update", Instance: "2025000001", URL: "http://127.0.0.1:9100/webhooks", Signature: "aa11bb22cc33dd44ee55ff6677889900aabbccdd", Status: 200, Succeeded: true, Final: true},
	}
	body := func(d *bus.Delivery) []byte {
		return []byte(fmt.Sprintf(`{"eshopId":%d,"event":%q,"eventCreated":"2025-06-01T10:00:30+0000","eventInstance":%q}`, d.Eshop, d.Event, d.Instance))
	}
	queue := func(d bus.Delivery, at time.Duration) {
		d.Time, d.ReqBody, d.Status, d.Signature = t0.Add(at), body(&d), 0, ""
		next := d.Time
		d.NextTry = &next
		seq++
		evs = append(evs, traffic.Event{Seq: seq, Type: traffic.TypeQueued, Delivery: &d})
	}
	queue(*hooks[0], 29*time.Second) // queued, then sent: the queued row gives way
	for i, d := range hooks {
		d.Time = t0.Add(time.Duration(30+i*10) * time.Second)
		d.Duration = time.Duration(2+i) * time.Millisecond
		d.ReqBody = body(d)
		if d.Status != 0 {
			d.RespBody = []byte("ok")
		}
		if !d.Final {
			next := d.Time.Add(time.Duration(d.Attempt) * time.Minute)
			d.NextTry = &next
		}
		seq++
		evs = append(evs, traffic.Event{Seq: seq, Type: traffic.TypeDelivery, Delivery: d})
	}
	replay := *hooks[2] // a replay of the refused delivery: queued, not sent yet
	replay.ID, replay.Attempt, replay.Error, replay.Final = "dlv-0004", 1, "", false
	queue(replay, 90*time.Second)
	return evs
}

// items wraps events as source items.
func items(info *traffic.Info, evs []traffic.Event) []Item {
	var out []Item
	if info != nil {
		out = append(out, Item{Info: info})
	}
	for i := range evs {
		out = append(out, Item{Event: &evs[i]})
	}
	return out
}

// newTestModel is a UI with a fake source and control, a fixed clock and
// no colour.
func newTestModel() (*Model, *fakeSource, *fakeControl) {
	src, ctl := newFakeSource(), &fakeControl{}
	m := New(Options{Source: src, Control: ctl, Now: func() time.Time { return t0 }, Renderer: plainRenderer(),
		Clipboard: func(string) (string, error) { return "copied to the clipboard (test)", nil }})
	return m, src, ctl
}

package sandboxtest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// fakeTB is a testing.TB that records a failure instead of failing the
// real test; Fatal ends the helper's goroutine as testing does. Cleanup
// and logging go to the real test.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) record(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
	f.msgs = append(f.msgs, msg)
}
func (f *fakeTB) Errorf(format string, args ...any) { f.record(fmt.Sprintf(format, args...)) }
func (f *fakeTB) Error(args ...any)                 { f.record(fmt.Sprint(args...)) }
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.record(fmt.Sprintf(format, args...))
	runtime.Goexit()
}
func (f *fakeTB) Fatal(args ...any) { f.record(fmt.Sprint(args...)); runtime.Goexit() }
func (f *fakeTB) FailNow()          { f.record("FailNow"); runtime.Goexit() }
func (f *fakeTB) Fail()             { f.record("Fail") }
func (f *fakeTB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

// outcome runs fn against a fake test and answers whether it failed the
// test and with what message.
func outcome(t *testing.T, fn func(tb testing.TB)) (bool, string) {
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f.Failed(), strings.Join(f.msgs, "\n")
}

// TestKitHelpersFailTheTestOnABadOutcome: every helper fails the test
// that called it (through testing.TB) when the sandbox refuses or the
// awaited state never comes, naming why, and lets a good outcome pass.
func TestKitHelpersFailTheTestOnABadOutcome(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	s.WaitTimeout = 300 * time.Millisecond
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not today", http.StatusInternalServerError)
	}))
	t.Cleanup(broken.Close)
	s.Register("broken", controlclient.AddonConfig{InstallURL: broken.URL + "/install", Endpoints: []string{"all"}, Approved: true})
	dead := func(tb testing.TB) *sandboxtest.Server {
		d := s.For(tb)
		d.Control = controlclient.New("http://127.0.0.1:1", nil)
		return d
	}

	for _, tc := range []struct {
		name string
		fn   func(tb testing.TB)
		want string // in the failure message; "" when the helper must pass
	}{
		{"Register refused", func(tb testing.TB) { s.For(tb).Register("bad name", controlclient.AddonConfig{}) }, "HTTP 400"},
		{"Register", func(tb testing.TB) { s.For(tb).Register("fine", controlclient.AddonConfig{InstallURL: broken.URL}) }, ""},
		{"Install of an unknown add-on", func(tb testing.TB) { s.For(tb).Install("nobody") }, "404"},
		{"Install whose handshake fails", func(tb testing.TB) { s.For(tb).Install("broken") }, "install of broken failed"},
		{"Emit refused", func(tb testing.TB) { s.For(tb).Emit("order:explode", "1") }, "order:explode"},
		{"Emit", func(tb testing.TB) { s.For(tb).Emit("order:create", "2025000001") }, ""},
		{"AddFault refused", func(tb testing.TB) { s.For(tb).AddFault(map[string]any{"respond": "loudly"}) }, "add fault"},
		{"Fault unknown", func(tb testing.TB) { s.For(tb).Fault("nope") }, `no fault "nope"`},
		{"Deliveries unreachable", func(tb testing.TB) { dead(tb).Deliveries(controlclient.DeliveryFilter{}) }, "deliveries"},
		{"Traffic unreachable", func(tb testing.TB) { dead(tb).Traffic() }, "traffic"},
		{"Report unreachable", func(tb testing.TB) { dead(tb).Report() }, "report"},
		{"RequireCleanReport clean", func(tb testing.TB) { s.For(tb).RequireCleanReport() }, ""},
		{"WaitFor never", func(tb testing.TB) { s.For(tb).WaitFor("the moon", func() bool { return false }) }, "waiting for the moon"},
		{"WaitForDelivery none", func(tb testing.TB) { s.For(tb).WaitForDelivery("order:delete") }, "order:delete"},
		{"WaitForCall none", func(tb testing.TB) { s.For(tb).WaitForCall("DeleteOrder") }, "DeleteOrder"},
		{"WaitForJob unknown", func(tb testing.TB) { s.For(tb).WaitForJob("nojob") }, "job nojob"},
		{"WaitForOrderStatus other status", func(tb testing.TB) { s.For(tb).WaitForOrderStatus("2025000001", -4) }, "status -4 (it is in -3)"},
		{"WaitForOrderStatus unknown order", func(tb testing.TB) { s.For(tb).WaitForOrderStatus("1", -4) }, "HTTP 404"},
		{"WaitForOrderStatus", func(tb testing.TB) { s.For(tb).WaitForOrderStatus("2025000001", -3) }, ""},
		{"WaitForInbox empty", func(tb testing.TB) { s.For(tb).WaitForInbox("nobody-writes", 1) }, "1 webhooks in inbox nobody-writes (it holds 0)"},
		{"WaitForInbox bad name", func(tb testing.TB) { s.For(tb).WaitForInbox("no/such", 1) }, "inbox no/such"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			failed, msg := outcome(t, tc.fn)
			switch {
			case tc.want == "" && failed:
				t.Errorf("failed the test on a good outcome: %s", msg)
			case tc.want != "" && !failed:
				t.Errorf("did not fail the test")
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Errorf("failed with %q, want it to say %q", msg, tc.want)
			}
		})
	}

	// A finding makes RequireCleanReport fail, naming the rule.
	s.Do(sandboxtest.Call{Path: "/api/orders", PrivateToken: s.PrivateToken, ContentType: "-"})
	failed, msg := outcome(t, func(tb testing.TB) { s.For(tb).RequireCleanReport() })
	if !failed || !strings.Contains(msg, "findings") {
		t.Errorf("RequireCleanReport with a finding: failed %v, %q", failed, msg)
	}
}

// TestAddFaultIsRemovedAtCleanup: a fault added in a (sub)test is gone
// once that test ends.
func TestAddFaultIsRemovedAtCleanup(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	var id string
	t.Run("adds", func(t *testing.T) {
		id = s.For(t).AddFault(map[string]any{"match": map[string]any{"operation": "GetListOfOrders"}, "respond": map[string]any{"status": 500}}).ID
		if got := s.For(t).Fault(id); got.ID != id {
			t.Fatalf("the fault %s is not in force: %+v", id, got)
		}
	})
	failed, _ := outcome(t, func(tb testing.TB) { s.For(tb).Fault(id) })
	if !failed {
		t.Errorf("fault %s is still in force after its test ended", id)
	}
}

// TestTrafficHelpersSeeCalls: Calls, Traffic and WaitForCall see an API
// call, and the kit's own control-plane reads stay out of the history.
func TestTrafficHelpersSeeCalls(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	if st, _ := s.JSON("GET", "/api/orders", s.PrivateToken, ""); st != 200 {
		t.Fatalf("GET /api/orders: %d", st)
	}
	c := s.WaitForCall("GetListOfOrders")
	if c.Status != 200 || c.Eshop != s.EshopID {
		t.Errorf("the call: %+v", c)
	}
	s.Report()
	s.Deliveries(controlclient.DeliveryFilter{})
	for _, e := range s.Traffic() {
		if e.Call != nil && strings.HasPrefix(e.Call.Path, "/_sandbox/") {
			t.Errorf("the kit's own read %s %s is in the traffic history", e.Call.Method, e.Call.Path)
		}
	}
}

// TestWaitForInboxLongPolls: an add-on's system event reaches an inbox
// registered as its webhook URL, and WaitForInbox returns it.
func TestWaitForInboxLongPolls(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	s.Register("boxed", controlclient.AddonConfig{InstallURL: "http://127.0.0.1:9/install", WebhookURL: s.InboxURL("boxed")})
	s.EmitEvent(controlclient.Event{EshopID: s.EshopID, Event: "addon:suspend", Instance: strconv.Itoa(s.EshopID), Addon: "boxed"})
	v := s.WaitForInbox("boxed", 1)
	if v.Count != 1 || v.Entries[0].Event != "addon:suspend" {
		t.Errorf("inbox %+v", v)
	}
}

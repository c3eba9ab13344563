package sandboxtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/app/inbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// DefaultWaitTimeout is how long the WaitFor helpers wait for their
// condition unless Server.WaitTimeout says otherwise.
const DefaultWaitTimeout = 10 * time.Second

// probeHeader marks the API calls a WaitFor helper makes to look at the
// state, so their own traffic does not wake the waiter again.
const probeHeader = "Sandbox-Kit-Probe"

// For returns the same sandbox reporting to another test: a subtest's t,
// say, so a helper's failure fails the subtest that called it.
func (s *Server) For(t testing.TB) *Server {
	cp := *s
	cp.t = t
	return &cp
}

func (s *Server) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// fail ends the test with what went wrong, naming an error envelope's
// code and instance.
func (s *Server) fail(what string, err error) {
	s.t.Helper()
	var ae *api.AnswerError
	if errors.As(err, &ae) {
		s.t.Fatalf("sandbox: %s: HTTP %d %s (%s): %s", what, ae.Status, ae.Code, ae.Instance, ae.Message)
	}
	s.t.Fatalf("sandbox: %s: %v", what, err)
}

// Register creates (or changes) an add-on in the test's e-shop and
// returns it with its client credentials (ClientID, ClientSecret) and the
// e-shop's OAuth addresses (TokenURL, AccessTokenURL, EshopURL). It fails
// the test when the sandbox refuses the configuration.
func (s *Server) Register(name string, cfg controlclient.AddonConfig) *addons.View {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.PutAddon(ctx, s.EshopID, name, cfg)
	if err != nil {
		s.fail("register add-on "+name, err)
	}
	return v
}

// Install runs the install handshake of a registered add-on into the
// test's e-shop and returns its report. It fails the test, listing the
// handshake's problems, unless the report's verdict (Passed) is true.
func (s *Server) Install(name string) *addons.InstallReport {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*addons.DefaultInstallTimeout)
	defer cancel()
	rec, err := s.Control.Install(ctx, s.EshopID, name)
	if err != nil {
		s.fail("install "+name, err)
	}
	if !rec.Passed {
		s.t.Fatalf("sandbox: install of %s failed: %s\n  %s", name, rec.Summary, strings.Join(rec.Problems, "\n  "))
	}
	return rec
}

// Emit publishes an event in the test's e-shop, e.g.
// Emit("order:create", "2025000001"); its webhooks are delivered in the
// background (WaitForDelivery waits for one).
func (s *Server) Emit(event, instance string) *webhooks.EmittedEvent {
	s.t.Helper()
	return s.EmitEvent(controlclient.Event{EshopID: s.EshopID, Event: event, Instance: instance})
}

// EmitEvent publishes an event described in full (another e-shop, a
// system event for one add-on, a given time).
func (s *Server) EmitEvent(ev controlclient.Event) *webhooks.EmittedEvent {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.Emit(ctx, ev)
	if err != nil {
		s.fail("emit "+ev.Event, err)
	}
	return v
}

// AddFault adds a fault while serving, in the scenario file's fault
// syntax (a map such as {"match": {"operation": "GetListOfOrders"},
// "trigger": {"nth": 1}, "respond": {"status": 429}}), and removes it when
// the test ends. The answer's Hits counts the calls it acted on.
func (s *Server) AddFault(fault any) *scenario.FaultView {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.AddFault(ctx, fault)
	if err != nil {
		s.fail("add fault", err)
	}
	t := s.t
	s.t.Cleanup(func() {
		ctx, cancel := s.ctx()
		defer cancel()
		var ae *api.AnswerError
		if err := s.Control.RemoveFault(ctx, v.ID); err != nil && !(errors.As(err, &ae) && ae.Status == 404) {
			t.Errorf("sandbox: remove fault %s: %v", v.ID, err)
		}
	})
	return v
}

// Fault reads a fault in force by id or name, with its counters (Matched,
// Hits); it fails the test when there is none.
func (s *Server) Fault(id string) scenario.FaultView {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	fs, err := s.Control.Faults(ctx)
	if err != nil {
		s.fail("faults", err)
	}
	for _, f := range fs.Faults {
		if f.ID == id || f.Name == id {
			return f
		}
	}
	s.t.Fatalf("sandbox: no fault %q in force", id)
	return scenario.FaultView{}
}

// Deliveries lists webhook notifications with their attempts.
func (s *Server) Deliveries(f controlclient.DeliveryFilter) []*webhooks.Notification {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.Deliveries(ctx, f)
	if err != nil {
		s.fail("deliveries", err)
	}
	return v
}

// Traffic lists the recorded calls (API and control plane) and webhook
// deliveries, oldest first.
func (s *Server) Traffic() []traffic.Event {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.Traffic(ctx, 0, 0)
	if err != nil {
		s.fail("traffic", err)
	}
	return v.Events
}

// Calls lists the recorded calls of an operation (e.g. GetListOfOrders;
// "" for every call), oldest first.
func (s *Server) Calls(operation string) []*bus.Call {
	s.t.Helper()
	var out []*bus.Call
	for _, e := range s.Traffic() {
		if e.Call != nil && (operation == "" || e.Call.Operation == operation) {
			out = append(out, e.Call)
		}
	}
	return out
}

// Report reads the contract report.
func (s *Server) Report() *scenario.ReportView {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	v, err := s.Control.Report(ctx)
	if err != nil {
		s.fail("report", err)
	}
	return v
}

// RequireCleanReport fails the test, listing every finding, unless the
// contract report's verdict (Clean) is true: the add-on broke none of
// the spec's rules.
func (s *Server) RequireCleanReport() {
	s.t.Helper()
	rp := s.Report()
	if rp.Clean {
		return
	}
	var b strings.Builder
	for _, f := range rp.Findings {
		fmt.Fprintf(&b, "\n  %s: %s", f.Rule, f.Message)
	}
	if rp.Dropped > 0 {
		fmt.Fprintf(&b, "\n  (and %d older findings)", rp.Dropped)
	}
	s.t.Fatalf("sandbox: the contract report has %d findings:%s", len(rp.Findings)+rp.Dropped, b.String())
}

// WaitFor waits until cond holds, checking it again whenever the sandbox
// records a call or a delivery (its live traffic stream) and at least
// every 100 ms for changes on the sandbox clock, and fails the test
// naming what when WaitTimeout passes first. cond may itself use the
// Server's helpers.
func (s *Server) WaitFor(what string, cond func() bool) {
	s.t.Helper()
	s.waitFor(func() string { return what }, cond)
}

func (s *Server) waitFor(what func() string, cond func() bool) {
	s.t.Helper()
	timeout := s.WaitTimeout
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	changed := make(chan struct{}, 1)
	streamDone := make(chan struct{})
	go func() {
		defer close(streamDone)
		_, _ = traffic.Follow(ctx, s.Client, s.URL, 0, func(m traffic.StreamMessage) {
			if m.Event != nil && m.Event.Call != nil && m.Event.Call.ReqHeader.Get(probeHeader) != "" {
				return // the waiter's own look
			}
			select {
			case changed <- struct{}{}:
			default:
			}
		})
	}()
	defer func() { cancel(); <-streamDone }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-tick.C:
		case <-ctx.Done():
			if cond() {
				return
			}
			s.t.Fatalf("sandbox: gave up after %s waiting for %s", timeout, what())
			return
		}
	}
}

// WaitForDelivery waits until a notification of the event (e.g.
// order:create) in the test's e-shop was acknowledged by its receiver
// (status delivered) and returns it.
func (s *Server) WaitForDelivery(event string) *webhooks.Notification {
	s.t.Helper()
	var got *webhooks.Notification
	s.WaitFor("a delivered "+event+" notification", func() bool {
		ds := s.Deliveries(controlclient.DeliveryFilter{EshopID: s.EshopID, Event: event, Status: "delivered"})
		if len(ds) > 0 {
			got = ds[len(ds)-1]
		}
		return got != nil
	})
	return got
}

// WaitForCall waits until the sandbox recorded a call of the operation
// (e.g. GetListOfOrders) and returns the latest.
func (s *Server) WaitForCall(operation string) *bus.Call {
	s.t.Helper()
	var got *bus.Call
	s.WaitFor("a call of "+operation, func() bool {
		if cs := s.Calls(operation); len(cs) > 0 {
			got = cs[len(cs)-1]
		}
		return got != nil
	})
	return got
}

// WaitForJob waits until the job (its jobId) reaches a settled status,
// completed, failed or killed, and returns it.
func (s *Server) WaitForJob(jobID string) jobs.ControlItem {
	s.t.Helper()
	var got jobs.ControlItem
	s.WaitFor("job "+jobID+" to finish", func() bool {
		ctx, cancel := s.ctx()
		defer cancel()
		list, err := s.Control.Jobs(ctx, 0, "")
		if err != nil {
			s.fail("jobs", err)
		}
		for _, j := range list {
			if j.JobID == jobID {
				got = j
				return j.Status == jobs.Completed || j.Status == jobs.Failed || j.Status == jobs.Killed
			}
		}
		return false
	})
	return got
}

// WaitForOrderStatus waits until the order (its code) of the test's
// e-shop is in the order status statusID, read through the API with the
// e-shop's private token.
func (s *Server) WaitForOrderStatus(code string, statusID int) {
	s.t.Helper()
	last := ""
	s.waitFor(func() string { return fmt.Sprintf("order %s in status %d (it is in %s)", code, statusID, last) }, func() bool {
		r := s.Do(Call{Path: "/api/orders/" + url.PathEscape(code), PrivateToken: s.PrivateToken, Header: map[string]string{probeHeader: "1"}})
		if r.Status != 200 {
			s.t.Fatalf("sandbox: GET /api/orders/%s: HTTP %d: %s", code, r.Status, r.Body)
		}
		last = gjson.GetBytes(r.Body, "data.order.status.id").String()
		return last == strconv.Itoa(statusID)
	})
}

// eshopFacts fills EshopID, EshopURL and PrivateToken from the sandbox's
// first e-shop, as the traffic feed's info tells them; a sandbox without
// one (no e-shops, or a test of the recorder's refusals) leaves them
// empty.
func (s *Server) eshopFacts() {
	s.t.Helper()
	ctx, cancel := s.ctx()
	defer cancel()
	snap, err := s.Control.Traffic(ctx, 0, 1)
	if err != nil || len(snap.Info.Eshops) == 0 {
		return
	}
	e := snap.Info.Eshops[0]
	s.EshopID, s.EshopURL = e.ID, e.URL
	for _, tok := range e.Tokens {
		if tok.Header == s.Headers.PrivateToken {
			s.PrivateToken = tok.Token
			break
		}
	}
}

// InboxURL is the address of a webhook inbox inside the sandbox, to
// register as an add-on's or a webhook's URL when the test needs no
// receiver of its own.
func (s *Server) InboxURL(name string) string { return s.Control.InboxURL(name) }

// WaitForInbox waits until the named inbox received count webhooks and
// returns them, on the inbox's own long-poll (GET /_sandbox/inbox/{name}
// ?wait=), failing the test when WaitTimeout (at most inbox.MaxWait)
// passes first.
func (s *Server) WaitForInbox(name string, count int) *inbox.View {
	s.t.Helper()
	timeout := s.WaitTimeout
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout+5*time.Second)
	defer cancel()
	v, err := s.Control.Inbox(ctx, name, count, min(timeout, inbox.MaxWait))
	if err != nil {
		s.fail("inbox "+name, err)
	}
	if v.Count < count {
		s.t.Fatalf("sandbox: gave up after %s waiting for %d webhooks in inbox %s (it holds %d)", timeout, count, name, v.Count)
	}
	return v
}

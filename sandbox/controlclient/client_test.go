package controlclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/limits"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
)

// TestClientCallsEveryOperationItCovers: each method of the client sends
// its call and decodes the answer into its struct (sandboxtest's client
// also checks every answer against its schema in the control document).
func TestClientCallsEveryOperationItCovers(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	c, ctx := s.Control, context.Background()
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	h, err := c.Health(ctx)
	must("health", err)
	if h.Status != "ok" || h.Eshops < 1 {
		t.Errorf("health %+v", h)
	}
	es, err := c.Eshops(ctx)
	must("eshops", err)
	if len(es) == 0 {
		t.Error("no e-shops")
	}
	v, err := c.PutAddon(ctx, 1001, "a1", controlclient.AddonConfig{InstallURL: "http://127.0.0.1:9/install", WebhookURL: c.InboxURL("a1"), Endpoints: []string{"GetListOfOrders"}})
	must("put add-on", err)
	if v.ClientID == "" || v.TokenURL == "" || v.AccessTokenURL == "" || v.Endpoints[0].Approved {
		t.Errorf("add-on %+v", v)
	}
	ap, err := c.ApproveAddon(ctx, 1001, "a1")
	must("approve", err)
	if len(ap.Approved) != 1 || ap.Approved[0] != "GetListOfOrders" {
		t.Errorf("approved %+v", ap.Approved)
	}
	list, err := c.Addons(ctx, 1001)
	must("add-ons", err)
	found := false
	for _, a := range list {
		found = found || a.Name == "a1"
	}
	if !found {
		t.Errorf("a1 not among %d add-ons", len(list))
	}
	_, err = c.Addon(ctx, 1001, "a1")
	must("add-on", err)
	rec, err := c.Install(ctx, 1001, "a1")
	must("install", err)
	if rec.Passed || len(rec.Problems) == 0 {
		t.Errorf("an install against a closed port passed: %+v", rec)
	}
	ins, err := c.Installs(ctx, 1001, "a1")
	must("installs", err)
	if len(ins) != 1 || ins[0].ID != rec.ID {
		t.Errorf("installs %+v", ins)
	}
	ev, err := c.Emit(ctx, controlclient.Event{EshopID: 1001, Event: "addon:suspend", Instance: "1001", Addon: "a1"})
	must("emit", err)
	if ev.Addon != "a1" {
		t.Errorf("emitted %+v", ev)
	}
	box, err := c.Inbox(ctx, "a1", 1, 10*time.Second)
	must("inbox", err)
	if box.Count != 1 || box.TimedOut {
		t.Errorf("inbox %+v", box)
	}
	ds, err := c.Deliveries(ctx, controlclient.DeliveryFilter{EshopID: 1001, Event: "addon:suspend"})
	must("deliveries", err)
	if len(ds) != 1 {
		t.Fatalf("%d deliveries", len(ds))
	}
	re, err := c.Replay(ctx, ds[0].ID)
	must("replay", err)
	if re.ReplayOf != ds[0].ID {
		t.Errorf("replay %+v", re)
	}
	// Only an installed add-on can be suspended: the refusal is typed.
	var refused *api.AnswerError
	if _, err := c.Lifecycle(ctx, 1001, "a1", "suspend"); !errors.As(err, &refused) || refused.Status != 409 && refused.Status != 422 {
		t.Errorf("suspending a configured add-on: %v", err)
	}
	st, err := c.AdvanceClock(ctx, time.Hour)
	must("advance", err)
	cl, err := c.Clock(ctx)
	must("clock", err)
	if cl.Now != st.Now {
		t.Errorf("clock %+v after %+v", cl, st)
	}
	lim, err := c.SetLimits(ctx, limits.LimitsBody{PerToken: new(5)})
	must("set limits", err)
	if lim.PerToken != 5 {
		t.Errorf("limits %+v", lim)
	}
	_, err = c.Limits(ctx)
	must("limits", err)
	m, err := c.Maintenance(ctx, limits.MaintenanceBody{On: false})
	must("maintenance", err)
	if m["on"] != false {
		t.Errorf("maintenance %v", m)
	}
	o, err := c.SetAPITokenLifetime(ctx, 10*time.Minute)
	must("oauth", err)
	if o.APITokenLifetime != "10m0s" {
		t.Errorf("oauth %+v", o)
	}
	_, err = c.OAuth(ctx)
	must("oauth get", err)
	_, err = c.Modules(ctx, 1001)
	must("modules", err)
	f, err := c.FailNextJob(ctx, jobs.FailNextBody{Mode: "stall"})
	must("fail next", err)
	if f == nil || f.Mode != "stall" {
		t.Errorf("armed %+v", f)
	}
	_, err = c.Jobs(ctx, 1001, "")
	must("jobs", err)
	_, err = c.PaymentGateways(ctx, 1001)
	must("gateways", err)
	fv, err := c.AddFault(ctx, map[string]any{"match": map[string]any{"operation": "GetListOfOrders"}, "respond": map[string]any{"status": 500}})
	must("add fault", err)
	fs, err := c.Faults(ctx)
	must("faults", err)
	if len(fs.Faults) == 0 || fs.Header == "" {
		t.Errorf("faults %+v", fs)
	}
	must("remove fault", c.RemoveFault(ctx, fv.ID))
	must("clear faults", c.ClearFaults(ctx))
	rp, err := c.Report(ctx)
	must("report", err)
	if len(rp.Rules) == 0 {
		t.Errorf("report %+v", rp)
	}
	_, err = c.ClearReport(ctx)
	must("clear report", err)
	snap, err := c.Traffic(ctx, 0, 0)
	must("traffic", err)
	if len(snap.Events) == 0 {
		t.Error("no traffic")
	}
	rm, err := c.DeleteAddon(ctx, 1001, "a1"), error(nil)
	must("delete add-on", rm)
	must("reset", c.Reset(ctx))

	_, err = c.Addon(ctx, 1001, "a1")
	var ae *api.AnswerError
	if !errors.As(err, &ae) || ae.Status != 404 {
		t.Errorf("a removed add-on: %v", err)
	}
}

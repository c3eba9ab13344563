package scenario

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// draws runs n add-on calls through chaos and returns the fault name of
// each ("" when none).
func draws(c *Chaos, n int) []string {
	out := make([]string, n)
	for i := range out {
		if f := c.Draw(Facts{Method: "GET", Path: "/api/orders", TokenKind: "addon"}); f != nil {
			out[i] = f.Name
		}
	}
	return out
}

// TestChaosDraws: the same seed gives the same faults on the same calls
// (and again after a reset), another seed other faults; the share of
// faulted calls follows the rate; every kind of the spec's list is drawn;
// private-token calls, webhooks and non-API paths never are.
func TestChaosDraws(t *testing.T) {
	a, _ := NewChaos(0.3, 42)
	b, _ := NewChaos(0.3, 42)
	other, _ := NewChaos(0.3, 43)
	da, db, dother := draws(a, 400), draws(b, 400), draws(other, 400)
	if strings.Join(da, ",") != strings.Join(db, ",") {
		t.Fatal("two chaos with seed 42 drew different faults for the same calls")
	}
	if strings.Join(da, ",") == strings.Join(dother, ",") {
		t.Fatal("seeds 42 and 43 drew the same faults")
	}
	a.Reset()
	if again := draws(a, 400); strings.Join(again, ",") != strings.Join(da, ",") {
		t.Fatal("after a reset the same calls got other faults")
	}
	kinds := map[string]int{}
	hit := 0
	for _, d := range draws(a, 4000) {
		if d != "" {
			hit++
			kinds[d]++
		}
	}
	if share := float64(hit) / 4000; share < 0.25 || share > 0.35 {
		t.Fatalf("rate 0.3 faulted %.3f of the calls", share)
	}
	for _, f := range ChaosFaults() {
		if kinds[f.Name] == 0 {
			t.Errorf("%s never drawn in %d faults", f.Name, hit)
		}
	}
	if v := a.View(); v.Calls != 4400 || v.Rate != 0.3 || v.Seed != 42 || len(v.Faults) != 7 {
		t.Fatalf("view: %+v", v)
	}

	all, _ := NewChaos(1, 1)
	for _, f := range []Facts{
		{Method: "GET", Path: "/api/orders", TokenKind: "private"},
		{Method: "GET", Path: "/api/orders"},
		{Event: "order:create", Webhook: true, TokenKind: "addon"},
		{Method: "GET", Path: "/eshops/1001/", TokenKind: "addon"},
	} {
		if got := all.Draw(f); got != nil {
			t.Errorf("%+v got %s", f, got.Name)
		}
	}
	if got := all.Draw(Facts{Method: "GET", Path: "/api/orders", TokenKind: "addon"}); got == nil {
		t.Error("rate 1 left an add-on call alone")
	}
	for _, r := range []float64{0, -0.1, 1.5} {
		if _, err := NewChaos(r, 1); err == nil {
			t.Errorf("rate %v accepted", r)
		}
	}
}

// TestChaosCoping: the contract report counts, per injected kind, the
// faults a later success of the same operation settled and those still
// open; private calls and other operations settle nothing.
func TestChaosCoping(t *testing.T) {
	h := sandbox.NewHeaders("")
	rp := NewReport(h, nil)
	t0 := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	call := func(op, path, fault string, status int, private bool) {
		hd := http.Header{"Content-Type": {"application/json"}}
		if private {
			hd.Set(h.PrivateToken, "p")
		} else {
			hd.Set(h.AccessToken, "a")
		}
		t0 = t0.Add(time.Second)
		rp.Observe(&bus.Call{ID: path + fault, Time: t0, Received: t0, Eshop: 1001, Method: "GET", Path: path, Operation: op, Status: status, Fault: fault, ReqHeader: hd, RespHeader: http.Header{}})
	}
	call("GetListOfOrders", "/api/orders", "chaos:locked", 423, false)
	call("GetListOfOrders", "/api/orders", "chaos:internal-error", 500, false)
	call("GetListOfProducts", "/api/products", "", 200, false) // another operation settles nothing
	call("GetListOfOrders", "/api/orders", "", 200, true)      // nor does a private call
	call("GetListOfOrders", "/api/orders", "", 200, false)     // this one settles both
	call("GetEshopInfo", "/api/eshop", "chaos:internal-error", 500, false)
	call("GetEshopInfo", "/api/eshop", "chaos:latency", 200, false) // late but answered: coped at once
	v := rp.View()
	got := map[string]ChaosCoping{}
	for _, c := range v.Chaos {
		got[c.Fault] = c
	}
	if c := got["chaos:locked"]; c.Injected != 1 || c.Recovered != 1 || c.Open != 0 {
		t.Errorf("locked: %+v", c)
	}
	if c := got["chaos:internal-error"]; c.Injected != 2 || c.Recovered != 1 || c.Open != 1 || !strings.Contains(c.Summary, "1 not (yet)") {
		t.Errorf("internal-error: %+v", c)
	}
	if c := got["chaos:latency"]; c.Injected != 1 || c.Recovered != 1 || c.Open != 0 {
		t.Errorf("latency: %+v", c)
	}
	if len(v.Chaos) != 3 {
		t.Errorf("chaos section: %+v", v.Chaos)
	}
	rp.Clear()
	if v := rp.View(); v.Chaos != nil {
		t.Errorf("after clear: %+v", v.Chaos)
	}
}

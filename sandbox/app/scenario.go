package app

import (
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
)

// scenarioModule applies a scenario's scripted faults while serving (and
// the built-in faults a request names in the <prefix>-Sandbox-Fault
// header), and keeps the contract report. It is listed after the limits,
// webhooks and jobs modules, whose services its faults act through.
func scenarioModule(d *Deps) (*Module, error) {
	var sc *scenario.Scenario
	if len(d.Config.Scenario) > 0 {
		var err error
		if sc, err = scenario.Parse(d.Config.ScenarioName, d.Config.Scenario); err != nil {
			return nil, err
		}
	}
	deps := scenario.Deps{Clock: d.Clock, Headers: d.Headers, Bus: d.Bus, Store: d.Store, Log: d.Log, Limits: d.Limits}
	if d.Jobs != nil {
		deps.ArmJob = func(eshop int, mode string) { d.Jobs.Arm(jobs.Fault{Eshop: eshop, Mode: mode}) }
	}
	e := scenario.NewEngine(deps, sc)
	if d.Config.ChaosRate != 0 {
		seed := d.Config.ChaosSeed
		if seed == 0 {
			seed = d.Config.Seed
		}
		ch, err := scenario.NewChaos(d.Config.ChaosRate, seed)
		if err != nil {
			return nil, err
		}
		e.SetChaos(ch)
	}
	if d.Webhooks != nil {
		d.Webhooks.Faults = func(a webhooks.AttemptInfo) webhooks.AttemptFault {
			act := e.WebhookFault(a.Eshop, a.Event, "delivery "+strconv.Itoa(a.Notification))
			if act == nil {
				return webhooks.AttemptFault{}
			}
			return webhooks.AttemptFault{Name: act.Name, BadSignature: act.BadSignature, Duplicate: act.Duplicate,
				OutOfOrder: act.OutOfOrder, Delay: act.Delay}
		}
	}
	async, unpaged := map[string]bool{}, map[string]bool{}
	for _, ep := range d.Catalogue.Endpoints {
		if ep.Async {
			async[ep.Operation] = true
		}
		if !ep.Pageable {
			unpaged[ep.Operation] = true
		}
	}
	rp := scenario.NewReport(d.Headers, func(op string) bool { return async[op] })
	rp.SkipPaging(func(op string) bool { return unpaged[op] })
	rp.WatchPayments(d.Clock.Now, d.Config.PaymentStatusWithin)
	d.Bus.Hook(rp.Hook)
	return &Module{Name: "scenario", Decorators: []api.Decorator{e.Decorator()}, Control: scenario.Routes(e, rp),
		AfterReset: func() error { e.Reset(); return nil }}, nil
}

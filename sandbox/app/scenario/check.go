package scenario

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// check applies the rules the schema cannot express and records the
// position of every fault and step for later messages.
func (sc *Scenario) check(loc *locator) Problems {
	var ps Problems
	at := func(where string, format string, args ...any) {
		p := Problem{Message: pathLabel(where) + fmt.Sprintf(format, args...)}
		if n := loc.node(where); n != nil {
			p.Line, p.Column = n.Line, n.Column
		}
		ps = append(ps, p)
	}
	if sc.Clock != nil && sc.Clock.Start != "" {
		t, err := sandbox.ParseTime(sc.Clock.Start)
		if err != nil {
			at("/clock/start", "%q is not a time such as 2025-06-01T09:00:00Z", sc.Clock.Start)
		}
		sc.Clock.start = t
	}
	sc.checkSandboxSection(at)
	names := map[string]int{}
	for i := range sc.Faults {
		f := &sc.Faults[i]
		where := "/faults/" + strconv.Itoa(i)
		if n := loc.node(where); n != nil {
			f.Pos = Pos{Line: n.Line, Column: n.Column}
		}
		if prev, dup := names[f.Name]; dup {
			at(where+"/name", "fault name %q is already used by faults[%d]; names must be unique", f.Name, prev)
		}
		names[f.Name] = i
		checkFault(f, where, at)
	}
	for i := range sc.Steps {
		s := &sc.Steps[i]
		where := "/steps/" + strconv.Itoa(i)
		if n := loc.node(where); n != nil {
			s.Pos = Pos{Line: n.Line, Column: n.Column}
		}
		checkStep(sc, s, where, at)
	}
	sc.checkAddonSection(at)
	sc.collectAddons(loc)
	sc.checkNames(at)
	return ps
}

// checkAddonSection applies the addon section's rules: a URL given both
// outright and as a path, credentials by halves, and registration keys
// without the e-shop to register the add-on in.
// checkSandboxSection moves the top-level fixtures and limits (the older
// spelling) into the sandbox section, refusing a file that gives one in
// both places, and checks the header word.
func (sc *Scenario) checkSandboxSection(at func(string, string, ...any)) {
	if sc.Sandbox == nil {
		sc.Sandbox = &SandboxSpec{}
	}
	sb := sc.Sandbox
	if sc.Fixtures != "" {
		if sb.Fixtures != "" {
			at("/fixtures", "sandbox.fixtures names the fixtures already; keep one of the two (sandbox.fixtures is the current spelling)")
		}
		sb.Fixtures = sc.Fixtures
	}
	if sc.Limits != nil {
		if sb.Limits != nil {
			at("/limits", "sandbox.limits sets the limits already; keep one of the two (sandbox.limits is the current spelling)")
		}
		sb.Limits = sc.Limits
	}
	sc.Fixtures, sc.Limits = "", nil
	if sb.HeaderPrefix != "" {
		if err := sandbox.CheckHeaderPrefix(sb.HeaderPrefix); err != nil {
			at("/sandbox/headerPrefix", "%v", err)
		}
	}
}

func (sc *Scenario) checkAddonSection(at func(string, string, ...any)) {
	a := sc.Addon
	if a == nil {
		return
	}
	if a.InstallURL != "" && a.InstallPath != "" {
		at("/addon/installPath", "installUrl names the install URL already; drop installPath (it goes with url)")
	}
	if a.WebhookURL != "" && a.WebhookPath != "" {
		at("/addon/webhookPath", "webhookUrl names the webhook URL already; drop webhookPath (it goes with url)")
	}
	if (a.ClientID == "") != (a.ClientSecret == "") {
		at("/addon", "give clientId and clientSecret together (or neither: the fixtures' or generated ones)")
	}
	if a.Eshop == 0 {
		for _, k := range []struct {
			set  bool
			name string
		}{{a.InstallURL != "", "installUrl"}, {a.WebhookURL != "", "webhookUrl"}, {a.Endpoints != nil, "endpoints"},
			{a.ClientID != "", "clientId"}, {a.URL != "", "url"}} {
			if k.set {
				at("/addon/"+k.name, "which e-shop is the add-on registered in? give addon.eshop")
				return
			}
		}
	}
}

func checkFault(f *Fault, where string, at func(string, string, ...any)) {
	acts := f.actions()
	switch {
	case len(acts) == 0 && f.Latency == nil:
		at(where, "fault %q does nothing: give one action (respond, latency, close, expireToken, holdLock, job, fillBucket, maintenance or webhook)", f.Name)
	case len(acts) > 1:
		at(where, "fault %q has %d actions (%s); give exactly one (latency may accompany a call action)", f.Name, len(acts), strings.Join(acts, ", "))
	}
	if f.Webhook != nil && f.Latency != nil {
		at(where+"/latency", "latency slows calls to the sandbox; a webhook fault delays deliveries with webhook.delay")
	}
	if f.Webhook != nil {
		if f.Trigger == TriggerHeader {
			at(where+"/trigger", "webhook faults apply to deliveries, which carry no request header; use match instead")
		}
		m := f.Match
		for _, c := range []struct {
			set  bool
			name string
		}{{m.Method != "", "method"}, {m.Path != "", "path"}, {m.Operation != "", "operation"}, {m.Token != "", "token"},
			{m.TokenKind != "", "tokenKind"}, {m.Addon != "", "addon"}, {len(m.Header) > 0, "header"}} {
			if c.set {
				at(where+"/match/"+c.name, "a webhook fault matches deliveries (event, eshop, nth, times, probability); %s applies to calls only", c.name)
			}
		}
		if f.Webhook.Fault == webhookFaultDelay && f.Webhook.Delay <= 0 {
			at(where+"/webhook", "webhook fault delay needs a delay such as \"5s\"")
		}
		if f.Webhook.Fault != webhookFaultDelay && f.Webhook.Delay > 0 {
			at(where+"/webhook/delay", "delay is only used by the delay webhook fault")
		}
	} else if f.Match.Event != "" {
		at(where+"/match/event", "event selects webhook deliveries; this fault acts on calls")
	}
	if f.Trigger == TriggerHeader && !f.Match.empty() {
		at(where+"/match", "fault %q is triggered by the request header only, so its match conditions would never be used; remove them or use trigger: auto", f.Name)
	}
	if f.Match.Nth > 0 && f.Match.Times > 0 {
		at(where+"/match", "nth (only the nth call) and times (the first n calls) contradict each other; keep one")
	}
	if f.Match.Path != "" && !strings.HasPrefix(f.Match.Path, "/") {
		at(where+"/match/path", "path %q must start with / (e.g. /api/orders/*)", f.Match.Path)
	}
	if f.Respond != nil && f.Respond.RetryAfter != nil {
		switch {
		case f.Respond.Status != http.StatusTooManyRequests:
			at(where+"/respond/retryAfter", "the service sends Retry-After only when the rate bucket is full (a 429), never with %d; drop retryAfter (the add-on backs off on its own) or use status 429", f.Respond.Status)
		case f.Respond.RetryAfter.D() < time.Second:
			at(where+"/respond/retryAfter", "Retry-After is an HTTP date with whole seconds; give at least 1s")
		}
	}
	for _, d := range []struct {
		set  bool
		v    Duration
		name string
	}{
		{f.Latency != nil, derefDuration(f.Latency), "/latency"},
		{f.HoldLock != nil, holdFor(f.HoldLock), "/holdLock/for"},
		{f.Maintenance != nil, maintenanceFor(f.Maintenance), "/maintenance/for"},
	} {
		if d.set && d.v <= 0 {
			at(where+d.name, "the duration must be above zero")
		}
	}
}

func derefDuration(d *Duration) Duration {
	if d == nil {
		return 0
	}
	return *d
}

func holdFor(h *HoldLock) Duration {
	if h == nil {
		return 0
	}
	return h.For
}

func maintenanceFor(m *Maintenance) Duration {
	if m == nil {
		return 0
	}
	return m.For
}

// empty reports whether no condition is set.
func (m Match) empty() bool {
	return m.Method == "" && m.Path == "" && m.Operation == "" && m.Eshop == 0 && m.Token == "" && m.TokenKind == "" && m.Addon == "" &&
		len(m.Header) == 0 && m.Event == "" && m.Nth == 0 && m.Times == 0 && m.Probability == nil
}

func checkStep(sc *Scenario, s *Step, where string, at func(string, string, ...any)) {
	kinds := s.kinds()
	switch {
	case len(kinds) == 0:
		at(where, "the step does nothing: give one of install, emit, call, advanceClock, setClock, wait, expectRequest, expectNoRequest, expectWebhookAck, expectWebhookRejected, expectBackoff, expectReport")
		return
	case len(kinds) > 1:
		at(where, "the step has %d kinds (%s); give exactly one per step", len(kinds), strings.Join(kinds, ", "))
		return
	}
	addonName, addonEshop := "", 0
	if sc.Addon != nil {
		addonName, addonEshop = sc.Addon.Name, sc.Addon.Eshop
	}
	switch {
	case s.Install != nil:
		if s.Install.Addon == "" && addonName == "" {
			at(where+"/install", "which add-on? give install.addon or the scenario's addon.name")
		}
		if s.Install.Eshop == 0 && addonEshop == 0 {
			at(where+"/install", "which e-shop? give install.eshop or the scenario's addon.eshop")
		}
	case s.Emit != nil:
		if s.Emit.Eshop == 0 && addonEshop == 0 {
			at(where+"/emit", "which e-shop? give emit.eshop or the scenario's addon.eshop")
		}
	case s.Call != nil:
		if s.Call.Eshop == 0 && s.Call.Token == "" && addonEshop == 0 {
			at(where+"/call", "which e-shop's administration calls? give call.eshop, call.token or the scenario's addon.eshop")
		}
		if !strings.HasPrefix(s.Call.Path, "/") {
			at(where+"/call/path", "path %q must start with /", s.Call.Path)
		}
	case s.SetClock != "":
		if _, err := sandbox.ParseTime(s.SetClock); err != nil {
			at(where+"/setClock", "%q is not a time such as 2025-06-01T09:00:00Z", s.SetClock)
		}
	case s.ExpectReport != nil:
		if s.ExpectReport.Empty && len(s.ExpectReport.Rules) > 0 {
			at(where+"/expectReport", "empty and rules contradict each other; keep one")
		}
	}
}

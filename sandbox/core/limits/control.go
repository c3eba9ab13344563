package limits

import (
	"net/http"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Routes are the limits' control-plane endpoints: GET/PATCH
// /_sandbox/limits, POST /_sandbox/maintenance, POST /_sandbox/deprecations.
func (l *Limiter) Routes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.limits.get", Method: http.MethodGet, Summary: "The limits in force: connections per token and IP, rate bucket, write lock", Path: "/_sandbox/limits", Handler: l.getLimits, Answer: LimitsView{}},
		{Operation: "sandbox.limits.set", Method: http.MethodPatch, Summary: "Change limits, e.g. {\"perToken\":5,\"bucketCapacity\":20,\"bucketLeak\":\"1s\"}", Path: "/_sandbox/limits", Handler: l.setLimits, Answer: LimitsView{}, Body: LimitsBody{}},
		{Operation: "sandbox.maintenance", Method: http.MethodPost, Summary: "Start or end maintenance (503), e.g. {\"on\":true,\"for\":\"10m\"}", Path: "/_sandbox/maintenance", Handler: l.setMaintenance, Answer: map[string]any{"on": api.Doc(false, "Whether maintenance is on; when on, until and message say more.")}, Body: MaintenanceBody{}},
		{Operation: "sandbox.maintenance.get", Method: http.MethodGet, Summary: "Whether maintenance is on, until when, and its message", Path: "/_sandbox/maintenance", Handler: l.getMaintenance, Answer: map[string]any{"on": api.Doc(false, "Whether maintenance is on; when on, until and message say more.")}},
		{Operation: "sandbox.deprecations", Method: http.MethodPost, Summary: "Mark an operation deprecated with a sunset date (deprecation headers)", Path: "/_sandbox/deprecations", Handler: l.setDeprecation, Answer: map[string]any{"operation": api.Doc("", "The operation marked."), "deprecated": api.Doc(false, "Whether it is now deprecated (false: the mark was removed).")}, Body: DeprecationBody{}},
	}
}

// LimitsBody is the body of PATCH /_sandbox/limits; absent fields keep
// their value.
type LimitsBody struct {
	Off              *bool   `json:"off,omitempty" doc:"Switch every limit off (true) or back on."`
	PerIP            *int    `json:"perIp,omitempty" doc:"Concurrent calls allowed per client IP."`
	PerToken         *int    `json:"perToken,omitempty" doc:"Concurrent calls allowed per token."`
	BucketCapacity   *int    `json:"bucketCapacity,omitempty" doc:"The rate bucket's capacity (calls)."`
	BucketLeak       *string `json:"bucketLeak,omitempty" doc:"How often the bucket drains one call, a duration such as 1s."`
	WriteLockTimeout *string `json:"writeLockTimeout,omitempty" doc:"How long a write lock (423) is held, a duration."`
}

// MaintenanceBody is the body of POST /_sandbox/maintenance.
type MaintenanceBody struct {
	On      bool   `json:"on" doc:"Start (true) or end (false) maintenance: every API call answers 503."`
	Message string `json:"message,omitempty" doc:"The message of the 503 answers."`
	For     string `json:"for,omitempty" doc:"How long maintenance lasts, a duration such as 10m; until ended when absent."`
}

// DeprecationBody is the body of POST /_sandbox/deprecations.
type DeprecationBody struct {
	Operation string `json:"operation" doc:"The operation to mark, e.g. GetListOfOrders."`
	Sunset    string `json:"sunset,omitempty" doc:"The sunset date-time; absent or empty removes the mark."`
}

// LimitsView is the JSON form of the limits, durations as Go strings.
type LimitsView struct {
	Off              bool   `json:"off"`              // every limit switched off
	PerIP            int    `json:"perIp"`            // concurrent calls allowed per client IP
	PerToken         int    `json:"perToken"`         // concurrent calls allowed per token
	BucketCapacity   int    `json:"bucketCapacity"`   // the rate bucket's capacity, in calls
	BucketLeak       string `json:"bucketLeak"`       // how often the bucket drains one call, a Go duration
	WriteLockTimeout string `json:"writeLockTimeout"` // how long a write lock (423) is held, a Go duration
}

func viewOf(c sandbox.Limits) LimitsView {
	return LimitsView{Off: c.Off, PerIP: c.PerIP, PerToken: c.PerToken, BucketCapacity: c.BucketCapacity,
		BucketLeak: c.BucketLeak.String(), WriteLockTimeout: c.WriteLockTimeout.String()}
}

func (l *Limiter) getLimits(*api.Request) (any, error) { return viewOf(l.Config()), nil }

func parseDuration(field, s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, sandbox.Invalid(field, "Field %s must be a duration like 250ms or 5s, not %q.", field, s)
	}
	return d, nil
}

// setLimits changes some limits: {"off":true} or {"perToken":5,"bucketLeak":"100ms"}.
func (l *Limiter) setLimits(r *api.Request) (any, error) {
	var in struct {
		Off              *bool   `json:"off"`
		PerIP            *int    `json:"perIp"`
		PerToken         *int    `json:"perToken"`
		BucketCapacity   *int    `json:"bucketCapacity"`
		BucketLeak       *string `json:"bucketLeak"`
		WriteLockTimeout *string `json:"writeLockTimeout"`
	}
	if _, err := r.Decode(&in, api.Decoding{}); err != nil {
		return nil, err
	}
	c := l.Config()
	if in.Off != nil {
		c.Off = *in.Off
	}
	for _, p := range []struct {
		name string
		in   *int
		out  *int
	}{{"perIp", in.PerIP, &c.PerIP}, {"perToken", in.PerToken, &c.PerToken}, {"bucketCapacity", in.BucketCapacity, &c.BucketCapacity}} {
		if p.in != nil {
			if *p.in < 0 {
				return nil, sandbox.Invalid(p.name, "Field %s must not be negative.", p.name)
			}
			*p.out = *p.in
		}
	}
	var err error
	if in.BucketLeak != nil {
		if c.BucketLeak, err = parseDuration("bucketLeak", *in.BucketLeak); err != nil {
			return nil, err
		}
	}
	if in.WriteLockTimeout != nil {
		if c.WriteLockTimeout, err = parseDuration("writeLockTimeout", *in.WriteLockTimeout); err != nil {
			return nil, err
		}
	}
	l.SetConfig(c)
	return viewOf(c), nil
}

// setMaintenance: {"on":true,"message":"...","for":"10m"} or {"on":false}.
func (l *Limiter) setMaintenance(r *api.Request) (any, error) {
	var in struct {
		On      bool   `json:"on"`
		Message string `json:"message"`
		For     string `json:"for"`
	}
	if _, err := r.Decode(&in, api.Decoding{}); err != nil {
		return nil, err
	}
	if !in.On {
		l.SetMaintenance(nil)
		return map[string]any{"on": false}, nil
	}
	m := &Maintenance{Message: in.Message}
	if in.For != "" {
		d, err := parseDuration("for", in.For)
		if err != nil {
			return nil, err
		}
		m.Until = l.clock.Now().Add(d)
	}
	l.SetMaintenance(m)
	return l.maintenanceView(), nil
}

func (l *Limiter) getMaintenance(*api.Request) (any, error) { return l.maintenanceView(), nil }

func (l *Limiter) maintenanceView() map[string]any {
	m := l.MaintenanceState()
	if m == nil {
		return map[string]any{"on": false}
	}
	out := map[string]any{"on": true, "message": m.Message, "until": nil}
	if !m.Until.IsZero() {
		out["until"] = sandbox.FormatTime(m.Until)
	}
	return out
}

// setDeprecation: {"operation":"GetListOfOrders","sunset":"2027-01-01T00:00:00+0000"}; no sunset removes it.
func (l *Limiter) setDeprecation(r *api.Request) (any, error) {
	var in struct {
		Operation string `json:"operation"`
		Sunset    string `json:"sunset"`
	}
	if _, err := r.Decode(&in, api.Decoding{}); err != nil {
		return nil, err
	}
	if in.Operation == "" {
		return nil, sandbox.Invalid("operation", "Field operation (an operation name such as GetListOfOrders) is required.")
	}
	var at time.Time
	if in.Sunset != "" {
		var err error
		if at, err = sandbox.ParseTime(in.Sunset); err != nil {
			return nil, sandbox.Invalid("sunset", "Field sunset must be a date-time like 2027-01-01T00:00:00+0000.")
		}
	}
	l.Deprecate(in.Operation, at)
	return map[string]any{"operation": in.Operation, "deprecated": !at.IsZero()}, nil
}

package scenario

// Fault is one scripted fault: when it applies (Match, Trigger) and what it
// does (exactly one action; Latency may accompany any call action).
type Fault struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Trigger is "auto" (the default: every call that matches) or
	// "header" (only a call naming the fault in the
	// <prefix>-Sandbox-Fault header).
	Trigger string `yaml:"trigger"`
	Match   Match  `yaml:"match"`

	Respond     *Respond     `yaml:"respond"`
	Latency     *Duration    `yaml:"latency"`
	Close       bool         `yaml:"close"`
	ExpireToken *ExpireToken `yaml:"expireToken"`
	HoldLock    *HoldLock    `yaml:"holdLock"`
	Job         *JobFault    `yaml:"job"`
	FillBucket  bool         `yaml:"fillBucket"`
	Maintenance *Maintenance `yaml:"maintenance"`
	Webhook     *WebhookSpec `yaml:"webhook"`

	Pos Pos `yaml:"-"`
	// def is the fault as written (a generic JSON value), shown by
	// GET /_sandbox/faults.
	def any
	// autoName: a runtime fault sent without a name takes its id's.
	autoName bool
}

// Trigger values.
const (
	TriggerAuto   = "auto"
	TriggerHeader = "header"
)

// Fault kinds, as telemetry (bus.Fault.Kind), the traffic view and the
// report name them.
const (
	KindRespond            = "respond"
	KindLatency            = "latency"
	KindClose              = "close"
	KindExpireToken        = "expire-token"
	KindHoldLock           = "hold-lock"
	KindJobFail            = "job-fail"
	KindJobStall           = "job-stall"
	KindFillBucket         = "fill-bucket"
	KindMaintenance        = "maintenance"
	KindWebhookSignature   = "webhook-bad-signature"
	KindWebhookDuplicate   = "webhook-duplicate"
	KindWebhookOutOfOrder  = "webhook-out-of-order"
	KindWebhookDelay       = "webhook-delay"
	webhookFaultBadSig     = "bad-signature"
	webhookFaultDuplicate  = "duplicate"
	webhookFaultOutOfOrder = "out-of-order"
	webhookFaultDelay      = "delay"
	jobOutcomeFail         = "fail"
	jobOutcomeStall        = "stall"
)

// Kind names the fault's action.
func (f *Fault) Kind() string {
	switch {
	case f.Respond != nil:
		return KindRespond
	case f.Close:
		return KindClose
	case f.ExpireToken != nil:
		return KindExpireToken
	case f.HoldLock != nil:
		return KindHoldLock
	case f.Job != nil && f.Job.Outcome == jobOutcomeStall:
		return KindJobStall
	case f.Job != nil:
		return KindJobFail
	case f.FillBucket:
		return KindFillBucket
	case f.Maintenance != nil:
		return KindMaintenance
	case f.Webhook != nil:
		switch f.Webhook.Fault {
		case webhookFaultBadSig:
			return KindWebhookSignature
		case webhookFaultDuplicate:
			return KindWebhookDuplicate
		case webhookFaultOutOfOrder:
			return KindWebhookOutOfOrder
		default:
			return KindWebhookDelay
		}
	case f.Latency != nil:
		return KindLatency
	}
	return ""
}

// actions lists the action fields that are set, for the "exactly one"
// check (latency is a modifier unless alone).
func (f *Fault) actions() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(f.Respond != nil, "respond")
	add(f.Close, "close")
	add(f.ExpireToken != nil, "expireToken")
	add(f.HoldLock != nil, "holdLock")
	add(f.Job != nil, "job")
	add(f.FillBucket, "fillBucket")
	add(f.Maintenance != nil, "maintenance")
	add(f.Webhook != nil, "webhook")
	return out
}

// IsWebhook reports whether the fault acts on webhook deliveries to the
// add-on rather than on calls to the sandbox.
func (f *Fault) IsWebhook() bool { return f.Webhook != nil }

// Match selects the calls (or, for webhook faults, the deliveries) a fault
// applies to. Every condition that is set must hold.
type Match struct {
	Method string `yaml:"method"`
	// Path is a URL path without query; "*" matches one segment and a
	// trailing "/**" any rest ("/api/orders/*", "/api/**").
	Path string `yaml:"path"`
	// Operation is the route name from the reference (GetListOfOrders).
	Operation string `yaml:"operation"`
	Eshop     int    `yaml:"eshop"`
	Token     string `yaml:"token"`
	// TokenKind is private or addon (by the header the token came in).
	TokenKind string `yaml:"tokenKind"`
	// Addon is the add-on whose API token made the call (example-addon).
	Addon string `yaml:"addon"`
	// Header requires request headers with these exact values ("*": any
	// value, but present).
	Header map[string]string `yaml:"header"`
	// Event selects webhook deliveries by event kind (order:create).
	Event string `yaml:"event"`
	// Nth applies the fault only to the nth matching call (1 = first).
	Nth int `yaml:"nth"`
	// Times applies the fault to at most this many matching calls.
	Times int `yaml:"times"`
	// Probability applies the fault to a matching call with this chance,
	// drawn from a generator seeded with Seed (the scenario's seed when 0),
	// so the same file picks the same calls every run.
	Probability *float64 `yaml:"probability"`
	Seed        uint64   `yaml:"seed"`
}

// Respond answers the call with an error envelope instead of serving it.
type Respond struct {
	Status int `yaml:"status"`
	// ErrorCode, Message and Instance default per status (401
	// expired-token, 403 invalid-token-no-rights, ...).
	ErrorCode string `yaml:"errorCode"`
	Message   string `yaml:"message"`
	Instance  string `yaml:"instance"`
	// RetryAfter, with status 429 only, fills the caller's rate bucket
	// for this long: the answer is the full bucket's 429
	// (rate-limit-exceeded, Retry-After this far ahead on the sandbox
	// clock, the bucket header full), and so is every call until then.
	// The service sends Retry-After only with a full bucket, so no other
	// status takes it; a 429 without it is too-many-connections.
	RetryAfter *Duration `yaml:"retryAfter"`
}

// ExpireToken lets a token work for After matching calls; then it expires
// in the store, so every later call with it answers 401 expired-token.
type ExpireToken struct {
	After int `yaml:"after"`
}

// HoldLock holds the write lock of the call's URL for For (on the sandbox
// clock), as if an identical request were being processed: the call and
// identical ones until then answer 423.
type HoldLock struct {
	For Duration `yaml:"for"`
}

// JobFault acts on the job the matching asynchronous call queues: "fail"
// ends it failed (job:finished is sent), "stall" leaves it running until
// the 3-hour automatic failure (job:finished is not sent).
type JobFault struct {
	Outcome string `yaml:"outcome"`
}

// Maintenance opens a maintenance window of For on the sandbox clock:
// this call and every API call until then answer 503.
type Maintenance struct {
	For     Duration `yaml:"for"`
	Message string   `yaml:"message"`
}

// WebhookSpec breaks deliveries to the add-on: "bad-signature" signs with
// a wrong key, "duplicate" delivers twice, "out-of-order" holds the
// delivery back until the next one for the same e-shop went out, "delay"
// holds it for Delay (wall time).
type WebhookSpec struct {
	Fault string   `yaml:"fault"`
	Delay Duration `yaml:"delay"`
}

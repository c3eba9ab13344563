package scenario

import "encoding/json"

// Step is one step of a scenario: exactly one of the kinds is set.
// Action steps (install, emit, call, advanceClock, setClock, wait) drive
// the sandbox; expectation steps look at what the add-on did since the
// last action step started.
type Step struct {
	Name string `yaml:"name"`

	Install      *InstallStep `yaml:"install"`
	Emit         *EmitStep    `yaml:"emit"`
	Call         *CallStep    `yaml:"call"`
	AdvanceClock *Duration    `yaml:"advanceClock"`
	SetClock     string       `yaml:"setClock"`
	Wait         *Duration    `yaml:"wait"`

	ExpectRequest         *ExpectRequest `yaml:"expectRequest"`
	ExpectNoRequest       *ExpectRequest `yaml:"expectNoRequest"`
	ExpectWebhookAck      *ExpectWebhook `yaml:"expectWebhookAck"`
	ExpectWebhookRejected *ExpectWebhook `yaml:"expectWebhookRejected"`
	ExpectBackoff         *ExpectBackoff `yaml:"expectBackoff"`
	ExpectReport          *ExpectReport  `yaml:"expectReport"`

	Pos Pos `yaml:"-"`
}

// Step kinds, as the report and the JUnit output name them.
const (
	StepInstall               = "install"
	StepEmit                  = "emit"
	StepCall                  = "call"
	StepAdvanceClock          = "advanceClock"
	StepSetClock              = "setClock"
	StepWait                  = "wait"
	StepExpectRequest         = "expectRequest"
	StepExpectNoRequest       = "expectNoRequest"
	StepExpectWebhookAck      = "expectWebhookAck"
	StepExpectWebhookRejected = "expectWebhookRejected"
	StepExpectBackoff         = "expectBackoff"
	StepExpectReport          = "expectReport"
)

// kinds lists the kinds that are set, for the "exactly one" check.
func (s *Step) kinds() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(s.Install != nil, StepInstall)
	add(s.Emit != nil, StepEmit)
	add(s.Call != nil, StepCall)
	add(s.AdvanceClock != nil, StepAdvanceClock)
	add(s.SetClock != "", StepSetClock)
	add(s.Wait != nil, StepWait)
	add(s.ExpectRequest != nil, StepExpectRequest)
	add(s.ExpectNoRequest != nil, StepExpectNoRequest)
	add(s.ExpectWebhookAck != nil, StepExpectWebhookAck)
	add(s.ExpectWebhookRejected != nil, StepExpectWebhookRejected)
	add(s.ExpectBackoff != nil, StepExpectBackoff)
	add(s.ExpectReport != nil, StepExpectReport)
	return out
}

// Kind names the step's kind ("" when none is set).
func (s *Step) Kind() string {
	if k := s.kinds(); len(k) > 0 {
		return k[0]
	}
	return ""
}

// IsAction reports whether the step drives the sandbox (and so moves the
// point from which expectations look at the add-on's traffic).
func (s *Step) IsAction() bool {
	switch s.Kind() {
	case StepInstall, StepEmit, StepCall, StepAdvanceClock, StepSetClock:
		return true
	}
	return false
}

// InstallStep installs the add-on into an e-shop: the sandbox sends the
// install request with a fresh code and judges the handshake.
type InstallStep struct {
	// Eshop and Addon default to the scenario's add-on.
	Eshop int    `yaml:"eshop"`
	Addon string `yaml:"addon"`
	// Expect is "success" (default) or "failure" (for add-ons that are
	// meant to get the handshake wrong).
	Expect string `yaml:"expect"`
}

// EmitStep emits an event for an e-shop, as if the change had happened.
type EmitStep struct {
	Eshop    int    `yaml:"eshop"`
	Event    string `yaml:"event"`
	Instance string `yaml:"instance"`
}

// CallStep calls the API as the e-shop administration (a private token of
// the e-shop that holds every right, unless Token names one).
type CallStep struct {
	Eshop  int               `yaml:"eshop"`
	Token  string            `yaml:"token"`
	Method string            `yaml:"method"`
	Path   string            `yaml:"path"`
	Header map[string]string `yaml:"header"`
	Body   any               `yaml:"body"`
	Expect *CallExpect       `yaml:"expect"`
}

// CallExpect checks the answer of a call step.
type CallExpect struct {
	Status int `yaml:"status"`
	// Body is a subset the answer's JSON body must contain.
	Body any `yaml:"body"`
}

// ExpectRequest waits Within (wall time) for a call of the add-on that
// matches, then checks its headers and body; as expectNoRequest it
// passes only when no such call comes within the time.
type ExpectRequest struct {
	Match  Match    `yaml:"match"`
	Within Duration `yaml:"within"`
	// Header requires these request header values ("*": present).
	Header map[string]string `yaml:"header"`
	// Body is a subset the request's JSON body must contain.
	Body any `yaml:"body"`
	// Status, when set, is the status the sandbox must have answered.
	Status int `yaml:"status"`
	// Path, when set, is the path (glob, as in match) the matched call
	// must have: with match.nth it checks the order of calls.
	Path string `yaml:"path"`
}

// ExpectWebhook waits Within for a delivery of Event to the add-on and
// checks its answer: acknowledged (2xx) or rejected (not 2xx).
type ExpectWebhook struct {
	Event    string   `yaml:"event"`
	Eshop    int      `yaml:"eshop"`
	Instance string   `yaml:"instance"`
	Within   Duration `yaml:"within"`
}

// ExpectBackoff waits Within for the add-on to receive a 429 with
// Retry-After (a full rate bucket, the only answer that carries one) on a
// matching call and to retry it; the retry must come no earlier than
// Retry-After said.
type ExpectBackoff struct {
	Match  Match    `yaml:"match"`
	Within Duration `yaml:"within"`
}

// ExpectReport checks the contract report: Rules must all be listed (the
// scenario provokes them on purpose), or with Empty nothing may be.
type ExpectReport struct {
	Rules []string `yaml:"rules"`
	Empty bool     `yaml:"empty"`
}

// BodyJSON returns a YAML body as JSON bytes (nil when there is none).
func BodyJSON(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(jsonable(v))
}

// jsonable turns YAML-decoded values (map[string]any with any keys) into
// values encoding/json accepts.
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonable(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[toString(k)] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonable(x)
		}
		return out
	}
	return v
}

package scenario

import (
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Scenario is one parsed scenario file: the sandbox to start, the add-on
// under test, the faults to apply while serving and the steps to run.
type Scenario struct {
	// File is where the scenario was read from ("" for in-memory input);
	// relative paths in the file (fixtures, the add-on's dir) resolve
	// against its folder.
	File string `yaml:"-"`
	// Source is the file's content as read, so a sandbox can be started
	// with exactly these faults (sandbox.Config.Scenario).
	Source []byte `yaml:"-"`

	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// Strict fails the scenario when the contract report lists anything.
	Strict bool `yaml:"strict"`
	// Seed makes ids, tokens and probabilistic faults reproducible; 0
	// means 1, so every run of a file is the same.
	Seed uint64 `yaml:"seed"`
	// Clock sets where the sandbox's clock starts and whether it runs.
	Clock *ClockSpec `yaml:"clock"`
	// Sandbox shapes the run's sandbox: the header word, the fixtures and
	// the limits. After Parse it is never nil and holds the top-level
	// fixtures and limits too (the older spelling, still read).
	Sandbox *SandboxSpec `yaml:"sandbox"`
	// Fixtures and Limits are the older, top-level spelling of
	// sandbox.fixtures and sandbox.limits; Parse moves them into Sandbox.
	Fixtures string      `yaml:"fixtures"`
	Limits   *LimitsSpec `yaml:"limits"`
	// Addon is the add-on under test.
	Addon  *Addon  `yaml:"addon"`
	Faults []Fault `yaml:"faults"`
	Steps  []Step  `yaml:"steps"`

	vars   []VarUse   // every ${NAME} the runner expands (Vars)
	addons []addonUse // every add-on the scenario names (CheckAddons)
}

// SandboxSpec is what shapes the sandbox a scenario runs on, so a CI job
// writes it once in the file instead of on every command line.
type SandboxSpec struct {
	// HeaderPrefix is the brand word in header names and the media type
	// (<word>-Access-Token, application/vnd.<word>.v1.0), for an add-on
	// built on a client library that hard-codes its platform's word. ""
	// keeps the default (Service); `sandbox test --header-prefix` wins.
	HeaderPrefix string `yaml:"headerPrefix"`
	// Fixtures is "embedded" (the default set) or a folder, relative to
	// the scenario file.
	Fixtures string `yaml:"fixtures"`
	// Limits overrides the spec's limits for this scenario.
	Limits *LimitsSpec `yaml:"limits"`
}

// ClockSpec controls the sandbox clock of a run. Without it the clock
// follows the wall clock (so the add-on and the sandbox agree on what
// Retry-After means) and only steps move it.
type ClockSpec struct {
	// Start is an RFC 3339 or service-format time the clock starts at.
	Start string `yaml:"start"`
	// Frozen stops the clock; only steps move it.
	Frozen bool `yaml:"frozen"`

	start time.Time
}

// StartTime is the parsed Start (zero when unset).
func (c *ClockSpec) StartTime() time.Time {
	if c == nil {
		return time.Time{}
	}
	return c.start
}

// LimitsSpec overrides some of the spec's limits; unset fields keep the
// defaults.
type LimitsSpec struct {
	Off              *bool     `yaml:"off"`
	PerIP            *int      `yaml:"perIp"`
	PerToken         *int      `yaml:"perToken"`
	BucketCapacity   *int      `yaml:"bucketCapacity"`
	BucketLeak       *Duration `yaml:"bucketLeak"`
	WriteLockTimeout *Duration `yaml:"writeLockTimeout"`
}

// Apply returns the default limits changed as the spec asks.
func (l *LimitsSpec) Apply(base sandbox.Limits) sandbox.Limits {
	if l == nil {
		return base
	}
	if l.Off != nil {
		base.Off = *l.Off
	}
	if l.PerIP != nil {
		base.PerIP = *l.PerIP
	}
	if l.PerToken != nil {
		base.PerToken = *l.PerToken
	}
	if l.BucketCapacity != nil {
		base.BucketCapacity = *l.BucketCapacity
	}
	if l.BucketLeak != nil {
		base.BucketLeak = l.BucketLeak.D()
	}
	if l.WriteLockTimeout != nil {
		base.WriteLockTimeout = l.WriteLockTimeout.D()
	}
	return base
}

// Addon is the add-on under test: which configured add-on it is (one of
// the fixtures', or one the scenario defines), where it listens, and
// optionally the command that starts it.
type Addon struct {
	// Name is the add-on's name: one of the fixtures (example-addon), or
	// a new one this section defines with installUrl or url.
	Name string `yaml:"name"`
	// Eshop is the e-shop the add-on is tested against.
	Eshop int `yaml:"eshop"`
	// URL is the add-on's base URL; the install, redirect and webhook URLs
	// of the add-on's record are pointed at it (InstallPath, WebhookPath).
	// ${VAR} placeholders are expanded (see the runner's variables).
	URL         string `yaml:"url"`
	InstallPath string `yaml:"installPath"`
	WebhookPath string `yaml:"webhookPath"`
	// InstallURL and WebhookURL name the add-on's install and webhook URLs
	// outright (instead of url with installPath and webhookPath).
	InstallURL string `yaml:"installUrl"`
	WebhookURL string `yaml:"webhookUrl"`
	// Endpoints are the endpoints the add-on may call, approved: "all" or
	// a list of operation names (or "METHOD /path"). An add-on the
	// scenario defines gets every endpoint when it names none; a
	// fixtures' add-on keeps its own.
	Endpoints *EndpointSet `yaml:"endpoints"`
	// ClientID and ClientSecret fix the add-on's OAuth credentials (an
	// add-on the scenario defines gets generated ones otherwise).
	ClientID     string `yaml:"clientId"`
	ClientSecret string `yaml:"clientSecret"`
	// Ready is a path the runner polls (GET, 2xx) before the first step.
	Ready string `yaml:"ready"`
	// Command starts the add-on (argv, placeholders expanded); the runner
	// stops it at the end of the scenario.
	Command []string          `yaml:"command"`
	Dir     string            `yaml:"dir"`
	Env     map[string]string `yaml:"env"`
	// StartTimeout bounds the wait for Ready (default 30s).
	StartTimeout Duration `yaml:"startTimeout"`
}

// Pos is a position in a scenario file, for messages.
type Pos struct {
	Line   int `yaml:"-" json:"line"`
	Column int `yaml:"-" json:"column"`
}

// EndpointSet is the addon section's endpoints: "all", or a list.
type EndpointSet struct {
	All   bool
	Names []string
}

// UnmarshalYAML reads "all" or a list of names.
func (e *EndpointSet) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Value != "all" {
			return typeError(n, `endpoints is "all" or a list of operation names, not %q`, n.Value)
		}
		e.All = true
		return nil
	}
	return n.Decode(&e.Names)
}

// Body is the endpoints as the control plane takes them ("all" or the
// list).
func (e *EndpointSet) Body() any {
	if e.All {
		return "all"
	}
	return e.Names
}

// Defines reports whether the section defines the add-on rather than
// only naming one of the fixtures: it says where the add-on is installed.
func (a *Addon) Defines() bool { return a != nil && (a.InstallURL != "" || a.URL != "") }

package certify

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Options say which add-on to certify and how.
type Options struct {
	// Addon is the add-on's name. One of the fixtures' (example-addon)
	// keeps its client credentials unless ClientID and ClientSecret are
	// given; any other name is registered with them, or with generated
	// ones. Either way every endpoint is approved: certify judges how the
	// add-on calls, not what it was granted.
	Addon string
	// Eshop is the e-shop it is installed into (default 1001).
	Eshop int
	// InstallURL is where the e-shop sends GET <InstallURL>?code=...
	InstallURL string
	// WebhookURL receives the system events (addon:suspend, ...); default:
	// /webhooks at the install URL's origin.
	WebhookURL string
	// RedirectURI is the redirect_uri the add-on sends in the code
	// exchange; default: InstallURL.
	RedirectURI string
	// ClientID and ClientSecret fix the add-on's OAuth credentials.
	ClientID, ClientSecret string
	// Command, when set, starts the add-on (run by /bin/sh -c, in its own
	// process group, stopped at the end). Its environment holds what it
	// needs to know: SANDBOX_URL, SANDBOX_ESHOP, SANDBOX_ESHOP_URL,
	// SANDBOX_OAUTH_URL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET,
	// SANDBOX_ADDON, SANDBOX_HEADER_PREFIX, ADDON_URL and ADDON_PORT.
	// Without it, the add-on must already run and find the sandbox at Addr.
	Command string
	// Dir is the command's folder ("" for the current one).
	Dir string
	// Triggers are the events that make the add-on call the API, emitted
	// in each round (EVENT or EVENT=INSTANCE; see ParseTrigger).
	Triggers []Trigger
	// Addr is where the run's sandbox listens (default 127.0.0.1:0).
	Addr string
	// HeaderPrefix is the brand word of the run's sandbox: its header
	// names (<word>-Access-Token, <word>-Webhook-Signature) and media type
	// (application/vnd.<word>.v1.0), as `sandbox up --header-prefix` sets
	// them; an add-on built on a client library that hard-codes its word
	// is certified unchanged with that word. Default: Service.
	HeaderPrefix string
	// Timing tunes the waits; zero fields take DefaultTiming's.
	Timing Timing
	// Log receives the sandbox's warnings and errors (nil: discarded).
	Log io.Writer
	// Progress, when set, gets a line as each phase begins.
	Progress io.Writer
	// Version is the build's version, for the sandbox.
	Version string
	// ChaosRate is the share of the add-on's API calls that get a platform
	// fault besides the rounds' own (--chaos; 0 for none), drawn with
	// ChaosSeed; the card then says how the add-on coped.
	ChaosRate float64
	ChaosSeed uint64
}

// Timing holds the waits of a run. Tests shorten them; the defaults suit
// an add-on on a developer's machine.
type Timing struct {
	// Start bounds the wait for the add-on to accept connections.
	Start time.Duration
	// Webhook is how soon a delivery must be answered.
	Webhook time.Duration
	// Quiet: the add-on counts as done with a stimulus once it made no
	// call for this long.
	Quiet time.Duration
	// Settle bounds the wait for the add-on to finish a stimulus (and for
	// the retry a round waits for).
	Settle time.Duration
	// RetryAfter is the wait the 429 and 423 answers ask for (rounded up
	// to whole seconds: Retry-After is an HTTP date).
	RetryAfter time.Duration
	// Maintenance is the length of the maintenance window.
	Maintenance time.Duration
	// Latency slows the add-on's calls in the burst round, so that
	// parallel calls overlap.
	Latency time.Duration
	// Burst is how many trigger events the burst round emits at once.
	Burst int
	// Stop is how long the add-on has to end after SIGTERM before it is
	// killed.
	Stop time.Duration
}

// DefaultTiming is the timing of `sandbox certify`.
var DefaultTiming = Timing{Start: 30 * time.Second, Webhook: 5 * time.Second, Quiet: 500 * time.Millisecond,
	Settle: 10 * time.Second, RetryAfter: time.Second, Maintenance: 2 * time.Second, Latency: 300 * time.Millisecond,
	Burst: 6, Stop: 5 * time.Second}

func (t Timing) withDefaults() Timing {
	d := DefaultTiming
	pick := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&t.Start, d.Start)
	pick(&t.Webhook, d.Webhook)
	pick(&t.Quiet, d.Quiet)
	pick(&t.Settle, d.Settle)
	pick(&t.RetryAfter, d.RetryAfter)
	pick(&t.Maintenance, d.Maintenance)
	pick(&t.Latency, d.Latency)
	pick(&t.Stop, d.Stop)
	if t.Burst <= 0 {
		t.Burst = d.Burst
	}
	return t
}

// Trigger is an event certify emits to make the add-on call the API.
type Trigger struct {
	Event    string
	Instance string // "" : taken from the e-shop's data (see instances.go)
}

// String is the trigger as written on the command line.
func (t Trigger) String() string {
	if t.Instance == "" {
		return t.Event
	}
	return t.Event + "=" + t.Instance
}

// ParseTrigger reads EVENT or EVENT=INSTANCE (order:create,
// order:create=2025000001).
func ParseTrigger(s string) (Trigger, error) {
	ev, inst, _ := strings.Cut(strings.TrimSpace(s), "=")
	if !strings.Contains(ev, ":") || strings.ContainsAny(ev, " \t") {
		return Trigger{}, fmt.Errorf("--trigger %q: give an event of the webhook catalogue, e.g. order:create or order:create=2025000001", s)
	}
	return Trigger{Event: ev, Instance: inst}, nil
}

// check validates the options and fills the defaults.
func (o *Options) check() error {
	if o.Addon == "" || strings.ContainsAny(o.Addon, ":*? /") {
		return fmt.Errorf("name the add-on (no spaces, '/', ':', '*' or '?'): got %q", o.Addon)
	}
	if o.Eshop == 0 {
		o.Eshop = 1001
	}
	u, err := url.Parse(o.InstallURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("the install URL %q is not an http(s) URL such as http://127.0.0.1:9090/install", o.InstallURL)
	}
	if o.WebhookURL == "" {
		o.WebhookURL = u.Scheme + "://" + u.Host + "/webhooks"
	}
	if o.RedirectURI == "" {
		o.RedirectURI = o.InstallURL
	}
	if (o.ClientID == "") != (o.ClientSecret == "") {
		return fmt.Errorf("give the client id and secret together, or neither")
	}
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.HeaderPrefix == "" {
		o.HeaderPrefix = sandbox.DefaultHeaderPrefix
	}
	if !validPrefix(o.HeaderPrefix) {
		return fmt.Errorf("the header prefix %q is not a word of letters, digits and '-' (such as Acme)", o.HeaderPrefix)
	}
	o.Timing = o.Timing.withDefaults()
	return nil
}

// validPrefix: the word makes valid header names and a media type.
func validPrefix(p string) bool {
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return p != "" && p[0] != '-' && p[len(p)-1] != '-'
}

// addonHost is the host:port of the install URL (port filled in).
func (o *Options) addonHost() string {
	u, _ := url.Parse(o.InstallURL)
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

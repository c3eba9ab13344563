package sandbox

import (
	"fmt"
	"io/fs"
	"net/textproto"
	"strings"
	"time"
)

// Config is everything `sandbox up` (and tests) can set. CLI flags bind
// straight into it; sandbox/app turns it into a running sandbox.
type Config struct {
	Addr         string  // listen address, 127.0.0.1:8080 by default
	DataFile     string  // BuntDB file; empty means in-memory
	Sync         string  // data file sync policy: always, every-second (default), never
	Fixtures     fs.FS   // seed data; nil means the embedded default set
	FixturesName string  // where Fixtures came from, for messages
	Headless     bool    // no terminal UI
	HeaderPrefix string  // brand word used in headers and media types
	Seed         uint64  // id generator seed; 0 means random
	Clock        *Clock  // nil means a wall clock
	PublicURL    string  // base URL clients reach the sandbox at (a container port, a proxy); derived from the listener when empty; its host is allowed in Host
	Limits       *Limits // nil means DefaultLimits()
	// AllowDownload names the loopback addresses (host:port) that
	// sourceUrl and batch-file downloads may reach; other addresses of
	// this machine are refused (`sandbox up --allow-download`).
	AllowDownload []string
	// PackAbove is the size in bytes of a seeded collection's records
	// from which an in-memory sandbox holds it packed (compressed, see
	// store.Compact); 0 means store.DefaultPackAbove, negative never.
	PackAbove int64
	// TrafficHistory is how many calls, and how many webhook attempts, the
	// traffic tap keeps for the terminal UI, the stream and the HAR
	// export; 0 means 1000.
	TrafficHistory int

	// Webhook delivery; zero values take the Default* below.
	WebhookAttempts int           // attempts per notification, the first included
	WebhookBackoff  time.Duration // delay after the first failed attempt; doubles after each further one (sandbox clock)
	WebhookTimeout  time.Duration // how long one attempt waits for the receiver (wall time)

	// Connection timeouts; zero values take the Default* below.
	BodyTimeout time.Duration // how long a request body may take to arrive (408 after)
	IdleTimeout time.Duration // how long an idle keep-alive connection is kept open

	// PaymentStatusWithin is how long (sandbox clock) the contract report
	// gives an add-on, after it stored a payment result, to set the order
	// status the e-shop maps that result to (and, after it marked an order
	// paid online, to store the paid result); 0 means
	// DefaultPaymentStatusWithin.
	PaymentStatusWithin time.Duration

	// Scenario is a scenario file's content (YAML) whose faults apply while
	// serving (`sandbox up --scenario`, `sandbox test`); nil for none.
	// ScenarioName names it in messages (the file path).
	Scenario     []byte
	ScenarioName string
	// ChaosRate is the share of the add-on's API calls that get a platform
	// fault (`--chaos`, 0 for none); ChaosSeed seeds the draw (0: Seed).
	ChaosRate float64
	ChaosSeed uint64
	// Version is the build's version (main.version, stamped by the linker); "dev" when unknown.
	Version string
}

// Webhook delivery defaults: 8 attempts spread over about 21 minutes of
// sandbox time (10 s, 20 s, 40 s, ... 640 s), 10 s for a receiver to answer.
const (
	DefaultWebhookAttempts = 8
	DefaultWebhookBackoff  = 10 * time.Second
	DefaultWebhookTimeout  = 10 * time.Second
)

// DefaultPaymentStatusWithin is the contract report's default time
// between the two calls of payment flow step 6 (the payment result and
// the order status). An add-on makes both while the buyer waits on its
// gateway, so a minute is generous.
const DefaultPaymentStatusWithin = time.Minute

// Connection defaults: a stalled body or an idle keep-alive connection
// never holds a connection (and a file descriptor) for long.
const (
	DefaultBodyTimeout   = 30 * time.Second
	DefaultIdleTimeout   = 120 * time.Second
	DefaultHeaderTimeout = 10 * time.Second
)

// DefaultAddr is where `sandbox up` listens unless told otherwise: loopback
// only, so a developer's sandbox is never reachable from the network.
const DefaultAddr = "127.0.0.1:8080"

// DefaultHeaderPrefix is the neutral brand word used in header names.
const DefaultHeaderPrefix = "Service"

// Headers holds every brand-bearing header name and media type, derived
// from one prefix so a client built for the real service works against the
// sandbox by changing a single flag.
type Headers struct {
	AccessToken     string // add-on API token header
	PrivateToken    string // private API token header
	Deprecated      string // X-<Prefix>-Deprecated
	WebhookSig      string // webhook signature header
	SandboxFault    string // header naming a scenario fault for one call
	VendorMediaType string // application/vnd.<prefix>.v1.0
	VendorResponse  string // application/vnd.<prefix>.v1.0+json
	// The token headers as net/http keys them (canonical MIME form,
	// "Service-Private-Api-Token"), for reading them without
	// canonicalising the name on every request.
	AccessTokenKey  string
	PrivateTokenKey string
}

// CheckHeaderPrefix says why a brand word cannot stand in header names
// and the media type: it must be a word of ASCII letters and digits
// (hyphens inside), as every platform's brand word is.
func CheckHeaderPrefix(p string) error {
	if p == "" {
		return fmt.Errorf("the header word is empty; give a word such as %s", DefaultHeaderPrefix)
	}
	for i, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '-' && i > 0 && i < len(p)-1:
		default:
			return fmt.Errorf("header word %q: use letters and digits only (it becomes %q and %q)", p, p+"-Access-Token", "application/vnd."+strings.ToLower(p)+".v1.0")
		}
	}
	if len(p) > 40 {
		return fmt.Errorf("header word %q: at most 40 characters", p)
	}
	return nil
}

// NewHeaders derives the header names from a brand prefix.
func NewHeaders(prefix string) Headers {
	if prefix == "" {
		prefix = DefaultHeaderPrefix
	}
	lower := strings.ToLower(prefix)
	return Headers{
		AccessToken:     prefix + "-Access-Token",
		PrivateToken:    prefix + "-Private-API-Token",
		Deprecated:      "X-" + prefix + "-Deprecated",
		WebhookSig:      prefix + "-Webhook-Signature",
		SandboxFault:    prefix + "-Sandbox-Fault",
		VendorMediaType: "application/vnd." + lower + ".v1.0",
		VendorResponse:  "application/vnd." + lower + ".v1.0+json",
		AccessTokenKey:  textproto.CanonicalMIMEHeaderKey(prefix + "-Access-Token"),
		PrivateTokenKey: textproto.CanonicalMIMEHeaderKey(prefix + "-Private-API-Token"),
	}
}

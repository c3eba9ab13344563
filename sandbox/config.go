package sandbox

import (
	"io/fs"
	"strings"
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
	PublicURL    string  // base URL advertised to clients; derived from the listener when empty
	Limits       *Limits // nil means DefaultLimits()
}

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
	}
}

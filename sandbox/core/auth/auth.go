// Package auth holds the rules of the two access modes: who a token
// belongs to, whether it is still valid, and which endpoints it may call.
// The HTTP middleware in sandbox/core/api asks it; the records themselves live
// in the store (global collection "tokens", per-e-shop collection "addons").
package auth

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Token kinds.
const (
	KindPrivate = "private" // created by the e-shop owner; never expires
	KindAddon   = "addon"   // API access token of an installed add-on
)

// Access levels a private token holds per endpoint group.
const (
	Read  = "read"
	Write = "write"
	Both  = "both"
)

// Collections in the store. They are unexported on purpose: auth owns
// these records, and every other package goes through records.go (see
// TestNoOtherPackageTouchesAuthRecords for string spellings).
const (
	tokensCollection = "tokens" // global: token string -> Token
	addonsCollection = "addons" // per e-shop: add-on name -> Addon
)

// Token is a stored API token, private or add-on.
type Token struct {
	Token     string            `json:"token"`
	EshopID   int               `json:"eshopId"`
	Kind      string            `json:"kind"`
	Name      string            `json:"name,omitempty"`
	AllGroups bool              `json:"allGroups,omitempty"` // private token holding every group (the default for new tokens)
	Rights    map[string]string `json:"rights,omitempty"`    // private: group -> read|write|both
	Addon     string            `json:"addon,omitempty"`     // add-on tokens: the add-on's name
	ExpiresAt *time.Time        `json:"expiresAt,omitempty"` // add-on tokens: expiry on the sandbox clock
	// RetainedUntil is when the store drops the record (an expired API
	// token is kept a while to answer expired-token); zero: kept for good.
	RetainedUntil time.Time `json:"-"`
}

// Expired reports whether an add-on token is past its expiry at now.
func (t *Token) Expired(now time.Time) bool {
	return t.ExpiresAt != nil && !now.Before(*t.ExpiresAt)
}

// EndpointGrant is one endpoint an add-on asked for and its approval state.
type EndpointGrant struct {
	Endpoint string `json:"endpoint"`         // operation name, e.g. GetListOfOrders
	Approved bool   `json:"approved"`         // false while the e-shop has not approved it yet
	Action   string `json:"action,omitempty"` // pending change: add, edit or delete
}

// Addon is an add-on configured in one e-shop.
type Addon struct {
	Name         string          `json:"name"`                 // the add-on's name in the e-shop (its path segment in the control plane)
	ClientID     string          `json:"clientId"`             // the OAuth client id the add-on sends in the code exchange
	ClientSecret string          `json:"clientSecret"`         // the OAuth client secret the add-on sends in the code exchange
	InstallURL   string          `json:"installUrl"`           // where the e-shop sends the install request (?code=...)
	RedirectURI  string          `json:"redirectUri"`          // the redirect_uri the code exchange must name (the install URL unless set)
	WebhookURL   string          `json:"webhookUrl,omitempty"` // where the add-on's system events (addon:*) are delivered
	Endpoints    []EndpointGrant `json:"endpoints"`            // the endpoints the add-on asked for, each approved or pending
	Status       string          `json:"status,omitempty"`     // configured, installed, suspended, terminated, uninstalled (see status.go)
	// PaymentGateway is a payment add-on's gateway address template (spec:
	// payment flow step 1) with #LANGUAGE#, #ESHOP_ID# or #ESHOP_URL# and
	// #PAYMENT_CODE#; sandbox/shop/payments fills it in.
	PaymentGateway string `json:"paymentGatewayUrl,omitempty"`
}

// Approved reports whether the add-on may call the operation.
func (a *Addon) Approved(operation string) bool {
	for _, g := range a.Endpoints {
		if g.Approved && g.Endpoint == operation {
			return true
		}
	}
	return false
}

// Principal is the caller of one request after authentication.
type Principal struct {
	Token *Token
	Addon *Addon // set for add-on tokens
}

// EshopID is the e-shop the caller acts on; a token never sees another.
func (p *Principal) EshopID() int { return p.Token.EshopID }

// Kind is private or addon.
func (p *Principal) Kind() string { return p.Token.Kind }

// Endpoint describes what a route needs, for the rights check.
type Endpoint struct {
	Operation string
	Method    string
	Group     string
}

// NeedsWrite reports whether calling the endpoint needs write access:
// every method but GET changes something.
func (e Endpoint) NeedsWrite() bool { return e.Method != "GET" }

// Allows reports whether the principal may call the endpoint. A refusal is
// the spec's 403 invalid-token-no-rights with instance access-token.
func (p *Principal) Allows(e Endpoint) error {
	ok := false
	switch p.Token.Kind {
	case KindPrivate:
		ok = GroupAllows(p.Token.AllGroups, p.Token.Rights[e.Group], e.NeedsWrite())
	case KindAddon:
		ok = p.Addon != nil && p.Addon.Approved(e.Operation)
	}
	if ok {
		return nil
	}
	what := "read"
	if e.NeedsWrite() {
		what = "write"
	}
	return sandbox.Errorf(sandbox.KindForbidden, sandbox.CodeNoRights, "access-token",
		"The token has no %s right for endpoint %s %s (group %s).", what, e.Method, e.Operation, e.Group)
}

// GroupAllows applies a private token's right for one group.
func GroupAllows(all bool, right string, write bool) bool {
	if all {
		return true
	}
	switch right {
	case Both:
		return true
	case Read:
		return !write
	case Write:
		return write
	}
	return false
}

// ParseRights reads the fixture form of private-token rights: the string
// "all", or an object mapping group names to read, write or both.
func ParseRights(raw json.RawMessage, knownGroup func(string) bool) (all bool, rights map[string]string, err error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "all" {
			return true, nil, nil
		}
		return false, nil, fmt.Errorf("rights must be \"all\" or an object of group: read|write|both, not %q", s)
	}
	if err := json.Unmarshal(raw, &rights); err != nil {
		return false, nil, fmt.Errorf("rights must be \"all\" or an object of group: read|write|both")
	}
	for g, r := range rights {
		if knownGroup != nil && !knownGroup(g) {
			return false, nil, fmt.Errorf("unknown endpoint group %q in rights", g)
		}
		switch strings.ToLower(r) {
		case Read, Write, Both:
			rights[g] = strings.ToLower(r)
		default:
			return false, nil, fmt.Errorf("right %q for group %s must be read, write or both", r, g)
		}
	}
	return false, rights, nil
}

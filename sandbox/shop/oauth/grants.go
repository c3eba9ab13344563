package oauth

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Grant is an OAuth access token: the add-on's lasting binding to one
// e-shop, used only server to server to obtain API tokens. It does not
// expire; an uninstall, a termination or a new install revokes it.
type Grant struct {
	Token         string     `json:"token"`
	EshopID       int        `json:"eshopId"`
	Addon         string     `json:"addon"`
	InstallID     string     `json:"installId,omitempty"`
	IssuedAt      time.Time  `json:"issuedAt"`
	RevokedAt     *time.Time `json:"revokedAt,omitempty"`
	RevokedReason string     `json:"revokedReason,omitempty"`
}

// grant issues the OAuth token of a successful exchange. The add-on
// counts as installed from now on (it holds the token that binds it to
// the e-shop); an earlier OAuth token of the same add-on in the same
// e-shop is revoked, since a new install replaces the old binding.
func (s *Server) grant(tx *store.Tx, c *Code, ad *auth.Addon) (*Grant, error) {
	if _, err := s.revokeGrants(tx, c.EshopID, ad.Name, "replaced by the OAuth token of a new install"); err != nil {
		return nil, err
	}
	g := &Grant{Token: "sbx_oauth_" + s.ids.Token(48), EshopID: c.EshopID, Addon: ad.Name, InstallID: c.InstallID, IssuedAt: tx.Now()}
	if err := putGrant(tx, g); err != nil {
		return nil, err
	}
	if ad.Status != auth.StatusSuspended && ad.Status != auth.StatusInstalled {
		ad.Status = auth.StatusInstalled
		if err := auth.PutAddon(tx, c.EshopID, ad); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func putGrant(tx *store.Tx, g *Grant) error {
	raw, err := json.Marshal(g)
	if err != nil {
		return err
	}
	_, err = tx.Put(store.Global, GrantsCollection, g.Token, raw)
	return err
}

func getGrant(tx *store.Tx, tok string) (*Grant, error) {
	raw, err := tx.Get(store.Global, GrantsCollection, tok)
	if err != nil {
		return nil, err
	}
	var g Grant
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, err
	}
	return &g, nil
}

// revokeGrants revokes every live OAuth token of an add-on in an e-shop.
func (s *Server) revokeGrants(tx *store.Tx, eshopID int, addon, reason string) (int, error) {
	var live []*Grant
	err := tx.Scan(store.Global, GrantsCollection, func(_ string, doc []byte) bool {
		var g Grant
		if json.Unmarshal(doc, &g) == nil && g.EshopID == eshopID && g.Addon == addon && g.RevokedAt == nil {
			live = append(live, &g)
		}
		return true
	})
	if err != nil {
		return 0, err
	}
	now := tx.Now()
	for _, g := range live {
		g.RevokedAt, g.RevokedReason = &now, reason
		if err := putGrant(tx, g); err != nil {
			return 0, err
		}
	}
	return len(live), nil
}

// APITokens returns the add-on's API tokens in an e-shop that are valid
// now, earliest expiry first.
func APITokens(tx *store.Tx, eshopID int, addon string) ([]auth.Token, error) {
	now := tx.Now()
	all, err := auth.TokensOf(tx, eshopID, addon)
	var out []auth.Token
	for _, t := range all {
		if !t.Expired(now) {
			out = append(out, t)
		}
	}
	sortByExpiry(out)
	return out, err
}

func sortByExpiry(ts []auth.Token) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && expiry(ts[j]).Before(expiry(ts[j-1])); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

func expiry(t auth.Token) time.Time {
	if t.ExpiresAt == nil {
		return time.Time{}
	}
	return *t.ExpiresAt
}

// Revoked counts what RevokeAddon took away.
type Revoked struct {
	APITokens   int `json:"apiTokens"`   // API tokens revoked
	OAuthTokens int `json:"oauthTokens"` // OAuth tokens revoked
}

// RevokeAddon ends an add-on's access to an e-shop: every API token
// (seeded ones included) and OAuth token is revoked and its unused
// install codes are dropped. Uninstall and terminate call it.
func (s *Server) RevokeAddon(tx *store.Tx, eshopID int, addon, reason string) (Revoked, error) {
	var out Revoked
	toks, err := auth.TokensOf(tx, eshopID, addon)
	if err != nil {
		return out, err
	}
	for i := range toks {
		if err := auth.RevokeToken(tx, &toks[i], reason); err != nil {
			return out, err
		}
	}
	out.APITokens = len(toks)
	if out.OAuthTokens, err = s.revokeGrants(tx, eshopID, addon, reason); err != nil {
		return out, err
	}
	return out, dropUnusedCodes(tx, eshopID, addon)
}

// lifetime is the API token lifetime in force.
func lifetime(tx *store.Tx) time.Duration {
	v, ok := tx.GetValue(lifetimeKey)
	if !ok {
		return DefaultTokenLifetime
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return DefaultTokenLifetime
	}
	return d
}

// issueAPIToken stores a new API token for the grant's add-on. It is kept
// past its expiry for expiredRetention so calls with it say expired-token.
func (s *Server) issueAPIToken(tx *store.Tx, g *Grant, d time.Duration) (*auth.Token, error) {
	exp := tx.Now().Add(d)
	t := &auth.Token{Token: "sbx_api_" + s.ids.Token(40), EshopID: g.EshopID, Kind: auth.KindAddon, Addon: g.Addon, ExpiresAt: &exp,
		RetainedUntil: exp.Add(expiredRetention)}
	if err := auth.PutToken(tx, t); err != nil {
		return nil, err
	}
	return t, nil
}

var errNoGrant = errors.New("no grant")

// liveGrant finds an OAuth token and checks it may still be used.
func liveGrant(tx *store.Tx, tok string) (*Grant, *auth.Addon, error) {
	g, err := getGrant(tx, tok)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, nil, errNoGrant
	}
	if err != nil {
		return nil, nil, err
	}
	if g.RevokedAt != nil {
		return g, nil, nil
	}
	ad, err := auth.GetAddon(tx, g.EshopID, g.Addon)
	if errors.Is(err, sandbox.ErrNotFound) {
		return g, nil, nil
	}
	return g, ad, err
}

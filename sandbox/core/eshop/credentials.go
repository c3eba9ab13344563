package eshop

import (
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Credentials is one e-shop with what may call it: the one view of "the
// e-shops with their tokens". GET /_sandbox/eshops and the /_sandbox/
// index, the traffic info (the terminal UI's status bar) and the
// `sandbox up` banner all show it, so they never disagree about which
// tokens exist. The records are auth's; this only joins them to the
// e-shops.
type Credentials struct {
	Meta
	// Tokens are the e-shop's API tokens, private and add-on, in the
	// order they were stored; an expired add-on token stays until the
	// store drops it, so it can be shown as expired.
	Tokens []auth.Token
	// Addons are the e-shop's add-ons, in the order they were configured.
	Addons []auth.Addon
	// Now is the sandbox time the view was taken at: Expired answers
	// for it.
	Now time.Time
}

// ListCredentials returns every e-shop, in List's order, with its tokens
// and add-ons. Tokens of an e-shop that does not exist are left out.
func ListCredentials(tx *store.Tx) ([]Credentials, error) {
	metas, err := List(tx)
	if err != nil {
		return nil, err
	}
	now := tx.Now()
	out := make([]Credentials, len(metas))
	index := make(map[int]int, len(metas))
	for i, m := range metas {
		index[m.ID] = i
		out[i].Meta, out[i].Now = *m, now
		err := auth.EachAddon(tx, m.ID, func(a *auth.Addon) bool {
			out[i].Addons = append(out[i].Addons, *a)
			return true
		})
		if err != nil {
			return nil, err
		}
	}
	err = auth.EachToken(tx, func(t *auth.Token) bool {
		if i, ok := index[t.EshopID]; ok {
			out[i].Tokens = append(out[i].Tokens, *t)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PrivateTokens are the e-shop's private tokens, in the order stored.
func (c *Credentials) PrivateTokens() []auth.Token {
	return c.keep(func(t auth.Token) bool { return t.Kind == auth.KindPrivate })
}

// APITokens are one add-on's API tokens in the e-shop, expired ones
// included, in the order issued.
func (c *Credentials) APITokens(addon string) []auth.Token {
	return c.keep(func(t auth.Token) bool { return t.Kind == auth.KindAddon && t.Addon == addon })
}

// Callable are the tokens a call may carry now: every private token and
// the add-on tokens that have not expired, in the order stored (whether
// the add-on's status lets it call is auth's answer at request time).
func (c *Credentials) Callable() []auth.Token {
	return c.keep(func(t auth.Token) bool {
		return t.Kind == auth.KindPrivate || (t.Kind == auth.KindAddon && !c.Expired(t))
	})
}

// Expired reports whether a token of the view had expired when the view
// was taken.
func (c *Credentials) Expired(t auth.Token) bool { return t.Expired(c.Now) }

func (c *Credentials) keep(ok func(auth.Token) bool) []auth.Token {
	var out []auth.Token
	for _, t := range c.Tokens {
		if ok(t) {
			out = append(out, t)
		}
	}
	return out
}

package auth

import (
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// maxCachedTokens bounds the principal cache; when full it starts over.
const maxCachedTokens = 1024

// principalCache remembers the principal of a token that never expires,
// for the store's write generation it was looked up at, so a read does
// not decode the token (and its add-on) on every call. Any write (a
// token revoked, an add-on suspended) makes every entry stale; tokens
// with an expiry are always looked up, their expiry follows the clock.
type principalCache struct {
	mu      sync.RWMutex
	entries map[string]cachedPrincipal
}

type cachedPrincipal struct {
	gen uint64
	p   Principal
}

func (c *principalCache) get(tok string, gen uint64) (*Principal, bool) {
	c.mu.RLock()
	e, ok := c.entries[tok]
	c.mu.RUnlock()
	if !ok || e.gen != gen {
		return nil, false
	}
	// The caller gets its own copies (it may change them), made in one
	// allocation: the principal and the records it points to together.
	if e.p.Addon == nil {
		cp := &struct {
			p Principal
			t Token
		}{t: *e.p.Token}
		cp.p.Token = &cp.t
		return &cp.p, true
	}
	cp := &struct {
		p  Principal
		t  Token
		ad Addon
	}{t: *e.p.Token, ad: *e.p.Addon}
	cp.p.Token, cp.p.Addon = &cp.t, &cp.ad
	return &cp.p, true
}

// remember keeps p when neither the token nor its stored record expires.
func (c *principalCache) remember(tx *store.Tx, tok string, gen uint64, p *Principal) {
	if p.Token.ExpiresAt != nil || p.Token.retained() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedTokens {
		c.entries = map[string]cachedPrincipal{}
	}
	t := *p.Token
	e := cachedPrincipal{gen: gen, p: Principal{Token: &t}}
	if p.Addon != nil {
		ad := *p.Addon
		e.p.Addon = &ad
	}
	c.entries[tok] = e
}

package auth

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Authenticator resolves tokens against the tokens in the store, following
// the spec's "Authentication" section. The HTTP server asks it once per
// request (sandbox/core/api resolves the call before anything else runs).
type Authenticator struct {
	Store   *store.Store
	Headers sandbox.Headers

	cache principalCache
	// watch counts the writes of the collections a principal is read
	// from: the cache keys on it (see store.Watch), so the writes of
	// other records (every order) do not send each request back to the
	// store.
	watch     *store.Watch
	watchOnce sync.Once
}

// generation is the write count of the collections a principal is made
// of: tokens, revoked tokens and add-ons.
func (a *Authenticator) generation() uint64 {
	a.watchOnce.Do(func() { a.watch = a.Store.Watch(tokensCollection, revokedCollection, addonsCollection) })
	return a.watch.Generation()
}

// Identity is what one token says about its caller.
type Identity struct {
	// Token is the stored record; nil when the token is unknown or revoked.
	// It is set for an expired token too, so the e-shop a call was meant
	// for is known even when the call is refused.
	Token *Token
	// Principal is the caller when the token may call now; nil otherwise.
	Principal *Principal
	// Err says why the token may not call (401 or 403); nil with a Principal.
	Err error
}

// Eshop is the e-shop the token belongs to, whether or not it may call now
// (0 when the token is unknown).
func (id Identity) Eshop() int {
	if id.Token == nil {
		return 0
	}
	return id.Token.EshopID
}

// TokenOf reads the token headers of a request: the token, and whether it
// came in the private header. A request with neither header answers the
// spec's 401 missing-access-token; a header sent twice, or both headers
// with different tokens, answer 401 invalid-token naming the headers, so a
// client never has one of two tokens picked for it silently.
func TokenOf(hdr http.Header, h sandbox.Headers) (tok string, private bool, err error) {
	access, priv := hdr[h.AccessTokenKey], hdr[h.PrivateTokenKey]
	if h.AccessTokenKey == "" { // Headers not made by sandbox.NewHeaders
		access, priv = hdr.Values(h.AccessToken), hdr.Values(h.PrivateToken)
	}
	for _, v := range []struct {
		name   string
		values []string
	}{{h.AccessToken, access}, {h.PrivateToken, priv}} {
		if len(v.values) > 1 {
			return v.values[0], v.name == h.PrivateToken, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
				"The %s header was sent %d times; send exactly one token in one header.", v.name, len(v.values))
		}
	}
	switch {
	case len(access) == 1 && len(priv) == 1 && access[0] != priv[0]:
		return access[0], false, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
			"Both %s and %s were sent, with different tokens; send one token in the header of its access mode.", h.AccessToken, h.PrivateToken)
	case len(access) == 1 && access[0] != "":
		return access[0], false, nil
	case len(priv) == 1 && priv[0] != "":
		return priv[0], true, nil
	}
	return "", false, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeMissingToken, "access-token",
		"Missing access token: send the %s header (add-on access) or the %s header (private access).", h.AccessToken, h.PrivateToken)
}

// OtherWordHeaders names the token headers of a request spelled with
// another brand word than the sandbox's (Acme-Access-Token where it
// reads Service-Access-Token): the pipeline does not take a token from
// them, and certify tells the developer which word the add-on speaks.
// Only auth spells the token headers out.
func OtherWordHeaders(hdr http.Header, word string) (headers, words []string) {
	for k := range hdr {
		for _, suffix := range []string{"-Access-Token", "-Private-Api-Token"} {
			w, ok := strings.CutSuffix(k, suffix)
			if ok && w != "" && !strings.EqualFold(w, word) {
				headers, words = append(headers, k), append(words, w)
			}
		}
	}
	return headers, words
}

// Identify looks a token up as sent in the private header (private true)
// or the add-on header: the spec's 401 invalid-token for an unknown token
// or one sent in the other access mode's header, expired-token for an
// add-on token past its expiry, and the add-on's own status (suspended,
// uninstalled) for add-on tokens.
func (a *Authenticator) Identify(tok string, private bool) Identity {
	var id Identity
	// A cached principal needs no transaction: the generation read
	// outside one names the same commit a read transaction would see (a
	// write in progress has already moved it on).
	if p, ok := a.cache.get(tok, a.generation()); ok {
		id = Identity{Token: p.Token, Principal: p}
	} else if err := a.Store.View(func(tx *store.Tx) error {
		gen := a.generation()
		if p, ok := a.cache.get(tok, gen); ok {
			id = Identity{Token: p.Token, Principal: p}
			return nil
		}
		id = identify(tx, tok)
		if id.Principal != nil {
			a.cache.remember(tx, tok, gen, id.Principal)
		}
		return nil
	}); err != nil {
		return Identity{Err: err}
	}
	if id.Token != nil && id.Err == nil && (id.Token.Kind == KindPrivate) != private {
		return Identity{Token: id.Token, Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
			"This is %s token; send it in the %s header.", article(id.Token.Kind), headerFor(a.Headers, id.Token.Kind))}
	}
	return id
}

// identify finds a token and checks that it is usable now.
func identify(tx *store.Tx, tok string) Identity {
	t, err := GetToken(tx, tok)
	if errors.Is(err, sandbox.ErrNotFound) {
		if rerr := revoked(tx, tok); rerr != nil {
			return Identity{Err: rerr}
		}
		return Identity{Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
			"The access token is not valid. GET /_sandbox/eshops lists the sandbox's tokens.")}
	}
	if err != nil {
		return Identity{Err: err}
	}
	if t.Expired(tx.Now()) {
		return Identity{Token: t, Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeExpiredToken, "access-token",
			"The API access token expired at %s. Request a new one from the e-shop's OAuth server.", sandbox.FormatTime(*t.ExpiresAt))}
	}
	p := &Principal{Token: t}
	if t.Kind == KindAddon {
		ad, err := GetAddon(tx, t.EshopID, t.Addon)
		if errors.Is(err, sandbox.ErrNotFound) {
			return Identity{Token: t, Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
				"The add-on of this token is no longer installed in e-shop %s.", strconv.Itoa(t.EshopID))}
		}
		if err != nil {
			return Identity{Token: t, Err: err}
		}
		if err := ad.CallsAllowed(t.EshopID); err != nil {
			return Identity{Token: t, Err: err}
		}
		p.Addon = ad
	}
	return Identity{Token: t, Principal: p}
}

func article(kind string) string {
	if kind == KindAddon {
		return "an add-on API"
	}
	return "a private API"
}

func headerFor(h sandbox.Headers, kind string) string {
	if kind == KindAddon {
		return h.AccessToken
	}
	return h.PrivateToken
}

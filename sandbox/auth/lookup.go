package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// Authenticator resolves the token headers of a request against the
// tokens in the store, following the spec's "Authentication" section.
type Authenticator struct {
	Store   *store.Store
	Headers sandbox.Headers

	cache principalCache
}

// Authenticate returns the caller of a request or the spec's 401:
// missing-access-token without a token header, invalid-token for an
// unknown token, expired-token for an add-on token past its expiry.
func (a *Authenticator) Authenticate(r *http.Request) (*Principal, error) {
	tok := r.Header.Get(a.Headers.AccessToken)
	header := a.Headers.AccessToken
	if tok == "" {
		tok = r.Header.Get(a.Headers.PrivateToken)
		header = a.Headers.PrivateToken
	}
	if tok == "" {
		return nil, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeMissingToken, "access-token",
			"Missing access token: send the %s header (add-on access) or the %s header (private access).", a.Headers.AccessToken, a.Headers.PrivateToken)
	}
	var p *Principal
	err := a.Store.View(func(tx *store.Tx) error {
		gen := tx.Generation()
		if c, ok := a.cache.get(tok, gen); ok {
			p = c
			return nil
		}
		var err error
		if p, err = Lookup(tx, tok); err == nil {
			a.cache.remember(tx, tok, gen, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	wantKind := KindAddon
	if header == a.Headers.PrivateToken {
		wantKind = KindPrivate
	}
	if p.Token.Kind != wantKind {
		return nil, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
			"This is %s token; send it in the %s header.", article(p.Token.Kind), headerFor(a.Headers, p.Token.Kind))
	}
	return p, nil
}

// Lookup finds a token and checks that it is usable now.
func Lookup(tx *store.Tx, tok string) (*Principal, error) {
	raw, err := tx.Get(store.Global, TokensCollection, tok)
	if errors.Is(err, sandbox.ErrNotFound) {
		if rerr := revoked(tx, tok); rerr != nil {
			return nil, rerr
		}
		return nil, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
			"The access token is not valid. GET /_sandbox/eshops lists the sandbox's tokens.")
	}
	if err != nil {
		return nil, err
	}
	var t Token
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	if t.Expired(tx.Now()) {
		return nil, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeExpiredToken, "access-token",
			"The API access token expired at %s. Request a new one from the e-shop's OAuth server.", sandbox.FormatTime(*t.ExpiresAt))
	}
	p := &Principal{Token: &t}
	if t.Kind == KindAddon {
		raw, err := tx.Get(t.EshopID, AddonsCollection, t.Addon)
		if errors.Is(err, sandbox.ErrNotFound) {
			return nil, sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
				"The add-on of this token is no longer installed in e-shop %s.", strconv.Itoa(t.EshopID))
		}
		if err != nil {
			return nil, err
		}
		var ad Addon
		if err := json.Unmarshal(raw, &ad); err != nil {
			return nil, err
		}
		if err := ad.CallsAllowed(t.EshopID); err != nil {
			return nil, err
		}
		p.Addon = &ad
	}
	return p, nil
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

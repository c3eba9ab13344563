package auth

import (
	"encoding/json"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// The token and add-on records are auth's: other packages read and write
// them through these functions, never through their store keys.

// GetToken reads a stored token record (sandbox.ErrNotFound when there is
// none), whether or not it is still valid.
func GetToken(tx *store.Tx, tok string) (*Token, error) {
	raw, err := tx.Get(store.Global, tokensCollection, tok)
	if err != nil {
		return nil, err
	}
	var t Token
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	t.RetainedUntil, _ = store.ExpiresAt(raw)
	return &t, nil
}

// PutToken stores a token record; one with RetainedUntil set disappears
// from the store then.
func PutToken(tx *store.Tx, t *Token) error {
	raw, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if t.RetainedUntil.IsZero() {
		_, err = tx.Put(store.Global, tokensCollection, t.Token, raw)
	} else {
		_, err = tx.PutExpiring(store.Global, tokensCollection, t.Token, raw, t.RetainedUntil)
	}
	return err
}

// ExpireTokenNow makes a token expire at the sandbox's now, keeping every
// other field and its retention: calls with it answer 401 expired-token
// from now on.
func ExpireTokenNow(tx *store.Tx, tok string) error {
	t, err := GetToken(tx, tok)
	if err != nil {
		return err
	}
	now := tx.Now()
	t.ExpiresAt = &now
	return PutToken(tx, t)
}

// EachToken calls fn with every stored token record, valid or not, until
// fn returns false.
func EachToken(tx *store.Tx, fn func(t *Token) bool) error {
	return tx.Scan(store.Global, tokensCollection, func(_ string, doc []byte) bool {
		var t Token
		if json.Unmarshal(doc, &t) != nil {
			return true
		}
		t.RetainedUntil, _ = store.ExpiresAt(doc)
		return fn(&t)
	})
}

// GetAddon reads an add-on's record in one e-shop (sandbox.ErrNotFound
// when the e-shop has no such add-on).
func GetAddon(tx *store.Tx, eshopID int, name string) (*Addon, error) {
	raw, err := tx.Get(eshopID, addonsCollection, name)
	if err != nil {
		return nil, err
	}
	var ad Addon
	if err := json.Unmarshal(raw, &ad); err != nil {
		return nil, err
	}
	return &ad, nil
}

// PutAddon stores an add-on's record in one e-shop.
func PutAddon(tx *store.Tx, eshopID int, a *Addon) error {
	raw, err := json.Marshal(a)
	if err != nil {
		return err
	}
	_, err = tx.Put(eshopID, addonsCollection, a.Name, raw)
	return err
}

// EachAddon calls fn with every add-on configured in an e-shop, in the
// order they were stored, until fn returns false.
func EachAddon(tx *store.Tx, eshopID int, fn func(a *Addon) bool) error {
	return tx.Scan(eshopID, addonsCollection, func(_ string, doc []byte) bool {
		var a Addon
		if json.Unmarshal(doc, &a) != nil {
			return true
		}
		return fn(&a)
	})
}

// retained reports whether a token record is kept only until a time.
func (t *Token) retained() bool { return !t.RetainedUntil.IsZero() }

// TokensOf returns every API token of an add-on in an e-shop, valid or
// expired, in the order they were issued: what revoking the add-on takes
// away, and (filtered by expiry) what its OAuth server counts.
func TokensOf(tx *store.Tx, eshopID int, addon string) ([]Token, error) {
	var out []Token
	err := EachToken(tx, func(t *Token) bool {
		if t.Kind == KindAddon && t.EshopID == eshopID && t.Addon == addon {
			out = append(out, *t)
		}
		return true
	})
	return out, err
}

// AddonExists reports whether an e-shop has an add-on of that name, in
// any status.
func AddonExists(tx *store.Tx, eshopID int, name string) bool {
	return tx.Exists(eshopID, addonsCollection, name)
}

// DeleteAddon removes an add-on's record from one e-shop
// (sandbox.ErrNotFound when there is none).
func DeleteAddon(tx *store.Tx, eshopID int, name string) error {
	return tx.Delete(eshopID, addonsCollection, name)
}

package auth

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Add-on statuses in one e-shop. They decide what the add-on's tokens may
// do, so the life cycle driven through the control plane (suspend, resume,
// terminate, uninstall) is felt by the add-on on its next call.
const (
	StatusConfigured  = "configured"  // known to the e-shop, never installed: no tokens work
	StatusInstalled   = "installed"   // the install handshake gave it an OAuth token: calls work
	StatusSuspended   = "suspended"   // calls are refused with 403 addon-suspended until resumed
	StatusTerminated  = "terminated"  // access ended; its tokens were revoked
	StatusUninstalled = "uninstalled" // removed by the e-shop; its tokens were revoked
)

// CodeAddonSuspended is the errorCode of a call by a suspended add-on. The
// reference names no code for it; this one reads like the service's own.
const CodeAddonSuspended = "addon-suspended"

// revokedCollection (global) remembers revoked API tokens, so a call with
// one is told why it stopped working instead of a bare invalid-token.
const revokedCollection = "revoked-tokens"

// Revocation is the tombstone of a revoked API token.
type Revocation struct {
	Token     string    `json:"token"`
	EshopID   int       `json:"eshopId"`
	Addon     string    `json:"addon,omitempty"`
	Reason    string    `json:"reason"`
	RevokedAt time.Time `json:"revokedAt"`
}

// CallsAllowed reports whether the add-on's API tokens may be used in its
// current status: the spec's 401 when it is not (or no longer) installed,
// 403 addon-suspended while suspended.
func (a *Addon) CallsAllowed(eshopID int) error {
	switch a.Status {
	case "", StatusInstalled:
		return nil
	case StatusSuspended:
		return sandbox.Errorf(sandbox.KindForbidden, CodeAddonSuspended, "access-token",
			"The add-on %s is suspended in e-shop %d: its calls are refused until the e-shop approves it again (system event addon:approve).", a.Name, eshopID)
	}
	return sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
		"The add-on %s is not installed in e-shop %d (status %s); install it to obtain new tokens.", a.Name, eshopID, a.Status)
}

// RevokeToken deletes an API token and leaves a tombstone saying why, so
// later calls with it answer 401 invalid-token with that reason.
func RevokeToken(tx *store.Tx, t *Token, reason string) error {
	if err := tx.Delete(store.Global, tokensCollection, t.Token); err != nil && !errors.Is(err, sandbox.ErrNotFound) {
		return err
	}
	raw, err := json.Marshal(Revocation{Token: t.Token, EshopID: t.EshopID, Addon: t.Addon, Reason: reason, RevokedAt: tx.Now()})
	if err != nil {
		return err
	}
	_, err = tx.Put(store.Global, revokedCollection, t.Token, raw)
	return err
}

// revoked explains a token that is no longer stored, when it was revoked.
func revoked(tx *store.Tx, tok string) error {
	raw, err := tx.Get(store.Global, revokedCollection, tok)
	if err != nil {
		return nil
	}
	var rv Revocation
	if json.Unmarshal(raw, &rv) != nil {
		return nil
	}
	return sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token",
		"The access token was revoked at %s: %s.", sandbox.FormatTime(rv.RevokedAt), rv.Reason)
}

package auth

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestLookupFollowsAddonStatus: an add-on's token works while the add-on
// is installed, is refused with 403 addon-suspended while suspended, and
// with 401 once it is not installed; a revoked token says why.
func TestLookupFollowsAddonStatus(t *testing.T) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	st, err := store.Open(store.Options{Clock: sandbox.NewFrozenClock(at)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	exp := at.Add(time.Hour)
	tok := Token{Token: "sbx_api_status_test_token", EshopID: 7, Kind: KindAddon, Addon: "a1", ExpiresAt: &exp}
	put := func(tx *store.Tx, eshop int, coll, id string, v any) {
		raw, _ := json.Marshal(v)
		if _, err := tx.Put(eshop, coll, id, raw); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		status string
		kind   sandbox.Kind
		code   string
	}{
		{"", 0, ""},
		{StatusInstalled, 0, ""},
		{StatusSuspended, sandbox.KindForbidden, CodeAddonSuspended},
		{StatusConfigured, sandbox.KindUnauthorized, sandbox.CodeInvalidToken},
		{StatusTerminated, sandbox.KindUnauthorized, sandbox.CodeInvalidToken},
		{StatusUninstalled, sandbox.KindUnauthorized, sandbox.CodeInvalidToken},
	}
	for _, tc := range tests {
		t.Run("status "+tc.status, func(t *testing.T) {
			err := st.Update(func(tx *store.Tx) error {
				put(tx, store.Global, tokensCollection, tok.Token, tok)
				put(tx, 7, addonsCollection, "a1", Addon{Name: "a1", Status: tc.status})
				err := identify(tx, tok.Token).Err
				return err
			})
			if tc.code == "" {
				if err != nil {
					t.Fatalf("Lookup: %v", err)
				}
				return
			}
			var se *sandbox.Error
			if !errors.As(err, &se) || se.Kind != tc.kind || se.Code != tc.code || se.Instance != "access-token" || !strings.Contains(se.Message, "a1") {
				t.Fatalf("Lookup error %#v, want %s", err, tc.code)
			}
		})
	}
	err = st.Update(func(tx *store.Tx) error {
		if err := RevokeToken(tx, &tok, "the add-on a1 was uninstalled in e-shop 7"); err != nil {
			return err
		}
		err := identify(tx, tok.Token).Err
		return err
	})
	var se *sandbox.Error
	if !errors.As(err, &se) || se.Code != sandbox.CodeInvalidToken || !strings.Contains(se.Message, "revoked") || !strings.Contains(se.Message, "uninstalled") {
		t.Fatalf("revoked token: %v", err)
	}
}

// TestPrincipalCacheFollowsOnlyItsRecords: a cached principal answers
// while other collections are written, even while such a write is in
// progress (a read transaction would wait for it), and not once its
// token is written, revoked or the store reset.
func TestPrincipalCacheFollowsOnlyItsRecords(t *testing.T) {
	st, err := store.Open(store.Options{Clock: sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := &Authenticator{Store: st}
	tok := Token{Token: "sbx_prv_cache_test_token", EshopID: 7, Kind: KindPrivate}
	put := func(coll, id string, v any) {
		t.Helper()
		raw, _ := json.Marshal(v)
		if err := st.Update(func(tx *store.Tx) error { _, err := tx.Put(store.Global, coll, id, raw); return err }); err != nil {
			t.Fatal(err)
		}
	}
	put(tokensCollection, tok.Token, tok)
	if id := a.Identify(tok.Token, true); id.Principal == nil {
		t.Fatalf("identify: %v", id.Err)
	}
	put("orders", "1", map[string]any{"code": "1"})

	// A write of another collection in progress: the cached principal
	// answers without waiting for it.
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- st.Update(func(tx *store.Tx) error {
			if _, err := tx.Put(store.Global, "orders", "2", []byte(`{"code":"2"}`)); err != nil {
				return err
			}
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	answered := make(chan Identity, 1)
	go func() { answered <- a.Identify(tok.Token, true) }()
	select {
	case id := <-answered:
		if id.Principal == nil {
			t.Errorf("identify during another write: %v", id.Err)
		}
	case <-time.After(10 * time.Second):
		t.Error("identify waited for a write of another collection")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	// The token's own record changes: the next call reads it.
	if err := st.Update(func(tx *store.Tx) error { return RevokeToken(tx, &tok, "a test") }); err != nil {
		t.Fatal(err)
	}
	if id := a.Identify(tok.Token, true); id.Principal != nil || id.Err == nil || !strings.Contains(id.Err.Error(), "revoked") {
		t.Fatalf("a revoked token still identifies: %+v", id)
	}
	put(tokensCollection, tok.Token, tok)
	if id := a.Identify(tok.Token, true); id.Principal == nil {
		t.Fatalf("the token stored again: %v", id.Err)
	}
	if err := st.Reset(); err != nil {
		t.Fatal(err)
	}
	if id := a.Identify(tok.Token, true); id.Principal != nil {
		t.Fatal("a token of a reset store still identifies")
	}
}

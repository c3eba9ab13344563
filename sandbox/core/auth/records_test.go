package auth

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestExpireTokenNowKeepsRetention: expiring a token keeps every field of
// its record and the store's retention, and the token then answers
// expired-token.
func TestExpireTokenNowKeepsRetention(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	st, err := store.Open(store.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	retain := clock.Now().Add(48 * time.Hour)
	later := clock.Now().Add(time.Hour)
	orig := Token{Token: "t1", EshopID: 1, Kind: KindAddon, Addon: "a1", Name: "n", ExpiresAt: &later, RetainedUntil: retain}
	err = st.Update(func(tx *store.Tx) error {
		if err := PutToken(tx, &orig); err != nil {
			return err
		}
		return ExpireTokenNow(tx, "t1")
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = st.View(func(tx *store.Tx) error {
		raw, err := tx.Get(store.Global, tokensCollection, "t1")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), `"_expiresAt":`+strconv.FormatInt(retain.Unix(), 10)) {
			t.Fatalf("record lost its retention: %s", raw)
		}
		got, err := GetToken(tx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		g := *got
		if g.ExpiresAt == nil || !g.ExpiresAt.Equal(clock.Now()) || !g.RetainedUntil.Equal(retain) {
			t.Fatalf("expiry %v retention %v, want %v and %v", g.ExpiresAt, g.RetainedUntil, clock.Now(), retain)
		}
		g.ExpiresAt, g.RetainedUntil = nil, time.Time{}
		want := orig
		want.ExpiresAt, want.RetainedUntil = nil, time.Time{}
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("record after expiry: %+v, want %+v", g, want)
		}
		if id := identify(tx, "t1"); sandbox.AsError(id.Err).Code != sandbox.CodeExpiredToken || id.Eshop() != 1 {
			t.Fatalf("lookup after expiry: %+v", id)
		}
		return nil
	})
	if err := st.Update(func(tx *store.Tx) error { return ExpireTokenNow(tx, "missing") }); !errors.Is(err, sandbox.ErrNotFound) {
		t.Fatalf("missing token: %v", err)
	}
}

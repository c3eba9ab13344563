package eshop

import (
	"fmt"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestListCredentials: each e-shop comes with its own tokens in the order
// stored and its add-ons; the filters split private, per-add-on and
// callable tokens, an expired token is kept but not callable, and a token
// of an unknown e-shop is left out.
func TestListCredentials(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	st, err := store.Open(store.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	past, future := clock.Now().Add(-time.Minute), clock.Now().Add(time.Hour)
	var got []Credentials
	err = st.Update(func(tx *store.Tx) error {
		for _, m := range []*Meta{{ID: 2, Name: "two"}, {ID: 1, Name: "one"}} {
			if err := Put(tx, m); err != nil {
				return err
			}
		}
		for _, a := range []auth.Addon{{Name: "b"}, {Name: "a"}} {
			if err := auth.PutAddon(tx, 1, &a); err != nil {
				return err
			}
		}
		for _, tk := range []auth.Token{
			{Token: "p1", EshopID: 1, Kind: auth.KindPrivate, Name: "first"},
			{Token: "old", EshopID: 1, Kind: auth.KindAddon, Addon: "a", ExpiresAt: &past},
			{Token: "new", EshopID: 1, Kind: auth.KindAddon, Addon: "a", ExpiresAt: &future},
			{Token: "other", EshopID: 1, Kind: auth.KindAddon, Addon: "b", ExpiresAt: &future},
			{Token: "p2", EshopID: 2, Kind: auth.KindPrivate},
			{Token: "p3", EshopID: 1, Kind: auth.KindPrivate, Name: "late"},
			{Token: "stray", EshopID: 9, Kind: auth.KindPrivate},
		} {
			if err := auth.PutToken(tx, &tk); err != nil {
				return err
			}
		}
		got, err = ListCredentials(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	names := func(ts []auth.Token) string {
		var out []string
		for _, tk := range ts {
			out = append(out, tk.Token)
		}
		return fmt.Sprint(out)
	}
	if len(got) != 2 || got[0].ID != 2 || got[1].ID != 1 || !got[1].Now.Equal(clock.Now()) {
		t.Fatalf("e-shops %+v, want 2 then 1 (seeding order) at the clock's now", got)
	}
	one, two := &got[1], &got[0]
	tests := []struct {
		name, got, want string
	}{
		{"tokens of 1", names(one.Tokens), "[p1 old new other p3]"},
		{"tokens of 2", names(two.Tokens), "[p2]"},
		{"private", names(one.PrivateTokens()), "[p1 p3]"},
		{"add-on a", names(one.APITokens("a")), "[old new]"},
		{"add-on b", names(one.APITokens("b")), "[other]"},
		{"unknown add-on", names(one.APITokens("zzz")), "[]"},
		{"callable", names(one.Callable()), "[p1 new other p3]"},
		{"add-ons", fmt.Sprintf("%s%s %d", one.Addons[0].Name, one.Addons[1].Name, len(two.Addons)), "ba 0"},
		{"expired", fmt.Sprint(one.Expired(one.Tokens[1]), one.Expired(one.Tokens[2])), "true false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Fatalf("got %s, want %s", tc.got, tc.want)
			}
		})
	}
}

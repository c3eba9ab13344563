package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/control"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestCredentialViewsAgree: the `sandbox up` banner, the traffic info
// (the terminal UI's status bar) and GET /_sandbox/eshops show the same
// tokens for each e-shop, after tokens were issued and expired and an
// add-on was configured: the banner and the info list exactly the tokens
// that may call now, in the same order; the control plane lists those and
// the expired ones, marked expired; a token of an unknown e-shop shows
// nowhere.
func TestCredentialViewsAgree(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	s := sandboxtest.New(t, sandbox.Config{Clock: clock})
	later := clock.Now().Add(time.Hour)
	const (
		issued   = "sbx_api_views_issued_000001"
		expiring = "sbx_api_views_expiring_0001"
		stray    = "sbx_prv_views_unknown_eshop"
	)
	err := s.App.Store.Update(func(tx *store.Tx) error {
		for _, tk := range []auth.Token{
			{Token: issued, EshopID: 1001, Kind: auth.KindAddon, Addon: "example-addon", ExpiresAt: &later, RetainedUntil: later.Add(time.Hour)},
			{Token: expiring, EshopID: 1002, Kind: auth.KindAddon, Addon: "second", ExpiresAt: &later},
			{Token: stray, EshopID: 4242, Kind: auth.KindPrivate, Name: "nowhere", AllGroups: true},
		} {
			if err := auth.PutToken(tx, &tk); err != nil {
				return err
			}
		}
		for _, name := range []string{"second", "idle"} {
			if err := auth.PutAddon(tx, 1002, &auth.Addon{Name: name, ClientID: "c-" + name, ClientSecret: "s-" + name}); err != nil {
				return err
			}
		}
		return auth.ExpireTokenNow(tx, expiring)
	})
	if err != nil {
		t.Fatal(err)
	}

	// The banner: one block per e-shop, one line per callable token.
	var out strings.Builder
	printBanner(&out, s.App)
	banner := map[int][]string{}
	shopLine := regexp.MustCompile(`^  e-shop (\d+) `)
	tokenLine := regexp.MustCompile(`^    ([A-Za-z-]+): (\S+)   \((.*)\)$`)
	var shop int
	for _, l := range strings.Split(out.String(), "\n") {
		if m := shopLine.FindStringSubmatch(l); m != nil {
			shop, _ = strconv.Atoi(m[1])
			banner[shop] = []string{}
		} else if m := tokenLine.FindStringSubmatch(l); m != nil {
			banner[shop] = append(banner[shop], m[1]+" "+m[2]+" "+m[3])
		}
	}

	// The traffic info, in the same form.
	info := map[int][]string{}
	for _, e := range traffic.InfoOf(s.App.Store, s.App.Site, s.App.Clock, s.Headers).Eshops {
		info[e.ID] = []string{}
		for _, tk := range e.Tokens {
			info[e.ID] = append(info[e.ID], tk.Header+" "+tk.Token+" "+tk.Label)
		}
	}

	// The control plane, through a real socket.
	var body struct{ Eshops []control.EshopView }
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &body)
	callable, expired := map[int][]string{}, map[int][]string{}
	for _, e := range body.Eshops {
		callable[e.ID], expired[e.ID] = []string{}, []string{}
		for _, p := range e.PrivateTokens {
			callable[e.ID] = append(callable[e.ID], s.Headers.PrivateToken+" "+p.Token+" "+p.Name)
		}
		for _, a := range e.Addons {
			for _, tk := range a.APITokens {
				if tk.Expired {
					expired[e.ID] = append(expired[e.ID], tk.Token)
				} else {
					callable[e.ID] = append(callable[e.ID], s.Headers.AccessToken+" "+tk.Token+" add-on "+a.Name)
				}
			}
		}
	}

	if fmt.Sprint(banner) != fmt.Sprint(info) {
		t.Fatalf("the banner and the traffic info disagree:\nbanner %v\ninfo   %v", banner, info)
	}
	if fmt.Sprint(callable) != fmt.Sprint(info) {
		t.Fatalf("the control plane and the traffic info disagree on the callable tokens:\ncontrol %v\ninfo    %v", callable, info)
	}
	if len(banner) != 2 || !slices.Contains(strings.Fields(strings.Join(banner[1001], " ")), issued) {
		t.Fatalf("the issued token is not listed for e-shop 1001: %v", banner)
	}
	if !slices.Contains(expired[1002], expiring) || strings.Contains(out.String(), expiring) {
		t.Fatalf("the expired token: control %v, banner %q", expired, out.String())
	}
	if strings.Contains(out.String(), stray) || strings.Contains(fmt.Sprint(callable, expired), stray) {
		t.Fatalf("a token of an unknown e-shop is shown")
	}
}

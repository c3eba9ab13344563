package traffic

import (
	"sort"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// InfoOf describes a sandbox for a traffic viewer: base URL, e-shops with
// the tokens that work now and their add-ons, and the clock. `sandbox up`
// builds its in-process terminal UI's info with it; the stream sends the
// same.
func InfoOf(st *store.Store, site *eshop.Site, clock *sandbox.Clock, h sandbox.Headers) Info {
	info := Info{Eshops: []EshopInfo{}}
	if site != nil {
		info.BaseURL = site.BaseURL
	}
	if clock != nil {
		info.Now, info.Offset = clock.Now(), clock.Offset()
	}
	if st == nil {
		return info
	}
	var creds []eshop.Credentials
	_ = st.View(func(tx *store.Tx) (err error) {
		creds, err = eshop.ListCredentials(tx)
		return err
	})
	for _, c := range creds {
		e := EshopInfo{ID: c.ID, Name: c.Name, Tokens: []TokenInfo{}, Addons: []string{}}
		if site != nil {
			e.URL = site.EshopURL(c.ID)
		}
		for _, a := range c.Addons {
			e.Addons = append(e.Addons, a.Name)
		}
		for _, t := range c.Callable() {
			if t.Kind == auth.KindPrivate {
				e.Tokens = append(e.Tokens, TokenInfo{Header: h.PrivateToken, Token: t.Token, Label: t.Name})
			} else {
				e.Tokens = append(e.Tokens, TokenInfo{Header: h.AccessToken, Token: t.Token, Label: "add-on " + t.Addon})
			}
		}
		info.Eshops = append(info.Eshops, e)
	}
	sort.Slice(info.Eshops, func(i, j int) bool { return info.Eshops[i].ID < info.Eshops[j].ID })
	return info
}

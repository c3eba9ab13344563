package traffic

import (
	"encoding/json"
	"sort"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
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
	_ = st.View(func(tx *store.Tx) error {
		metas, err := eshop.List(tx)
		if err != nil {
			return err
		}
		index := map[int]int{}
		for _, m := range metas {
			e := EshopInfo{ID: m.ID, Name: m.Name, Tokens: []TokenInfo{}, Addons: []string{}}
			if site != nil {
				e.URL = site.EshopURL(m.ID)
			}
			_ = tx.Scan(m.ID, auth.AddonsCollection, func(_ string, doc []byte) bool {
				var a auth.Addon
				if json.Unmarshal(doc, &a) == nil {
					e.Addons = append(e.Addons, a.Name)
				}
				return true
			})
			index[m.ID] = len(info.Eshops)
			info.Eshops = append(info.Eshops, e)
		}
		now := tx.Now()
		return tx.Scan(store.Global, auth.TokensCollection, func(_ string, doc []byte) bool {
			var t auth.Token
			if json.Unmarshal(doc, &t) != nil {
				return true
			}
			i, ok := index[t.EshopID]
			if !ok {
				return true
			}
			switch {
			case t.Kind == auth.KindPrivate:
				info.Eshops[i].Tokens = append(info.Eshops[i].Tokens, TokenInfo{Header: h.PrivateToken, Token: t.Token, Label: t.Name})
			case t.Kind == auth.KindAddon && !t.Expired(now):
				info.Eshops[i].Tokens = append(info.Eshops[i].Tokens, TokenInfo{Header: h.AccessToken, Token: t.Token, Label: "add-on " + t.Addon})
			}
			return true
		})
	})
	sort.Slice(info.Eshops, func(i, j int) bool { return info.Eshops[i].ID < info.Eshops[j].ID })
	return info
}

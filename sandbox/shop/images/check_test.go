package images

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// TestCheck: Check lets through the cut paths the routes serve and an
// e-shop without eshop.json, and refuses, naming the e-shop and the cut,
// a cut whose urlPath or cdnPath the sandbox would answer 404 for.
func TestCheck(t *testing.T) {
	const good = `{"name":"big","urlPath":"{eshop_url}/user/shop/big/","cdnPath":"{eshop_url}/cdn/big/","width":1024,"height":768}`
	for _, c := range []struct {
		name, cuts string // "" for no info document
		want       string // in the error; "" for none
	}{
		{"served paths", `[` + good + `]`, ""},
		{"no cuts", `null`, ""},
		{"no eshop.json", "", ""},
		{"urlPath elsewhere", `[{"name":"big","urlPath":"{eshop_url}/img/big/","cdnPath":"{eshop_url}/cdn/big/"}]`, `e-shop 1001, image cut "big"`},
		{"cdnPath on another server", `[` + good + `,{"name":"detail","urlPath":"{eshop_url}/user/shop/detail/","cdnPath":"https://cdn.example.com/detail/"}]`, `image cut "detail"`},
		{"urlPath without the placeholder", `[{"name":"big","urlPath":"/user/shop/big/","cdnPath":"{eshop_url}/cdn/big/"}]`, `image cut "big"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := store.Open(store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			err = st.Update(func(tx *store.Tx) error {
				if err := eshop.Put(tx, &eshop.Meta{ID: 1001}); err != nil {
					return err
				}
				if c.cuts == "" {
					return nil
				}
				_, err := tx.Put(1001, eshop.InfoCollection, "info", []byte(`{"imageCuts":`+c.cuts+`}`))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			err = (&Service{Store: st}).Check()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

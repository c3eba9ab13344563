package app_test

import (
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// facts are values the tests take from the embedded fixtures rather than
// hard-coding them, so fixture edits do not silently invalidate tests.
type facts struct {
	FullToken, OrdersReadToken string // e-shop 1001 private tokens
	OtherToken                 string // e-shop 1002 full private token
	AddonToken, ExpiredToken   string // e-shop 1001 add-on API tokens
	Products                   []map[string]any
	Orders                     []map[string]any
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

type creds struct {
	PrivateTokens []struct {
		Token  string          `json:"token"`
		Rights json.RawMessage `json:"rights"`
	} `json:"privateTokens"`
	Addons []struct {
		APITokens []struct {
			Token     string `json:"token"`
			ExpiresAt string `json:"expiresAt"`
		} `json:"apiTokens"`
	} `json:"addons"`
}

func loadFacts(t testing.TB) *facts {
	t.Helper()
	f := &facts{}
	var c creds
	readJSON(t, "eshops/1001/credentials.json", &c)
	for _, p := range c.PrivateTokens {
		if string(p.Rights) == `"all"` {
			f.FullToken = p.Token
		} else {
			f.OrdersReadToken = p.Token
		}
	}
	for _, a := range c.Addons {
		for _, tok := range a.APITokens {
			at, _ := sandbox.ParseTime(tok.ExpiresAt)
			if at.Year() > 2090 {
				f.AddonToken = tok.Token
			} else {
				f.ExpiredToken = tok.Token
			}
		}
	}
	var c2 creds
	readJSON(t, "eshops/1002/credentials.json", &c2)
	f.OtherToken = c2.PrivateTokens[0].Token
	readJSON(t, "eshops/1001/products.json", &f.Products)
	readJSON(t, "eshops/1001/orders.json", &f.Orders)
	if f.FullToken == "" || f.OrdersReadToken == "" || f.AddonToken == "" || f.ExpiredToken == "" || f.OtherToken == "" {
		t.Fatalf("fixtures lack a token the tests need: %+v", f)
	}
	return f
}

// start starts a sandbox on a free loopback port with the default fixtures.
func start(t testing.TB) (*sandboxtest.Server, *facts) {
	t.Helper()
	return sandboxtest.New(t, sandbox.Config{}), loadFacts(t)
}

func productBy(f *facts, pred func(map[string]any) bool) map[string]any {
	for _, p := range f.Products {
		if pred(p) {
			return p
		}
	}
	return nil
}

package oauth_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// TestCodeExchange walks every rule of POST {eshop_url}/action/ApiOAuthServer/token:
// the reference's fields, single use, 5 minutes of validity on the
// sandbox clock, the add-on's own secret and redirect URI, each refusal
// with OAuth's error value and a sentence that says what to fix.
func TestCodeExchange(t *testing.T) {
	a := loadFixtureAddon(t)
	with := func(field, value string) func(map[string]string) {
		return func(b map[string]string) { b[field] = value }
	}
	without := func(field string) func(map[string]string) {
		return func(b map[string]string) { delete(b, field) }
	}
	tests := []struct {
		name    string
		eshop   int                     // address the add-on posts to
		advance time.Duration           // clock move between issue and exchange
		change  func(map[string]string) // alters a correct body
		reuse   bool                    // exchange the same code twice
		status  int
		errVal  string
		explain string // in error_description
	}{
		{name: "correct exchange", eshop: 1001, status: 200},
		{name: "minimal body: grant_type and scope default", eshop: 1001, change: func(b map[string]string) { delete(b, "grant_type"); delete(b, "scope") }, status: 200},
		{name: "at another e-shop's address: bound to the code's e-shop", eshop: 1002, status: 200},
		{name: "one second before expiry", eshop: 1001, advance: oauth.CodeValidity - time.Second, status: 200},
		{name: "expired code", eshop: 1001, advance: oauth.CodeValidity, status: 400, errVal: "invalid_grant", explain: "expired"},
		{name: "reused code", eshop: 1001, reuse: true, status: 400, errVal: "invalid_grant", explain: "single use"},
		{name: "wrong secret", eshop: 1001, change: with("client_secret", "not-the-secret"), status: 401, errVal: "invalid_client", explain: "client_secret"},
		{name: "wrong client id", eshop: 1001, change: with("client_id", "someone-else"), status: 401, errVal: "invalid_client", explain: "client_id"},
		{name: "wrong redirect URI", eshop: 1001, change: with("redirect_uri", "http://127.0.0.1:9090/other"), status: 400, errVal: "invalid_grant", explain: "redirect_uri"},
		{name: "unknown code", eshop: 1001, change: with("code", strings.Repeat("x", oauth.CodeLength)), status: 400, errVal: "invalid_grant", explain: "not known"},
		{name: "truncated code", eshop: 1001, change: func(b map[string]string) { b["code"] = b["code"][:100] }, status: 400, errVal: "invalid_grant", explain: "100 characters"},
		{name: "missing client_secret", eshop: 1001, change: without("client_secret"), status: 400, errVal: "invalid_request", explain: "client_secret is missing"},
		{name: "missing redirect_uri", eshop: 1001, change: without("redirect_uri"), status: 400, errVal: "invalid_request", explain: "redirect_uri is missing"},
		{name: "wrong grant_type", eshop: 1001, change: with("grant_type", "client_credentials"), status: 400, errVal: "unsupported_grant_type", explain: "authorization_code"},
		{name: "wrong scope", eshop: 1001, change: with("scope", "admin"), status: 400, errVal: "invalid_scope", explain: "api"},
		{name: "no such e-shop", eshop: 9999, status: 404, errVal: "invalid_request", explain: "9999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, clock := start(t)
			code := issueCode(t, s, a.Eshop, a.Name)
			body := exchangeBody(a, code)
			if tc.change != nil {
				tc.change(body)
			}
			clock.Advance(tc.advance)
			if tc.reuse {
				if first := exchange(t, s, tc.eshop, body); first.Status != 200 {
					t.Fatalf("first exchange: %d %s", first.Status, first.Raw)
				}
			}
			r := exchange(t, s, tc.eshop, body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.status == 200 {
				validate(t, s, "oauth/token.response.json", r.Raw)
				if !strings.HasPrefix(r.AccessToken, "sbx_oauth_") || r.TokenType != "bearer" {
					t.Fatalf("token answer %s", r.Raw)
				}
				// The OAuth token is bound to the e-shop of the code: its API
				// token reads that e-shop's data.
				acc := getAccess(t, s, tc.eshop, r.AccessToken)
				if acc.Status != 200 {
					t.Fatalf("getAccessToken: %d %s", acc.Status, acc.Raw)
				}
				var info struct {
					ContactInformation struct {
						EshopID int `json:"eshopId"`
					} `json:"contactInformation"`
				}
				s.Do(sandboxtest.Call{Path: "/api/eshop", AccessToken: acc.AccessToken}).Data(t, &info)
				if info.ContactInformation.EshopID != a.Eshop {
					t.Fatalf("API token reads e-shop %d, want %d", info.ContactInformation.EshopID, a.Eshop)
				}
				return
			}
			if r.errorValue() != tc.errVal || !strings.Contains(r.Description, tc.explain) || r.AccessToken != "" {
				t.Fatalf("error %q %q, want %q mentioning %q", r.errorValue(), r.Description, tc.errVal, tc.explain)
			}
		})
	}
}

// TestCodeExchangeForm accepts the form encoding generic OAuth libraries
// use, besides the reference client's JSON.
func TestCodeExchangeForm(t *testing.T) {
	a := loadFixtureAddon(t)
	s, _ := start(t)
	form := url.Values{}
	for k, v := range exchangeBody(a, issueCode(t, s, a.Eshop, a.Name)) {
		form.Set(k, v)
	}
	r := decode(t, s.Do(sandboxtest.Call{Method: "POST", Path: "/eshops/1001" + oauth.TokenPath, Body: form.Encode(), ContentType: "application/x-www-form-urlencoded"}))
	if r.Status != 200 || r.AccessToken == "" {
		t.Fatalf("form exchange: %d %s", r.Status, r.Raw)
	}
	bad := decode(t, s.Do(sandboxtest.Call{Method: "POST", Path: "/eshops/1001" + oauth.TokenPath, Body: "not json"}))
	if bad.Status != 400 || bad.errorValue() != "invalid_request" {
		t.Fatalf("garbage body: %d %s", bad.Status, bad.Raw)
	}
}

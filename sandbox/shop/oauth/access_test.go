package oauth_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

// TestGetAccessToken checks GET {eshop_url}/action/ApiOAuthServer/getAccessToken:
// the header, the reference's answer (access_token, expires_in, error),
// the 401 for unknown OAuth tokens, and that the API token works.
func TestGetAccessToken(t *testing.T) {
	a := loadFixtureAddon(t)
	s, _ := start(t)
	oauthTok := oauthToken(t, s, a)
	tests := []struct {
		name   string
		header map[string]string
		status int
		errVal string
	}{
		{"valid OAuth token", map[string]string{"Authorization": "Bearer " + oauthTok}, 200, ""},
		{"lower-case scheme", map[string]string{"Authorization": "bearer " + oauthTok}, 200, ""},
		{"no Authorization header", nil, 401, "invalid_request"},
		{"not a bearer token", map[string]string{"Authorization": "Basic " + oauthTok}, 401, "invalid_request"},
		{"unknown OAuth token", map[string]string{"Authorization": "Bearer sbx_oauth_unknown"}, 401, "invalid_token"},
		{"an API token is not an OAuth token", map[string]string{"Authorization": "Bearer " + a.APITokens[0].Token}, 401, "invalid_token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := decode(t, s.Do(sandboxtest.Call{Path: "/eshops/1001" + oauth.AccessTokenPath, ContentType: "-", Header: tc.header}))
			if r.Status != tc.status || r.errorValue() != tc.errVal {
				t.Fatalf("%d %q, want %d %q: %s", r.Status, r.errorValue(), tc.status, tc.errVal, r.Raw)
			}
			// Every answer, refusals included, has the reference's shape.
			validate(t, s, "oauth/access-token.response.json", r.Raw)
			if tc.status != 200 {
				if r.Description == "" || r.AccessToken != "" {
					t.Fatalf("refusal without explanation or with a token: %s", r.Raw)
				}
				return
			}
			if r.ExpiresIn == nil || *r.ExpiresIn != int64(oauth.DefaultTokenLifetime/time.Second) || r.Error != nil {
				t.Fatalf("answer %s, want expires_in %d and error null", r.Raw, int64(oauth.DefaultTokenLifetime/time.Second))
			}
			if got := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: r.AccessToken}); got.Status != 200 {
				t.Fatalf("API call with the new token: %d %s", got.Status, got.Body)
			}
		})
	}
}

// TestMaximumTokens: at most 5 API tokens of one add-on are valid in one
// e-shop; the 6th request answers 429 maximum_tokens_reached, and once
// the clock passes the first tokens' expiry a new one can be had. The
// expired tokens then answer expired-token.
func TestMaximumTokens(t *testing.T) {
	a := loadFixtureAddon(t)
	s, clock := start(t)
	oauthTok := oauthToken(t, s, a)
	already := a.validFixtureTokens(t, t0)
	var issued []string
	for i := already; i < oauth.MaxAPITokens; i++ {
		r := getAccess(t, s, 1001, oauthTok)
		if r.Status != 200 {
			t.Fatalf("token %d: %d %s", i+1, r.Status, r.Raw)
		}
		issued = append(issued, r.AccessToken)
	}
	sixth := getAccess(t, s, 1001, oauthTok)
	if sixth.Status != 429 || sixth.errorValue() != "maximum_tokens_reached" || !strings.Contains(sixth.Description, "5") {
		t.Fatalf("6th token: %d %s", sixth.Status, sixth.Raw)
	}
	validate(t, s, "oauth/access-token.response.json", sixth.Raw)
	if len(issued) == 0 {
		t.Fatal("the fixtures leave no room for a new token; the test proves nothing")
	}

	clock.Advance(oauth.DefaultTokenLifetime)
	again := getAccess(t, s, 1001, oauthTok)
	if again.Status != 200 {
		t.Fatalf("after the tokens expired: %d %s", again.Status, again.Raw)
	}
	r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: issued[0]})
	if r.Status != 401 || r.Env.Errors[0].ErrorCode != "expired-token" {
		t.Fatalf("expired token: %d %s", r.Status, r.Body)
	}
}

// TestTokenLifetimeSetting: PUT /_sandbox/oauth changes the lifetime of
// tokens issued from then on; bad values are refused with a reason.
func TestTokenLifetimeSetting(t *testing.T) {
	a := loadFixtureAddon(t)
	s, clock := start(t)
	var st oauth.Settings
	s.Do(sandboxtest.Call{Path: "/_sandbox/oauth"}).Data(t, &st)
	if st.APITokenLifetimeSeconds != int64(oauth.DefaultTokenLifetime/time.Second) || st.CodeLength != oauth.CodeLength || st.MaxAPITokens != oauth.MaxAPITokens {
		t.Fatalf("settings %+v", st)
	}
	for _, bad := range []string{`{"apiTokenLifetime":"soon"}`, `{"apiTokenLifetime":0}`, `{"apiTokenLifetime":"-1m"}`, `{"other":"1m"}`, `{}`, `[1]`} {
		if r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/oauth", Body: bad}); r.Status < 400 || r.Status >= 500 || len(r.Env.Errors) != 1 {
			t.Fatalf("PUT %s: %d %s", bad, r.Status, r.Body)
		}
	}
	for _, tc := range []struct {
		body string
		want time.Duration
	}{{`{"apiTokenLifetime":"10m"}`, 10 * time.Minute}, {`{"apiTokenLifetime":90}`, 90 * time.Second}} {
		r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/oauth", Body: tc.body})
		r.Data(t, &st)
		if r.Status != 200 || st.APITokenLifetimeSeconds != int64(tc.want/time.Second) {
			t.Fatalf("PUT %s: %d %s", tc.body, r.Status, r.Body)
		}
		acc := getAccess(t, s, 1001, oauthToken(t, s, a))
		if acc.Status != 200 || *acc.ExpiresIn != int64(tc.want/time.Second) {
			t.Fatalf("expires_in after %s: %s", tc.body, acc.Raw)
		}
		clock.Advance(tc.want - time.Second)
		if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: acc.AccessToken}); r.Status != 200 {
			t.Fatalf("token before its expiry: %d", r.Status)
		}
		clock.Advance(time.Second)
		if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: acc.AccessToken}); r.Status != 401 || r.Env.Errors[0].ErrorCode != "expired-token" {
			t.Fatalf("token at its expiry: %d %s", r.Status, r.Body)
		}
	}
}

// TestNewInstallReplacesOAuthToken: a second successful exchange revokes
// the add-on's earlier OAuth token in that e-shop.
func TestNewInstallReplacesOAuthToken(t *testing.T) {
	a := loadFixtureAddon(t)
	s, _ := start(t)
	first := oauthToken(t, s, a)
	second := oauthToken(t, s, a)
	if r := getAccess(t, s, 1001, first); r.Status != 401 || r.errorValue() != "invalid_token" || !strings.Contains(r.Description, "revoked") {
		t.Fatalf("first OAuth token after a new install: %d %s", r.Status, r.Raw)
	}
	if r := getAccess(t, s, 1001, second); r.Status != 200 {
		t.Fatalf("second OAuth token: %d %s", r.Status, r.Raw)
	}
}

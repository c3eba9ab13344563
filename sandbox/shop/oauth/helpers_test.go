package oauth_test

import (
	"encoding/json"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/oauth"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// fixtureAddon is the add-on of the default fixtures, read from them so
// fixture edits do not silently invalidate the tests.
type fixtureAddon struct {
	Eshop        int
	Name         string `json:"name"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	RedirectURI  string `json:"redirectUri"`
	APITokens    []struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expiresAt"`
	} `json:"apiTokens"`
}

func loadFixtureAddon(t *testing.T) fixtureAddon {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, "eshops/1001/credentials.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Addons []fixtureAddon `json:"addons"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Addons) == 0 {
		t.Fatal("fixtures of e-shop 1001 have no add-on")
	}
	a := c.Addons[0]
	a.Eshop = 1001
	return a
}

// validFixtureTokens counts the fixture add-on's API tokens valid at t.
func (a fixtureAddon) validFixtureTokens(t *testing.T, at time.Time) int {
	n := 0
	for _, tok := range a.APITokens {
		exp, err := sandbox.ParseTime(tok.ExpiresAt)
		if err != nil {
			t.Fatal(err)
		}
		if at.Before(exp) {
			n++
		}
	}
	return n
}

func start(t *testing.T) (*sandboxtest.Server, *sandbox.Clock) {
	t.Helper()
	clock := sandbox.NewFrozenClock(t0)
	return sandboxtest.New(t, sandbox.Config{Clock: clock}), clock
}

// issueCode issues an install code the way the install driver does.
func issueCode(t *testing.T, s *sandboxtest.Server, eshop int, addon string) string {
	t.Helper()
	srv := oauth.New(s.App.Store, sandbox.NewIDs(0), s.App.Site)
	var code string
	err := s.App.Store.Update(func(tx *store.Tx) error {
		var err error
		code, _, err = srv.IssueCode(tx, eshop, addon, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(code) != oauth.CodeLength {
		t.Fatalf("code has %d characters", len(code))
	}
	return code
}

// oauthAnswer is any answer of the OAuth endpoints.
type oauthAnswer struct {
	Status      int
	AccessToken string  `json:"access_token"`
	TokenType   string  `json:"token_type"`
	ExpiresIn   *int64  `json:"expires_in"`
	Error       *string `json:"error"`
	Description string  `json:"error_description"`
	Raw         []byte
}

func (a oauthAnswer) errorValue() string {
	if a.Error == nil {
		return ""
	}
	return *a.Error
}

func decode(t *testing.T, r *sandboxtest.Response) oauthAnswer {
	t.Helper()
	var a oauthAnswer
	if err := json.Unmarshal(r.Body, &a); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, r.Body)
	}
	a.Status, a.Raw = r.Status, r.Body
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
	return a
}

func exchangeBody(a fixtureAddon, code string) map[string]string {
	return map[string]string{"client_id": a.ClientID, "client_secret": a.ClientSecret, "code": code,
		"redirect_uri": a.RedirectURI, "grant_type": "authorization_code", "scope": "api"}
}

func exchange(t *testing.T, s *sandboxtest.Server, eshop int, body any) oauthAnswer {
	t.Helper()
	return decode(t, s.Do(sandboxtest.Call{Method: "POST", Path: eshopPath(eshop) + oauth.TokenPath, Body: body}))
}

func getAccess(t *testing.T, s *sandboxtest.Server, eshop int, bearer string) oauthAnswer {
	t.Helper()
	h := map[string]string{}
	if bearer != "" {
		h["Authorization"] = "Bearer " + bearer
	}
	return decode(t, s.Do(sandboxtest.Call{Path: eshopPath(eshop) + oauth.AccessTokenPath, ContentType: "-", Header: h}))
}

func eshopPath(id int) string { return "/eshops/" + strconv.Itoa(id) }

// oauthToken installs nothing: it exchanges a fresh code directly and
// returns the OAuth access token.
func oauthToken(t *testing.T, s *sandboxtest.Server, a fixtureAddon) string {
	t.Helper()
	r := exchange(t, s, a.Eshop, exchangeBody(a, issueCode(t, s, a.Eshop, a.Name)))
	if r.Status != 200 || r.AccessToken == "" {
		t.Fatalf("exchange: %d %s", r.Status, r.Raw)
	}
	return r.AccessToken
}

// validate checks an answer against one of the reference's OAuth schemas.
func validate(t *testing.T, s *sandboxtest.Server, file string, raw []byte) {
	t.Helper()
	sch, err := s.App.Schemas.File(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Fatalf("%s: %v\n%s", file, err, raw)
	}
}

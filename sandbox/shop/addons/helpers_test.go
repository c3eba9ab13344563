package addons_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func start(t *testing.T) (*sandboxtest.Server, *sandbox.Clock) {
	t.Helper()
	clock := sandbox.NewFrozenClock(t0)
	return sandboxtest.New(t, sandbox.Config{Clock: clock}), clock
}

// serve runs an HTTP handler on a free loopback port until the test ends.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// configure creates or changes an add-on through the control plane.
func configure(t *testing.T, s *sandboxtest.Server, eshop int, name string, body any) addons.View {
	t.Helper()
	r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/" + itoa(eshop) + "/addons/" + name, Body: body})
	if r.Status != 200 && r.Status != 201 {
		t.Fatalf("configure %s: %d %s", name, r.Status, r.Body)
	}
	var v addons.View
	r.Data(t, &v)
	return v
}

// install runs the handshake through the control plane.
func install(t *testing.T, s *sandboxtest.Server, eshop int, name string) addons.InstallReport {
	t.Helper()
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/" + itoa(eshop) + "/install", Body: map[string]string{"addon": name}})
	if r.Status != 200 {
		t.Fatalf("install %s: %d %s", name, r.Status, r.Body)
	}
	var rec addons.InstallReport
	r.Data(t, &rec)
	return rec
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// client is what a hand-written test add-on knows: its credentials and
// the OAuth server's addresses.
type client struct {
	tokenURL, accessURL  string
	id, secret, redirect string
}

func clientOf(v addons.View) client {
	return client{tokenURL: v.TokenURL, accessURL: v.AccessTokenURL, id: v.ClientID, secret: v.ClientSecret, redirect: v.RedirectURI}
}

// exchange posts a code with the client's fields, changed by mutate; it
// returns the status and the OAuth token (empty when refused).
func (c client) exchange(code string, mutate func(map[string]string)) (int, string) {
	body := map[string]string{"client_id": c.id, "client_secret": c.secret, "code": code, "redirect_uri": c.redirect,
		"grant_type": "authorization_code", "scope": "api"}
	if mutate != nil {
		mutate(body)
	}
	raw, _ := json.Marshal(body)
	resp, err := http.Post(c.tokenURL, "application/json", bytes.NewReader(raw))
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.AccessToken
}

// accessToken asks for an API token; it returns the status and the
// answer's error value.
func (c client) accessToken(oauthTok string) (int, string, string) {
	req, _ := http.NewRequest(http.MethodGet, c.accessURL, nil)
	req.Header.Set("Authorization", "Bearer "+oauthTok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err.Error()
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		AccessToken string  `json:"access_token"`
		Error       *string `json:"error"`
	}
	_ = json.Unmarshal(raw, &out)
	e := ""
	if out.Error != nil {
		e = *out.Error
	}
	return resp.StatusCode, out.AccessToken, e
}

func hasProblem(rec addons.InstallReport, substr string) bool {
	for _, p := range rec.Problems {
		if strings.Contains(p, substr) {
			return true
		}
	}
	return false
}

package addons_test

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

// fixtureAddon reads the default fixtures' add-on of e-shop 1001 and its
// API token that does not expire.
func fixtureAddon(t *testing.T) (name, token string) {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, "eshops/1001/credentials.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Addons []struct {
			Name      string `json:"name"`
			APITokens []struct {
				Token     string `json:"token"`
				ExpiresAt string `json:"expiresAt"`
			} `json:"apiTokens"`
		} `json:"addons"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	for _, tok := range c.Addons[0].APITokens {
		if at, _ := sandbox.ParseTime(tok.ExpiresAt); at.After(t0) {
			return c.Addons[0].Name, tok.Token
		}
	}
	t.Fatal("the fixture add-on has no valid API token")
	return "", ""
}

// events records the system events published on the bus.
type events struct {
	mu   sync.Mutex
	list []sandbox.Event
}

func captureEvents(s *sandboxtest.Server) *events {
	e := &events{}
	s.App.Bus.Hook(func(m bus.Message) {
		if m.Topic == bus.TopicEvent && strings.HasPrefix(m.Event.Kind, "addon:") {
			e.mu.Lock()
			e.list = append(e.list, *m.Event)
			e.mu.Unlock()
		}
	})
	return e
}

func (e *events) last() sandbox.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.list) == 0 {
		return sandbox.Event{}
	}
	return e.list[len(e.list)-1]
}

func (e *events) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.list)
}

// TestLifecycle walks the add-on life cycle through the control plane:
// each step sends its system event for the add-on and changes what the
// add-on's token may do; steps from the wrong status answer 409.
func TestLifecycle(t *testing.T) {
	s, _ := start(t)
	name, tok := fixtureAddon(t)
	ev := captureEvents(s)
	steps := []struct {
		action   string
		status   int    // of the control-plane call
		event    string // sent on success
		after    string // add-on status afterwards
		call     int    // status of an API call with the token afterwards
		callCode string
	}{
		{"suspend", 200, "addon:suspend", auth.StatusSuspended, 403, auth.CodeAddonSuspended},
		{"suspend", 409, "", auth.StatusSuspended, 403, auth.CodeAddonSuspended},
		{"resume", 200, "addon:approve", auth.StatusInstalled, 200, ""},
		{"resume", 409, "", auth.StatusInstalled, 200, ""},
		{"terminate", 200, "addon:terminate", auth.StatusTerminated, 401, sandbox.CodeInvalidToken},
		{"resume", 409, "", auth.StatusTerminated, 401, sandbox.CodeInvalidToken},
		{"uninstall", 200, "addon:uninstall", auth.StatusUninstalled, 401, sandbox.CodeInvalidToken},
		{"uninstall", 409, "", auth.StatusUninstalled, 401, sandbox.CodeInvalidToken},
	}
	for i, st := range steps {
		before := ev.count()
		r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/" + st.action})
		if r.Status != st.status {
			t.Fatalf("step %d %s: %d %s", i, st.action, r.Status, r.Body)
		}
		if st.status == 200 {
			var res addons.LifecycleResult
			r.Data(t, &res)
			got := ev.last()
			if ev.count() != before+1 || got.Kind != st.event || got.EshopID != 1001 || got.Instance != "1001" || got.Addon != name || res.Event != st.event {
				t.Fatalf("step %d %s: event %+v (result %q), want %s", i, st.action, got, res.Event, st.event)
			}
			if res.Addon.Status != st.after {
				t.Fatalf("step %d: status %q, want %q", i, res.Addon.Status, st.after)
			}
		} else if ev.count() != before || !strings.Contains(r.Env.Errors[0].Message, "Cannot "+st.action) {
			t.Fatalf("step %d %s refused: events %d→%d, %s", i, st.action, before, ev.count(), r.Body)
		}
		call := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: tok})
		if call.Status != st.call || (st.callCode != "" && call.Env.Errors[0].ErrorCode != st.callCode) {
			t.Fatalf("step %d %s: API call %d %s, want %d %s", i, st.action, call.Status, call.Body, st.call, st.callCode)
		}
		if st.after == auth.StatusTerminated && !strings.Contains(call.Env.Errors[0].Message, "revoked") {
			t.Fatalf("a revoked token must say so: %s", call.Body)
		}
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/no-such/suspend"}); r.Status != 404 {
		t.Fatalf("unknown add-on: %d", r.Status)
	}
}

// TestUninstallRevokesOAuthToken: after an uninstall the add-on's OAuth
// token no longer gives API tokens, and a new install works again.
func TestUninstallRevokesOAuthToken(t *testing.T) {
	s, _ := start(t)
	b := &brokenAddon{}
	var oauthTok string
	b.do = func(c client, w http.ResponseWriter, code string) {
		_, oauthTok = c.exchange(code, nil)
		w.WriteHeader(200)
	}
	v := configure(t, s, 1001, "cycle-addon", map[string]any{"installUrl": serve(t, b) + "/install", "endpoints": []string{"GetListOfOrders"}})
	b.c = clientOf(v)
	if rec := install(t, s, 1001, "cycle-addon"); !rec.Passed {
		t.Fatalf("install: %q", rec.Problems)
	}
	st, apiTok, _ := b.c.accessToken(oauthTok)
	if st != 200 {
		t.Fatalf("API token: %d", st)
	}
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/cycle-addon/approve"})
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: apiTok}); r.Status != 200 {
		t.Fatalf("approved call: %d %s", r.Status, r.Body)
	}
	var res addons.LifecycleResult
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/cycle-addon/uninstall"}).Data(t, &res)
	if res.Revoked.APITokens != 1 || res.Revoked.OAuthTokens != 1 {
		t.Fatalf("revoked %+v", res.Revoked)
	}
	if st, _, e := b.c.accessToken(oauthTok); st != 401 || e != "invalid_token" {
		t.Fatalf("OAuth token after uninstall: %d %q", st, e)
	}
	if r := s.Do(sandboxtest.Call{Path: "/api/orders", AccessToken: apiTok}); r.Status != 401 || !strings.Contains(r.Env.Errors[0].Message, "uninstalled") {
		t.Fatalf("API token after uninstall: %d %s", r.Status, r.Body)
	}
	rec := install(t, s, 1001, "cycle-addon")
	if !rec.Passed || rec.AddonStatus != auth.StatusInstalled {
		t.Fatalf("reinstall: %+v", rec)
	}
	if st, _, _ := b.c.accessToken(oauthTok); st != 200 {
		t.Fatalf("new OAuth token after reinstall: %d", st)
	}
}

// TestSuspendedAddonCannotBeInstalled: a suspended add-on is resumed, not
// installed again.
func TestSuspendedAddonCannotBeInstalled(t *testing.T) {
	s, _ := start(t)
	name, _ := fixtureAddon(t)
	s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/addons/" + name + "/suspend"})
	r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/install", Body: map[string]string{"addon": name}})
	if r.Status != 409 || !strings.Contains(r.Env.Errors[0].Message, "resume") {
		t.Fatalf("install of a suspended add-on: %d %s", r.Status, r.Body)
	}
}

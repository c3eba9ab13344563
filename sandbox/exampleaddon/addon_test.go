package exampleaddon_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
)

var now0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// installed builds the add-on against the fake service and installs it
// (the install request is sent straight to its handler). Sleeps are
// recorded instead of waited.
func installed(t *testing.T, f *fakeService, state string) (*exampleaddon.Addon, *[]time.Duration) {
	t.Helper()
	a, err := exampleaddon.New(exampleaddon.Config{Name: "example-addon", PublicURL: "http://addon.test", APIURL: f.URL,
		OAuthURL: f.URL + "/eshops/5/action/ApiOAuthServer/token", ClientID: "client", ClientSecret: "secret",
		StateFile: state, Events: []string{"order:create"}}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	slept := &[]time.Duration{}
	a.Now = func() time.Time { return now0 }
	a.Sleep = func(_ context.Context, d time.Duration) error {
		mu.Lock()
		*slept = append(*slept, d)
		mu.Unlock()
		return nil
	}
	w := httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/install?code="+strings.Repeat("c", 255), nil))
	if w.Code != 200 || !a.Installation(f.eshopID) {
		t.Fatalf("install: %d %s", w.Code, w.Body)
	}
	return a, slept
}

// TestBackoff: 423 and 429 are retried after what Retry-After says (an
// HTTP date counted from the answer's Date, or seconds), with exponential
// back-off when it is absent, and given up after MaxRetries.
func TestBackoff(t *testing.T) {
	dated := func(status int, date time.Time, retryAfter string) func(http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			w.Header().Set("Date", date.UTC().Format(http.TimeFormat))
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(status)
			_, _ = io.WriteString(w, `{"data":null,"errors":[{"errorCode":"x","message":"busy","instance":"unknown"}]}`)
		}
	}
	answer := func(status int, retryAfter string) func(http.ResponseWriter) { return dated(status, now0, retryAfter) }
	week := now0.Add(7 * 24 * time.Hour) // a server whose clock was moved a week ahead
	ok := func(w http.ResponseWriter) { _, _ = io.WriteString(w, `{"data":{"orders":[]},"errors":null}`) }
	tests := []struct {
		name   string
		script []func(http.ResponseWriter)
		slept  []time.Duration
		status int // of the final error, 0 for success
	}{
		{"429 with an HTTP date", []func(http.ResponseWriter){answer(429, now0.Add(3*time.Second).Format(http.TimeFormat)), ok}, []time.Duration{3 * time.Second}, 0},
		{"the date counts from the answer's Date", []func(http.ResponseWriter){dated(429, week, week.Add(3*time.Second).Format(http.TimeFormat)), ok}, []time.Duration{3 * time.Second}, 0},
		{"423 with seconds", []func(http.ResponseWriter){answer(423, "2"), ok}, []time.Duration{2 * time.Second}, 0},
		{"a date in the past retries at once", []func(http.ResponseWriter){answer(429, now0.Add(-time.Minute).Format(http.TimeFormat)), ok}, []time.Duration{0}, 0},
		{"no Retry-After: 1s, 2s, 4s", []func(http.ResponseWriter){answer(423, ""), answer(429, ""), answer(423, ""), ok}, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, 0},
		{"gives up after 5 retries", []func(http.ResponseWriter){answer(429, "1"), answer(429, "1"), answer(429, "1"), answer(429, "1"), answer(429, "1"), answer(429, "1")},
			[]time.Duration{time.Second, time.Second, time.Second, time.Second, time.Second}, 429},
		{"400 is never retried", []func(http.ResponseWriter){answer(400, "1"), ok}, nil, 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			a, slept := installed(t, f, "")
			f.mu.Lock()
			f.apiScript = tc.script
			f.mu.Unlock()
			err := a.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil)
			var apiErr *exampleaddon.APIError
			if tc.status == 0 && err != nil || tc.status != 0 && (!errors.As(err, &apiErr) || apiErr.Status != tc.status) {
				t.Fatalf("error %v, want status %d", err, tc.status)
			}
			if len(*slept) != len(tc.slept) {
				t.Fatalf("slept %v, want %v", *slept, tc.slept)
			}
			for i := range tc.slept {
				if (*slept)[i] != tc.slept[i] {
					t.Fatalf("slept %v, want %v", *slept, tc.slept)
				}
			}
		})
	}
}

// TestExpiredTokenRefresh: a 401 expired-token makes the add-on fetch a
// new API token and repeat the call once; other 401s are not retried.
func TestExpiredTokenRefresh(t *testing.T) {
	f := newFake(t)
	a, _ := installed(t, f, "")
	expired := func(w http.ResponseWriter) {
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"data":null,"errors":[{"errorCode":"expired-token","message":"expired","instance":"access-token"}]}`)
	}
	f.mu.Lock()
	f.apiScript = []func(http.ResponseWriter){expired}
	f.mu.Unlock()
	if err := a.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil); err != nil {
		t.Fatal(err)
	}
	calls := f.callLog()
	last2 := calls[len(calls)-2:]
	if !strings.HasPrefix(last2[0], "GET /api/orders api-token-1 ") || !strings.HasPrefix(last2[1], "GET /api/orders api-token-2 ") {
		t.Fatalf("calls %q: want the retry with a new token", last2)
	}
	for _, c := range calls {
		if !strings.HasSuffix(c, " application/json") {
			t.Fatalf("call without Content-Type: %q", c)
		}
	}
	// Twice expired in a row: the second is returned, not looped on.
	f.mu.Lock()
	f.apiScript = []func(http.ResponseWriter){expired, expired}
	f.mu.Unlock()
	var apiErr *exampleaddon.APIError
	if err := a.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil); !errors.As(err, &apiErr) || apiErr.Code() != "expired-token" {
		t.Fatalf("second expiry: %v", err)
	}
}

// TestMaximumTokensWait: 429 maximum_tokens_reached on getAccessToken is
// waited out as Retry-After says, then asked again.
func TestMaximumTokensWait(t *testing.T) {
	f := newFake(t)
	a, slept := installed(t, f, "")
	f.mu.Lock()
	f.apiScript = []func(http.ResponseWriter){func(w http.ResponseWriter) {
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"data":null,"errors":[{"errorCode":"expired-token","message":"expired","instance":"access-token"}]}`)
	}}
	f.tokenScript = []func(http.ResponseWriter){func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "7")
		w.WriteHeader(429)
		_, _ = io.WriteString(w, `{"access_token":"","expires_in":0,"error":"maximum_tokens_reached"}`)
	}}
	f.mu.Unlock()
	if err := a.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil); err != nil {
		t.Fatal(err)
	}
	if len(*slept) != 1 || (*slept)[0] != 7*time.Second {
		t.Fatalf("slept %v, want [7s]", *slept)
	}
}

// TestSignature checks the signature against the reference's test
// vector and the ways a signature can be wrong.
func TestSignature(t *testing.T) {
	const key = "example-signature-key"
	body := []byte(`{"eshopId":1,"event":"order:create","eventCreated":"2024-01-31T12:00:00+0100","eventInstance":"2024000001"}`)
	const sig = "b464b874b28eafdeb436b6ee91d598d83417e77b"
	if got := exampleaddon.Sign(key, body); got != sig {
		t.Fatalf("Sign = %s, want the reference's %s", got, sig)
	}
	tests := []struct {
		name      string
		key       string
		body      []byte
		signature string
		ok        bool
	}{
		{"reference vector", key, body, sig, true},
		{"other key", "other-key", body, sig, false},
		{"re-encoded body", key, bytes.ReplaceAll(body, []byte(`,`), []byte(`, `)), sig, false},
		{"upper-case hex", key, body, strings.ToUpper(sig), false},
		{"no signature", key, body, "", false},
		{"no key yet", "", body, sig, false},
	}
	for _, tc := range tests {
		if got := exampleaddon.Verify(tc.key, tc.body, tc.signature); got != tc.ok {
			t.Errorf("%s: Verify = %v, want %v", tc.name, got, tc.ok)
		}
	}
}

// TestWebhooks: signed notifications are answered 200 and processed
// (an order is fetched, system events change the installation); badly
// signed ones are answered 401 and ignored.
func TestWebhooks(t *testing.T) {
	f := newFake(t)
	a, _ := installed(t, f, "")
	post := func(body, sig string) int {
		req := httptest.NewRequest("POST", "/webhooks", strings.NewReader(body))
		if sig != "" {
			req.Header.Set("Service-Webhook-Signature", sig)
		}
		w := httptest.NewRecorder()
		a.Handler().ServeHTTP(w, req)
		a.Wait()
		return w.Code
	}
	order := `{"eshopId":5,"event":"order:create","eventCreated":"2026-03-02T10:00:00+0100","eventInstance":"2026000042"}`
	tests := []struct {
		name   string
		body   string
		sig    string
		status int
		result string
	}{
		{"signed order:create", order, exampleaddon.Sign(f.signatureKey, []byte(order)), 200, "fetched order 2026000042 (New)"},
		{"bad signature", order, exampleaddon.Sign("wrong", []byte(order)), 401, "rejected: bad signature"},
		{"unsigned", order, "", 401, "rejected: bad signature"},
		{"unknown e-shop", strings.Replace(order, `"eshopId":5`, `"eshopId":6`, 1), exampleaddon.Sign(f.signatureKey, []byte(strings.Replace(order, `"eshopId":5`, `"eshopId":6`, 1))), 401, "rejected: bad signature"},
		{"not a notification", `[1,2]`, "", 400, ""},
		{"addon:suspend", sys("addon:suspend"), exampleaddon.Sign(f.signatureKey, []byte(sys("addon:suspend"))), 200, "suspended: no API calls until addon:approve"},
		{"order while suspended", order, exampleaddon.Sign(f.signatureKey, []byte(order)), 200, "ignored while suspended"},
		{"addon:approve", sys("addon:approve"), exampleaddon.Sign(f.signatureKey, []byte(sys("addon:approve"))), 200, "resumed"},
		{"addon:uninstall", sys("addon:uninstall"), exampleaddon.Sign(f.signatureKey, []byte(sys("addon:uninstall"))), 200, "forgot the installation and its tokens"},
	}
	for _, tc := range tests {
		if got := post(tc.body, tc.sig); got != tc.status {
			t.Fatalf("%s: status %d, want %d", tc.name, got, tc.status)
		}
		if tc.result == "" {
			continue
		}
		ev := a.Status().Events
		if len(ev) == 0 || ev[len(ev)-1].Result != tc.result || ev[len(ev)-1].Verified != (tc.status == 200) {
			t.Fatalf("%s: last event %+v, want result %q", tc.name, ev, tc.result)
		}
	}
	if a.Installation(f.eshopID) {
		t.Fatal("still installed after addon:uninstall")
	}
}

func sys(event string) string {
	return `{"eshopId":5,"event":"` + event + `","eventCreated":"2026-03-02T10:00:00+0100","eventInstance":"5"}`
}

// TestSetupCalls: after the exchange the add-on learns its e-shop, gets
// a signature key and registers its webhooks, and keeps its secrets in a
// state file only its owner can read, from which a restart resumes.
func TestSetupCalls(t *testing.T) {
	f := newFake(t)
	state := filepath.Join(t.TempDir(), "state", "addon.json")
	installed(t, f, state)
	var got []string
	for _, c := range f.callLog() {
		got = append(got, strings.Join(strings.Fields(c)[:2], " "))
	}
	want := []string{"GET /api/eshop", "POST /api/webhooks/renew-signature-key", "POST /api/webhooks"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("set-up calls %v, want %v", got, want)
	}
	st, err := os.Stat(state)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", st, err)
	}
	raw, _ := os.ReadFile(state)
	if !bytes.Contains(raw, []byte("oauth-token")) || !bytes.Contains(raw, []byte(f.signatureKey)) {
		t.Fatalf("state file lacks the OAuth token or the key: %s", raw)
	}
	again, err := exampleaddon.New(exampleaddon.Config{APIURL: f.URL, OAuthURL: f.URL + "/eshops/5/action/ApiOAuthServer/token", StateFile: state}, quietLog())
	if err != nil || !again.Installation(f.eshopID) {
		t.Fatalf("restart from the state file: %v", err)
	}
	if err := again.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil); err != nil {
		t.Fatalf("call after restart: %v", err)
	}
}

// TestFailedExchange: when the exchange fails the add-on answers the
// install request with an error status, never 200.
func TestFailedExchange(t *testing.T) {
	f := newFake(t)
	a, err := exampleaddon.New(exampleaddon.Config{PublicURL: "http://addon.test", APIURL: f.URL, OAuthURL: f.URL + "/eshops/5/action/ApiOAuthServer/token",
		ClientID: "client", ClientSecret: "wrong"}, quietLog())
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/install?code=abc", nil))
	if w.Code != http.StatusBadGateway || !strings.Contains(w.Body.String(), "bad exchange") || a.Installation(f.eshopID) {
		t.Fatalf("failed exchange answered %d %q", w.Code, w.Body)
	}
	w = httptest.NewRecorder()
	a.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/install", nil))
	if w.Code != http.StatusBadRequest {
		t.Fatalf("no code answered %d", w.Code)
	}
}

// TestAtMostThreeCallsAtOnce: notifications are processed in parallel,
// but the add-on never has more than three calls open with its token
// (the spec's limit); the others wait for a free slot.
func TestAtMostThreeCallsAtOnce(t *testing.T) {
	f := newFake(t)
	var mu sync.Mutex
	open, most := 0, 0
	slow := func(w http.ResponseWriter) {
		mu.Lock()
		open++
		most = max(most, open)
		mu.Unlock()
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		open--
		mu.Unlock()
		_, _ = io.WriteString(w, `{"data":{"orders":[]},"errors":null}`)
	}
	const calls = 9
	f.mu.Lock()
	for i := 0; i < calls; i++ {
		f.apiScript = append(f.apiScript, slow)
	}
	f.mu.Unlock()
	a, _ := installed(t, f, "")
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- a.API(context.Background(), f.eshopID, "GET", "/api/orders", nil, nil)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if most != exampleaddon.MaxConcurrentCalls {
		t.Fatalf("at most %d calls were open at once, want %d (the limit, reached by %d parallel calls)", most, exampleaddon.MaxConcurrentCalls, calls)
	}
}

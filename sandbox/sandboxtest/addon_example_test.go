package sandboxtest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestWholeAddon is the README's "In Go tests" add-on test: an add-on
// installed through the handshake, told of a new order by a webhook,
// reading the order through one 429 and moving it to another status,
// with a clean contract report at the end. Every step goes through the
// kit; no step sleeps.
func TestWholeAddon(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	addon := newTinyAddon(t, s)

	// Register the add-on: its credentials and the OAuth addresses come back.
	reg := s.Register("tiny", controlclient.AddonConfig{
		InstallURL: addon.URL + "/install",
		WebhookURL: addon.URL + "/webhook",
		Endpoints:  []string{"all"},
		Approved:   true,
	})
	addon.configure(reg.ClientID, reg.ClientSecret, reg.RedirectURI, reg.TokenURL, reg.AccessTokenURL)

	s.Install("tiny") // fails the test with the handshake's problems

	// The add-on's first order read answers 429; the fault goes at cleanup.
	fault := s.AddFault(map[string]any{
		"match":   map[string]any{"operation": "GetOrderDetail", "addon": "tiny", "times": 1},
		"respond": map[string]any{"status": 429, "retryAfter": "1s"},
	})

	s.Emit("order:create", "2025000001")
	s.WaitForDelivery("order:create")
	s.WaitForOrderStatus("2025000001", -2)

	if f := s.Fault(fault.ID); f.Hits != 1 {
		t.Errorf("the 429 fault acted %d times, want 1", f.Hits)
	}
	s.RequireCleanReport()
}

// tinyAddon is an add-on in a few lines: it exchanges the install code,
// registers a webhook for order:create, and on each new order reads it
// (waiting out a 429) and moves it to status -2.
type tinyAddon struct {
	*httptest.Server
	s *sandboxtest.Server

	mu                                        sync.Mutex
	clientID, secret, redirect, token, access string
	oauthToken                                string
}

func newTinyAddon(t *testing.T, s *sandboxtest.Server) *tinyAddon {
	a := &tinyAddon{s: s}
	mux := http.NewServeMux()
	mux.HandleFunc("/install", a.install)
	mux.HandleFunc("/webhook", a.webhook)
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	return a
}

func (a *tinyAddon) configure(id, secret, redirect, tokenURL, accessURL string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.clientID, a.secret, a.redirect, a.token, a.access = id, secret, redirect, tokenURL, accessURL
}

func (a *tinyAddon) install(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	body, _ := json.Marshal(map[string]string{"client_id": a.clientID, "client_secret": a.secret, "code": r.URL.Query().Get("code"),
		"redirect_uri": a.redirect, "grant_type": "authorization_code", "scope": "api"})
	tokenURL := a.token
	a.mu.Unlock()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := a.send(http.MethodPost, tokenURL, "", body, &out); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	a.mu.Lock()
	a.oauthToken = out.AccessToken
	a.mu.Unlock()
	hook, _ := json.Marshal(map[string]any{"data": []map[string]string{{"event": "order:create", "url": a.URL + "/webhook"}}})
	if err := a.api(http.MethodPost, "/api/webhooks", hook, nil); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	fmt.Fprintln(w, "installed")
}

func (a *tinyAddon) webhook(w http.ResponseWriter, r *http.Request) {
	var ev struct {
		Instance string `json:"eventInstance"`
	}
	if err := json.NewDecoder(r.Body).Decode(&ev); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusOK) // acknowledge at once; work after
	go func() {
		if err := a.api(http.MethodGet, "/api/orders/"+ev.Instance, nil, nil); err != nil {
			return
		}
		_ = a.api(http.MethodPatch, "/api/orders/"+ev.Instance+"/status", []byte(`{"data":{"statusId":-2}}`), nil)
	}()
}

// api calls the e-shop's API with a fresh API token, waiting out a 429
// for its Retry-After.
func (a *tinyAddon) api(method, path string, body []byte, out any) error {
	a.mu.Lock()
	oauth, accessURL := a.oauthToken, a.access
	a.mu.Unlock()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := a.send(http.MethodGet, accessURL, "Bearer "+oauth, nil, &tok); err != nil {
		return err
	}
	for range 3 {
		req, _ := http.NewRequest(method, a.s.URL+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(a.s.Headers.AccessToken, tok.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			time.Sleep(retryAfter(resp.Header.Get("Retry-After"))) // the add-on's back-off, not a test's wait
			continue
		}
		if resp.StatusCode >= 300 {
			return fmt.Errorf("%s %s: %s", method, path, resp.Status)
		}
		return nil
	}
	return fmt.Errorf("%s %s: still throttled", method, path)
}

func (a *tinyAddon) send(method, url, authorization string, body []byte, out any) error {
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string) time.Duration {
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(secs) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		return time.Until(at)
	}
	return time.Second
}

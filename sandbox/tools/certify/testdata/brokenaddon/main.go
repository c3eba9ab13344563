// Command brokenaddon is a small add-on that follows the platform's rules
// except the one --break names, for the certify tests: each breakage must
// fail exactly its check.
//
//	--break answer-early        answers the install 200, then exchanges the code
//	--break ignore-signature    accepts webhooks whatever their signature
//	--break retry-422           sends a request answered 400 or 422 again, unchanged
//	--break ignore-retry-after  repeats a call answered 423 or 429 at once
//	--break keep-expired-token  repeats a call answered 401 expired-token with the same token
//	--break retry-503           repeats a call answered 503 (maintenance) after a short pause
//	--break refuse-webhooks     refuses every webhook, correctly signed or not
//	--break silent              exchanges the install's code and makes no API call at all
//
// --process-orders makes it act on new orders as an order-processing
// add-on does: an order:create whose order is in the e-shop's default
// status is moved on to the next status (PATCH /api/orders/{code}/status);
// any other order is only read.
//
// It reads what certify puts in its environment (SANDBOX_URL,
// SANDBOX_ESHOP_URL, SANDBOX_OAUTH_URL, SANDBOX_CLIENT_ID,
// SANDBOX_CLIENT_SECRET) and listens on --listen; its install URL is
// http://<listen>/install, its webhooks /webhooks.
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type addon struct {
	brk                  string
	process              bool
	api, eshopURL, oauth string
	clientID, secret     string
	self                 string
	client               *http.Client
	slots                chan struct{}

	mu         sync.Mutex
	oauthToken string
	apiToken   string
	sigKey     string
}

func main() {
	listen := flag.String("listen", "127.0.0.1:9393", "address to listen on")
	brk := flag.String("break", "", "the one rule to break")
	process := flag.Bool("process-orders", false, "move new orders in the default status on to the next status")
	flag.Parse()
	a := &addon{brk: *brk, process: *process, api: os.Getenv("SANDBOX_URL"), eshopURL: os.Getenv("SANDBOX_ESHOP_URL"), oauth: os.Getenv("SANDBOX_OAUTH_URL"),
		clientID: os.Getenv("SANDBOX_CLIENT_ID"), secret: os.Getenv("SANDBOX_CLIENT_SECRET"), self: "http://" + *listen,
		client: &http.Client{Timeout: 10 * time.Second}, slots: make(chan struct{}, 3)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /install", a.install)
	mux.HandleFunc("POST /webhooks", a.webhook)
	srv := &http.Server{Addr: *listen, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	log.Printf("brokenaddon: listening on %s, breaking %q", *listen, *brk)
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

func (a *addon) install(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if a.brk == "answer-early" {
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		go func() {
			time.Sleep(100 * time.Millisecond)
			if err := a.exchange(code); err == nil {
				a.setup()
			}
		}()
		return
	}
	if err := a.exchange(code); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	a.setup()
	fmt.Fprintln(w, "installed")
}

func (a *addon) exchange(code string) error {
	body, _ := json.Marshal(map[string]string{"client_id": a.clientID, "client_secret": a.secret, "code": code,
		"redirect_uri": a.self + "/install", "grant_type": "authorization_code", "scope": "api"})
	resp, err := a.client.Post(a.oauth, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		return fmt.Errorf("exchange: HTTP %d", resp.StatusCode)
	}
	a.mu.Lock()
	a.oauthToken, a.apiToken = out.AccessToken, ""
	a.mu.Unlock()
	return nil
}

// setup fetches the signature key and registers order:create.
func (a *addon) setup() {
	if a.brk == "silent" {
		return
	}
	var key struct {
		SignatureKey string `json:"signatureKey"`
	}
	if _, err := a.call("POST", "/api/webhooks/renew-signature-key", nil, &key); err == nil {
		a.mu.Lock()
		a.sigKey = key.SignatureKey
		a.mu.Unlock()
	}
	_, _ = a.call("POST", "/api/webhooks", map[string]any{"data": []map[string]string{{"event": "order:create", "url": a.self + "/webhooks"}}}, nil)
}

func (a *addon) token(fresh bool) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.apiToken != "" && !fresh {
		return a.apiToken, nil
	}
	req, _ := http.NewRequest("GET", a.eshopURL+"/action/ApiOAuthServer/getAccessToken", nil)
	req.Header.Set("Authorization", "Bearer "+a.oauthToken)
	resp, err := a.client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		return "", fmt.Errorf("getAccessToken: HTTP %d", resp.StatusCode)
	}
	a.apiToken = out.AccessToken
	return a.apiToken, nil
}

// call sends one API call and follows the rules, but for the broken one.
func (a *addon) call(method, path string, body, out any) (int, error) {
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	tok, err := a.token(false)
	if err != nil {
		return 0, err
	}
	refreshed, retried := false, 0
	for {
		status, header, raw, err := a.send(method, path, tok, payload)
		if err != nil {
			return 0, err
		}
		switch {
		case status/100 == 2:
			if out != nil {
				var env struct {
					Data json.RawMessage `json:"data"`
				}
				if err := json.Unmarshal(raw, &env); err == nil {
					_ = json.Unmarshal(env.Data, out)
				}
			}
			return status, nil
		case status == 401 && bytes.Contains(raw, []byte("expired-token")) && !refreshed:
			refreshed = true
			if a.brk != "keep-expired-token" {
				if tok, err = a.token(true); err != nil {
					return 0, err
				}
			}
			continue
		case (status == 423 || status == 429) && retried < 3:
			retried++
			if a.brk != "ignore-retry-after" {
				time.Sleep(wait(header))
			}
			continue
		case (status == 400 || status == 422) && a.brk == "retry-422" && retried == 0:
			retried++
			continue
		case status == 503 && a.brk == "retry-503" && retried < 3:
			retried++
			time.Sleep(200 * time.Millisecond) // not the minutes the spec asks for
			continue
		}
		return status, fmt.Errorf("%s %s: HTTP %d", method, path, status)
	}
}

func (a *addon) send(method, path, tok string, payload []byte) (int, http.Header, []byte, error) {
	a.slots <- struct{}{}
	defer func() { <-a.slots }()
	req, err := http.NewRequest(method, a.api+path, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-Access-Token", tok)
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, raw, err
}

// wait is how long Retry-After asks for (an HTTP date or seconds).
func wait(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
		return 0
	}
	return time.Second
}

func (a *addon) webhook(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	a.mu.Lock()
	key := a.sigKey
	a.mu.Unlock()
	m := hmac.New(sha1.New, []byte(key))
	m.Write(body)
	good := key != "" && hmac.Equal([]byte(hex.EncodeToString(m.Sum(nil))), []byte(r.Header.Get("Service-Webhook-Signature")))
	if (!good && a.brk != "ignore-signature") || a.brk == "refuse-webhooks" {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	w.WriteHeader(http.StatusOK)
	var n struct {
		Event    string `json:"event"`
		Instance string `json:"eventInstance"`
	}
	if json.Unmarshal(body, &n) == nil && strings.HasPrefix(n.Event, "order:") {
		if a.process && n.Event == "order:create" {
			go a.processOrder(n.Instance)
			return
		}
		go func() { _, _ = a.call("GET", "/api/orders/"+n.Instance, nil, nil) }()
	}
}

// processOrder moves a new order (one in the default status) on to the
// status after it.
func (a *addon) processOrder(code string) {
	var order struct {
		Order struct {
			Status struct {
				ID int `json:"id"`
			} `json:"status"`
		} `json:"order"`
	}
	if _, err := a.call("GET", "/api/orders/"+code, nil, &order); err != nil {
		return
	}
	var list struct {
		Default  int `json:"defaultStatus"`
		Statuses []struct {
			ID int `json:"id"`
		} `json:"statuses"`
	}
	if _, err := a.call("GET", "/api/orders/statuses", nil, &list); err != nil || order.Order.Status.ID != list.Default {
		return
	}
	for i, st := range list.Statuses {
		if st.ID == list.Default && i+1 < len(list.Statuses) {
			_, _ = a.call("PATCH", "/api/orders/"+code+"/status", map[string]any{"data": map[string]any{"statusId": list.Statuses[i+1].ID}}, nil)
			return
		}
	}
}

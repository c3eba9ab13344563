// Package evtest holds the helpers the event-side HTTP tests share
// (webhooks, jobs, files, templates, clock): a sandbox on a frozen clock
// with limits off, the fixture tokens, a loopback receiver, clock moves
// through the control plane and webhook registration.
package evtest

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks/webhookstest"
)

// T0 is where the tests' clock starts.
var T0 = time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)

// Env is one sandbox with its e-shop 1001 credentials and a receiver.
type Env struct {
	T     *testing.T
	S     *sandboxtest.Server
	Token string // e-shop 1001 private token with every right
	Addon string // e-shop 1001 add-on API token (valid)
	Other string // e-shop 1002 private token
	R     *webhookstest.Receiver
}

// Start runs a sandbox on a frozen clock at T0 with the limits off (the
// tests make many calls without moving the clock), plus a receiver.
// cfg may set the webhook options; its Clock and Limits are replaced.
func Start(t *testing.T, cfg sandbox.Config) *Env {
	t.Helper()
	cfg.Clock = sandbox.NewFrozenClock(T0)
	cfg.Limits = &sandbox.Limits{Off: true}
	s := sandboxtest.New(t, cfg)
	e := &Env{T: t, S: s, R: webhookstest.New(t, s.Headers.WebhookSig)}
	e.Token = token(t, 1001, func(p privateToken) bool { return string(p.Rights) == `"all"` })
	e.Other = token(t, 1002, func(p privateToken) bool { return string(p.Rights) == `"all"` })
	var c credentials
	read(t, "eshops/1001/credentials.json", &c)
	for _, a := range c.Addons {
		for _, tok := range a.APITokens {
			if exp, err := sandbox.ParseTime(tok.ExpiresAt); err == nil && exp.After(T0) {
				e.Addon = tok.Token
			}
		}
	}
	if e.Token == "" || e.Addon == "" || e.Other == "" {
		t.Fatal("fixtures lack the tokens the tests need")
	}
	return e
}

type privateToken struct {
	Token  string          `json:"token"`
	Rights json.RawMessage `json:"rights"`
}

type credentials struct {
	PrivateTokens []privateToken `json:"privateTokens"`
	Addons        []struct {
		Name      string `json:"name"`
		APITokens []struct {
			Token     string `json:"token"`
			ExpiresAt string `json:"expiresAt"`
		} `json:"apiTokens"`
	} `json:"addons"`
}

func token(t *testing.T, eshop int, pick func(privateToken) bool) string {
	var c credentials
	read(t, "eshops/"+itoa(eshop)+"/credentials.json", &c)
	for _, p := range c.PrivateTokens {
		if pick(p) {
			return p.Token
		}
	}
	return ""
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Read decodes a fixture file.
func Read(t *testing.T, path string, v any) { read(t, path, v) }

func read(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Call sends a request with the full-rights private token of 1001.
func (e *Env) Call(method, path string, body any) *sandboxtest.Response {
	e.T.Helper()
	return e.S.Do(sandboxtest.Call{Method: method, Path: path, PrivateToken: e.Token, Body: body})
}

// Control sends a control-plane request.
func (e *Env) Control(method, path string, body any) *sandboxtest.Response {
	e.T.Helper()
	return e.S.Do(sandboxtest.Call{Method: method, Path: path, Body: body})
}

// Advance moves the sandbox clock through the control plane.
func (e *Env) Advance(d string) {
	e.T.Helper()
	if r := e.Control(http.MethodPost, "/_sandbox/clock", map[string]any{"advance": d}); r.Status != 200 {
		e.T.Fatalf("advance %s: %d %s", d, r.Status, r.Body)
	}
}

// RenewKey issues the e-shop's signature key.
func (e *Env) RenewKey() string {
	e.T.Helper()
	r := e.Call(http.MethodPost, "/api/webhooks/renew-signature-key", nil)
	var d struct {
		SignatureKey string `json:"signatureKey"`
	}
	if r.Status != 200 {
		e.T.Fatalf("renew key: %d %s", r.Status, r.Body)
	}
	r.Data(e.T, &d)
	return d.SignatureKey
}

// Register registers the events at the receiver.
func (e *Env) Register(events ...string) {
	e.T.Helper()
	rows := make([]map[string]string, len(events))
	for i, ev := range events {
		rows[i] = map[string]string{"event": ev, "url": e.R.URL}
	}
	if r := e.Call(http.MethodPost, "/api/webhooks", map[string]any{"data": rows}); r.Status != 201 {
		e.T.Fatalf("register %v: %d %s", events, r.Status, r.Body)
	}
}

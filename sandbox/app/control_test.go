package app_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestControlPlane checks health, the e-shop listing with credentials and
// reset to the fixtures.
func TestControlPlane(t *testing.T) {
	s, f := start(t)
	r := s.Do(sandboxtest.Call{Path: "/_sandbox/health", ContentType: "-"})
	if r.Status != 200 {
		t.Fatalf("health: %d %s", r.Status, r.Body)
	}
	var es struct {
		Eshops []struct {
			ID            int    `json:"id"`
			EshopURL      string `json:"eshopUrl"`
			PrivateTokens []struct {
				Token     string            `json:"token"`
				Rights    map[string]string `json:"rights"`
				AllGroups bool              `json:"allGroups"`
			} `json:"privateTokens"`
			Addons []struct {
				ClientID     string `json:"clientId"`
				ClientSecret string `json:"clientSecret"`
				InstallURL   string `json:"installUrl"`
				APITokens    []struct {
					Token   string `json:"token"`
					Expired bool   `json:"expired"`
				} `json:"apiTokens"`
			} `json:"addons"`
		} `json:"eshops"`
	}
	s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"}).Data(t, &es)
	if len(es.Eshops) != 2 || es.Eshops[0].ID != 1001 || es.Eshops[0].EshopURL != s.URL+"/eshops/1001" {
		t.Fatalf("eshops: %+v", es.Eshops)
	}
	e := es.Eshops[0]
	if len(e.PrivateTokens) != 2 || len(e.Addons) != 1 || e.Addons[0].ClientSecret == "" || e.Addons[0].InstallURL == "" || len(e.Addons[0].APITokens) != 2 {
		t.Fatalf("credentials: %+v", e)
	}
	expired := 0
	for _, tok := range e.Addons[0].APITokens {
		if tok.Expired {
			expired++
		}
	}
	if expired != 1 {
		t.Fatalf("want one expired API token, got %d", expired)
	}

	// A write, then reset: the write is gone.
	var params []map[string]any
	readJSON(t, "eshops/1001/surcharge-parameters.json", &params)
	code := params[0]["code"].(string)
	s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/" + code, PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{"code": "renamed"}}})
	if r := s.Do(sandboxtest.Call{Path: "/api/products/surcharge-parameters/renamed", PrivateToken: f.FullToken}); r.Status == 404 && r.Env.Errors[0].ErrorCode == "not-found" {
		t.Fatal("rename did not take")
	}
	if r := s.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/reset"}); r.Status != 200 {
		t.Fatalf("reset: %d %s", r.Status, r.Body)
	}
	var sp struct {
		SurchargeParameter map[string]any `json:"surchargeParameter"`
	}
	r = s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/" + code, PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{}}})
	if r.Status != 200 {
		t.Fatalf("after reset the original code must answer: %d %s", r.Status, r.Body)
	}
	r.Data(t, &sp)
	if r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/renamed", PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{}}}); r.Status != 404 {
		t.Fatalf("after reset the renamed code must be gone: %d", r.Status)
	}
}

// TestDataFileSurvivesRestart checks --data: a write survives closing and
// reopening the sandbox, and the data file is not seeded over.
func TestDataFileSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.db")
	f := loadFacts(t)
	var params []map[string]any
	readJSON(t, "eshops/1001/surcharge-parameters.json", &params)
	code := params[0]["code"].(string)

	s := sandboxtest.New(t, sandbox.Config{DataFile: path})
	r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/" + code, PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{"code": "kept-after-restart"}}})
	if r.Status != 200 {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	if err := s.App.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	s2 := sandboxtest.New(t, sandbox.Config{DataFile: path})
	if r := s2.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/kept-after-restart", PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{}}}); r.Status != 200 {
		t.Fatalf("after restart: %d %s", r.Status, r.Body)
	}
	if r := s2.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/products/surcharge-parameters/" + code, PrivateToken: f.FullToken, Body: map[string]any{"data": map[string]any{}}}); r.Status != 404 {
		t.Fatalf("the data file was seeded over: %d", r.Status)
	}
}

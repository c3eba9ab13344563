package control_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/control"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestEveryControlRouteHasSummary: the index is built from the live route
// table, so a control route without a summary would show an empty line.
func TestEveryControlRouteHasSummary(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	n := 0
	for _, rt := range s.App.Routes() {
		if !rt.IsControl() {
			continue
		}
		n++
		if strings.TrimSpace(rt.Summary) == "" {
			t.Errorf("control route %s (%s %s) has no Summary", rt.Operation, rt.Method, rt.Path)
		}
		if strings.Contains(rt.Summary, "\n") {
			t.Errorf("control route %s: the summary is more than one line", rt.Operation)
		}
	}
	if n < 40 {
		t.Fatalf("only %d control routes in the table", n)
	}
}

func get(t *testing.T, url, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// TestIndexJSON: GET /_sandbox/ lists every control route of the table
// with its summary, every e-shop's tokens, the version and working links.
func TestIndexJSON(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Version: "v1.2.3-test"})
	for _, path := range []string{"/_sandbox/", "/_sandbox"} {
		for _, accept := range []string{"", "*/*", "application/json"} {
			resp, body := get(t, s.URL+path, accept)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Fatalf("%s Accept %q: %d %s", path, accept, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			var env struct{ Data control.Index }
			if err := json.Unmarshal(body, &env); err != nil {
				t.Fatal(err)
			}
			ix := env.Data
			if ix.Version != "v1.2.3-test" || ix.BaseURL != s.URL {
				t.Fatalf("version %q base %q", ix.Version, ix.BaseURL)
			}
			listed := map[string]string{}
			for _, r := range ix.Routes {
				listed[r.Method+" "+r.Path] = r.Summary
			}
			for _, rt := range s.App.Routes() {
				if !rt.IsControl() || rt.Path == "/_sandbox" {
					continue // the bare path is an alias of /_sandbox/
				}
				if sum, ok := listed[rt.Method+" "+rt.Template()]; !ok || sum != rt.Summary {
					t.Errorf("%s %s missing from the index (or another summary: %q)", rt.Method, rt.Template(), sum)
				}
			}
			if _, ok := listed["POST /_sandbox/eshops/{eshopId}/install"]; !ok {
				t.Errorf("path templates should drop mux patterns: %v", listed)
			}
			want := s.Do(sandboxtest.Call{Path: "/_sandbox/eshops"})
			var eshops struct{ Eshops []control.EshopView }
			want.Data(t, &eshops)
			if len(ix.Eshops) != len(eshops.Eshops) || len(ix.Eshops) < 2 {
				t.Fatalf("%d e-shops in the index, %d in /_sandbox/eshops", len(ix.Eshops), len(eshops.Eshops))
			}
			for i, e := range eshops.Eshops {
				if ix.Eshops[i].ID != e.ID || len(ix.Eshops[i].PrivateTokens) != len(e.PrivateTokens) || len(e.PrivateTokens) == 0 {
					t.Fatalf("e-shop %d: tokens differ from /_sandbox/eshops", e.ID)
				}
			}
			for name, link := range map[string]string{"openapi": ix.Links.OpenAPI, "controlOpenapi": ix.Links.ControlOpenAPI,
				"har": ix.Links.HAR, "traffic": ix.Links.Traffic, "health": ix.Links.Health} {
				if !strings.HasPrefix(link, s.URL+"/_sandbox/") {
					t.Fatalf("link %s = %q", name, link)
				}
				if r, _ := get(t, link, ""); r.StatusCode != 200 {
					t.Errorf("link %s %s answers %d", name, link, r.StatusCode)
				}
			}
		}
	}
}

// TestIndexHTML: a browser gets a page with the same routes and tokens.
func TestIndexHTML(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	resp, body := get(t, s.URL+"/_sandbox/", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	page := string(body)
	for _, want := range []string{"sandbox control plane", "version <code>dev</code>",
		"/_sandbox/openapi.json", "/_sandbox/openapi-control.json", "/_sandbox/traffic.har",
		"sbx_prv_538318d5dbe63220d64365f084946f66", "sbx_prv_584f13b881acaeaea6bc9b22328bf488",
		`<a href="/_sandbox/health">/_sandbox/health</a>`, "/_sandbox/eshops/{eshopId}/install", "Move the clock"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, rt := range s.App.Routes() {
		if rt.IsControl() && !strings.Contains(page, rt.Template()) {
			t.Errorf("page lacks %s", rt.Template())
		}
	}
}

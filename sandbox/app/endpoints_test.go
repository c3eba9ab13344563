package app_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

type endpointList struct {
	Endpoints []struct {
		Endpoint    string  `json:"endpoint"`
		Description string  `json:"description"`
		Access      string  `json:"access"`
		Action      *string `json:"action"`
		Group       struct {
			ID          int    `json:"id"`
			Description string `json:"description"`
		} `json:"group"`
	} `json:"endpoints"`
}

// TestSystemEndpoints checks GET /api/system/endpoints for both access
// modes and both statuses.
func TestSystemEndpoints(t *testing.T) {
	s, f := start(t)
	list := func(token, addon, query string) endpointList {
		t.Helper()
		var l endpointList
		r := s.Do(sandboxtest.Call{Path: "/api/system/endpoints" + query, PrivateToken: token, AccessToken: addon})
		if r.Status != 200 {
			t.Fatalf("%s: %d %s", query, r.Status, r.Body)
		}
		r.Data(t, &l)
		return l
	}
	full := list(f.FullToken, "", "")
	if len(full.Endpoints) != 328 {
		t.Fatalf("a token with every group lists %d endpoints, want 328", len(full.Endpoints))
	}
	for _, e := range full.Endpoints {
		if e.Action != nil || e.Group.ID == 0 || e.Description == "" || (e.Access != "read" && e.Access != "write") {
			t.Fatalf("bad entry %+v", e)
		}
	}
	ro := list(f.OrdersReadToken, "", "?status=approved")
	if len(ro.Endpoints) == 0 || len(ro.Endpoints) >= 50 {
		t.Fatalf("read-only orders token lists %d endpoints", len(ro.Endpoints))
	}
	for _, e := range ro.Endpoints {
		if e.Access != "read" || e.Group.Description != "Orders" {
			t.Fatalf("read-only orders token lists %+v", e)
		}
	}
	if p := list(f.FullToken, "", "?status=pending"); len(p.Endpoints) != 0 {
		t.Fatalf("pending must be empty for private tokens, got %d", len(p.Endpoints))
	}
	approved := list("", f.AddonToken, "")
	pending := list("", f.AddonToken, "?status=pending")
	if len(approved.Endpoints) == 0 || len(pending.Endpoints) == 0 {
		t.Fatalf("add-on: %d approved, %d pending", len(approved.Endpoints), len(pending.Endpoints))
	}
	for _, e := range approved.Endpoints {
		if e.Action != nil {
			t.Fatalf("approved entry with action: %+v", e)
		}
	}
	for _, e := range pending.Endpoints {
		if e.Action == nil || (*e.Action != "add" && *e.Action != "edit" && *e.Action != "delete") {
			t.Fatalf("pending entry without action: %+v", e)
		}
	}
	r := s.Do(sandboxtest.Call{Path: "/api/system/endpoints?status=maybe", PrivateToken: f.FullToken})
	if r.Status != 400 || r.Env.Errors[0].Instance != "status" {
		t.Fatalf("bad status: %d %s", r.Status, r.Body)
	}
}

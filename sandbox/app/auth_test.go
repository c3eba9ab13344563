package app_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestAuthentication walks the spec's "Authentication" rules through real
// HTTP: both headers, every 401 and 403, and e-shop isolation.
func TestAuthentication(t *testing.T) {
	s, f := start(t)
	order := f.Orders[0]["code"].(string)
	tests := []struct {
		name     string
		call     sandboxtest.Call
		status   int
		code     string
		instance string
	}{
		{"private full token", sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken}, 200, "", ""},
		{"add-on token on approved endpoint", sandboxtest.Call{Path: "/api/orders", AccessToken: f.AddonToken}, 200, "", ""},
		{"no token", sandboxtest.Call{Path: "/api/eshop"}, 401, "missing-access-token", "access-token"},
		{"unknown private token", sandboxtest.Call{Path: "/api/eshop", PrivateToken: "sbx_prv_00000000000000000000000000000000"}, 401, "invalid-token", "access-token"},
		{"unknown add-on token", sandboxtest.Call{Path: "/api/eshop", AccessToken: "sbx_api_00000000000000000000000000000000"}, 401, "invalid-token", "access-token"},
		{"expired add-on token", sandboxtest.Call{Path: "/api/orders", AccessToken: f.ExpiredToken}, 401, "expired-token", "access-token"},
		{"private token in the add-on header", sandboxtest.Call{Path: "/api/eshop", AccessToken: f.FullToken}, 401, "invalid-token", "access-token"},
		{"read-only orders token reads orders", sandboxtest.Call{Path: "/api/orders", PrivateToken: f.OrdersReadToken}, 200, "", ""},
		{"read-only orders token reads an order", sandboxtest.Call{Path: "/api/orders/" + order, PrivateToken: f.OrdersReadToken}, 200, "", ""},
		{"read-only orders token cannot read products", sandboxtest.Call{Path: "/api/products", PrivateToken: f.OrdersReadToken}, 403, "invalid-token-no-rights", "access-token"},
		{"read-only orders token cannot write", sandboxtest.Call{Method: "PATCH", Path: "/api/orders/" + order + "/status", PrivateToken: f.OrdersReadToken, Body: map[string]any{"data": map[string]any{"statusId": -2}}}, 403, "invalid-token-no-rights", "access-token"},
		{"add-on token on endpoint never requested", sandboxtest.Call{Path: "/api/customers", AccessToken: f.AddonToken}, 403, "invalid-token-no-rights", "access-token"},
		{"other e-shop cannot see this order", sandboxtest.Call{Path: "/api/orders/" + order, PrivateToken: f.OtherToken}, 404, "not-found", order},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.Do(tc.call)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Body)
			}
			if tc.code == "" {
				return
			}
			if len(r.Env.Errors) != 1 || r.Env.Errors[0].ErrorCode != tc.code || r.Env.Errors[0].Instance != tc.instance || r.Env.Errors[0].Message == "" {
				t.Fatalf("errors = %+v, want %s/%s", r.Env.Errors, tc.code, tc.instance)
			}
			if string(r.Env.Data) != "null" {
				t.Fatalf("data must be null on error: %s", r.Body)
			}
		})
	}
}

// TestEshopsAreIsolated checks that each token sees its own e-shop only.
func TestEshopsAreIsolated(t *testing.T) {
	s, f := start(t)
	var a, b struct {
		ContactInformation struct {
			EshopID int `json:"eshopId"`
		} `json:"contactInformation"`
	}
	s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken}).Data(t, &a)
	s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.OtherToken}).Data(t, &b)
	if a.ContactInformation.EshopID != 1001 || b.ContactInformation.EshopID != 1002 {
		t.Fatalf("e-shops: %d and %d", a.ContactInformation.EshopID, b.ContactInformation.EshopID)
	}
	var la, lb struct {
		Paginator struct{ TotalCount int } `json:"paginator"`
		Products  []struct {
			GUID string `json:"guid"`
		} `json:"products"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=100", PrivateToken: f.FullToken}).Data(t, &la)
	s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=100", PrivateToken: f.OtherToken}).Data(t, &lb)
	if la.Paginator.TotalCount != len(f.Products) || lb.Paginator.TotalCount == 0 || lb.Paginator.TotalCount >= la.Paginator.TotalCount {
		t.Fatalf("product counts %d (fixtures %d) and %d", la.Paginator.TotalCount, len(f.Products), lb.Paginator.TotalCount)
	}
	seen := map[string]bool{}
	for _, p := range la.Products {
		seen[p.GUID] = true
	}
	for _, p := range lb.Products {
		if seen[p.GUID] {
			t.Fatalf("product %s visible in both e-shops", p.GUID)
		}
		r := s.Do(sandboxtest.Call{Path: "/api/products/" + p.GUID, PrivateToken: f.FullToken})
		if r.Status != http.StatusNotFound {
			t.Fatalf("e-shop 1001 token reads e-shop 1002 product %s: %d", p.GUID, r.Status)
		}
	}
}

// TestEnvelopeBasics checks the envelope, request id, content type and
// vendor media type rules over real HTTP.
func TestEnvelopeBasics(t *testing.T) {
	s, f := start(t)
	r := s.Do(sandboxtest.Call{Path: "/api/orders/statuses", PrivateToken: f.FullToken})
	if r.Status != 200 || r.Env.Metadata.RequestID == "" || r.Header.Get("X-Request-ID") != r.Env.Metadata.RequestID {
		t.Fatalf("status %d, request id header %q metadata %q", r.Status, r.Header.Get("X-Request-ID"), r.Env.Metadata.RequestID)
	}
	if !strings.Contains(string(r.Body), `"errors":null`) {
		t.Fatalf("errors must be null on success: %s", r.Body)
	}
	r2 := s.Do(sandboxtest.Call{Path: "/api/orders/statuses", PrivateToken: f.FullToken})
	if r2.Env.Metadata.RequestID == r.Env.Metadata.RequestID {
		t.Fatal("request ids repeat")
	}
	r = s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken, ContentType: "application/vnd.service.v1.0"})
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/vnd.service.v1.0+json" {
		t.Fatalf("vendor media type: %d %q", r.Status, r.Header.Get("Content-Type"))
	}
	r = s.Do(sandboxtest.Call{Path: "/api/eshop", PrivateToken: f.FullToken, ContentType: "-"})
	if r.Status != 422 || r.Env.Errors[0].Instance != "Content-Type" {
		t.Fatalf("missing content type: %d %s", r.Status, r.Body)
	}
	r = s.Do(sandboxtest.Call{Path: "/api/no-such-thing", PrivateToken: f.FullToken})
	if r.Status != 404 || r.Env.Errors[0].ErrorCode != "not-found" {
		t.Fatalf("unknown path: %d %s", r.Status, r.Body)
	}
}

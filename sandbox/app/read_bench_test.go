package app_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// benchToken is the default fixtures' private token with every right.
const benchToken = "sbx_prv_538318d5dbe63220d64365f084946f66"

// BenchmarkProductDetail serves GET /api/products/{guid} in process
// through the full middleware chain with the limits off: the figure the
// render and token caches exist for (profile it with -cpuprofile).
func BenchmarkProductDetail(b *testing.B) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	s := sandboxtest.New(b, sandbox.Config{Limits: &lim})
	var list struct {
		Products []struct {
			GUID string `json:"guid"`
		} `json:"products"`
	}
	s.Do(sandboxtest.Call{Method: http.MethodGet, Path: "/api/products?itemsPerPage=1", PrivateToken: benchToken}).Data(b, &list)
	if len(list.Products) == 0 {
		b.Fatal("no product in the fixtures")
	}
	path := "/api/products/" + list.Products[0].GUID
	serveInProcess(b, s, path)
}

// BenchmarkProductDetailHTTP is BenchmarkProductDetail over loopback
// HTTP, the way cmd/benchmark measures it.
func BenchmarkProductDetailHTTP(b *testing.B) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	s := sandboxtest.New(b, sandbox.Config{Limits: &lim})
	var list struct {
		Products []struct {
			GUID string `json:"guid"`
		} `json:"products"`
	}
	s.Do(sandboxtest.Call{Method: http.MethodGet, Path: "/api/products?itemsPerPage=1", PrivateToken: benchToken}).Data(b, &list)
	url := s.URL + "/api/products/" + list.Products[0].GUID
	client := &http.Client{}
	b.ResetTimer()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Service-Private-API-Token", benchToken)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

// BenchmarkOrderList100 serves GET /api/orders?itemsPerPage=100 in
// process, the large cached answer (about 92 KB) next to the small
// product detail: a per-request cost that grows with the body shows here.
func BenchmarkOrderList100(b *testing.B) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	s := sandboxtest.New(b, sandbox.Config{Limits: &lim})
	const path = "/api/orders?itemsPerPage=100"
	serveInProcess(b, s, path)
}

// serveInProcess serves GET path through the full chain in process, from
// every benchmark goroutine, and fails on any answer but 200.
func serveInProcess(b *testing.B, s *sandboxtest.Server, path string) {
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+path, nil)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Service-Private-API-Token", benchToken)
			rec := httptest.NewRecorder()
			s.App.Server.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
}

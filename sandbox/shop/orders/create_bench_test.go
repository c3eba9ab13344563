package orders_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// BenchmarkCreateOrder serves POST /api/orders in process through the
// full chain with the limits off, with everything an order produces
// (invoice, delivery note, stock movement, confirmation e-mail, events):
// the per-order cost behind the orders/s figure of `make bench`. Profile
// it with -cpuprofile.
func BenchmarkCreateOrder(b *testing.B) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	e := start(b, sandbox.Config{Limits: &lim})
	v := e.f.variant(b, func(v variant) bool { return v.Type == "product" })
	body, err := json.Marshal(map[string]any{"data": e.f.order(product(v, "1", "100.00"))})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest(http.MethodPost, "/api/orders", bytes.NewReader(body))
			req.Host = "127.0.0.1"
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Service-Private-API-Token", e.f.Token)
			rec := httptest.NewRecorder()
			e.App.Server.ServeHTTP(rec, req)
			if rec.Code != http.StatusCreated {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
}

package certify

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// TestFreshOrder: for order:create without an instance, certify creates
// an order through the API in each e-shop the way a buyer's order comes
// in: a new code each time, in the e-shop's default status, and the
// e-shop emits order:create for it.
func TestFreshOrder(t *testing.T) {
	t.Parallel()
	for _, eshop := range []int{1001, 1002} {
		o := Options{Addon: "orders", Eshop: eshop, Addr: freeAddr(t), InstallURL: "http://127.0.0.1:1/install", Timing: testTiming}
		if err := o.check(); err != nil {
			t.Fatal(err)
		}
		s := newSuite(context.Background(), o)
		if err := s.open(); err != nil {
			t.Fatal(err)
		}
		defer s.stop()
		created := make(chan string, 64)
		s.app.Bus.Hook(func(m bus.Message) {
			if ev := m.Event; m.Topic == bus.TopicEvent && ev != nil && ev.Kind == "order:create" && ev.EshopID == eshop {
				created <- ev.Instance
			}
		})
		tok, err := s.privateToken()
		if err != nil {
			t.Fatal(err)
		}
		var statuses struct {
			Default int `json:"defaultStatus"`
		}
		if _, err := s.send(http.MethodGet, "/api/orders/statuses", nil, map[string]string{s.headers.PrivateToken: tok}, &statuses); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i := 0; i < 2; i++ {
			code, err := s.freshOrder()
			if err != nil {
				t.Fatalf("e-shop %d: %v", eshop, err)
			}
			if seen[code] {
				t.Fatalf("e-shop %d: order %s created twice", eshop, code)
			}
			seen[code] = true
			var got struct {
				Order struct {
					Status struct {
						ID int `json:"id"`
					} `json:"status"`
				} `json:"order"`
			}
			if _, err := s.send(http.MethodGet, "/api/orders/"+code, nil, map[string]string{s.headers.PrivateToken: tok}, &got); err != nil {
				t.Fatal(err)
			}
			if got.Order.Status.ID != statuses.Default {
				t.Errorf("e-shop %d: order %s is in status %d, want the default %d", eshop, code, got.Order.Status.ID, statuses.Default)
			}
		}
		for len(seen) > 0 {
			select {
			case code := <-created:
				delete(seen, code)
			case <-time.After(10 * time.Second):
				t.Fatalf("e-shop %d: no order:create for %v", eshop, seen)
			}
		}
	}
}

package orders_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestConcurrentOrdersKeepStock posts 200 identical orders at once and
// checks that the stock moved by exactly 200 pieces, in the stock record
// and in the product's variant, with one order and one stock:movement
// each. It runs with the limits off and with the spec's limits on, where
// the clients retry the 423 and 429 answers of identical concurrent
// requests.
func TestConcurrentOrdersKeepStock(t *testing.T) {
	const n = 200
	for _, tc := range []struct {
		name   string
		limits *sandbox.Limits
	}{
		{"limits off", &sandbox.Limits{Off: true}},
		{"spec limits with retries", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := start(t, sandbox.Config{Limits: tc.limits})
			f := e.f
			v := f.variant(t, func(v variant) bool { return v.Type == "product" && atLeast(e.supply(t, "1", v.Code), "1") })
			before := e.supply(t, "1", v.Code)
			orders := e.count(t, "orders")
			body, _ := json.Marshal(map[string]any{"data": f.order(product(v, "1", "100.00"))})
			var wg sync.WaitGroup
			codes := make([]string, n)
			errs := make(chan string, n)
			startGate := make(chan struct{})
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-startGate
					for attempt := 0; ; attempt++ {
						r := e.post(string(body))
						if r.status == http.StatusLocked || r.status == http.StatusTooManyRequests {
							time.Sleep(time.Duration(1+attempt%10) * time.Millisecond)
							continue
						}
						if r.status != 201 {
							errs <- r.body
							return
						}
						codes[i] = r.code
						return
					}
				}()
			}
			close(startGate)
			wg.Wait()
			close(errs)
			for msg := range errs {
				t.Fatalf("an order failed: %s", msg)
			}
			seen := map[string]bool{}
			for _, c := range codes {
				if c == "" || seen[c] {
					t.Fatalf("order code %q missing or repeated", c)
				}
				seen[c] = true
			}
			want := dsub(before, "200")
			if got := e.supply(t, "1", v.Code); got != want {
				t.Errorf("stock %s after %d orders from %s, want %s", got, n, before, want)
			}
			if got := e.count(t, "orders"); got != orders+n {
				t.Errorf("%d orders, want %d", got, orders+n)
			}
			prod := e.record(t, "products", v.GUID)
			for _, vv := range prod["variants"].([]any) {
				vm := vv.(map[string]any)
				if vm["code"] != v.Code {
					continue
				}
				for _, ps := range vm["perStockAmounts"].([]any) {
					pm := ps.(map[string]any)
					if pm["stockId"].(float64) == 1 && pm["amount"] != want {
						t.Errorf("product's stock-1 amount %v, want %s", pm["amount"], want)
					}
				}
			}
			moves := 0
			for _, ev := range e.ev.take() {
				if ev == "stock:movement 1" {
					moves++
				}
			}
			if moves != n {
				t.Errorf("%d stock:movement events, want %d", moves, n)
			}
		})
	}
}

type posted struct {
	status     int
	code, body string
}

// post sends one order creation with the full-access token; it is safe
// for concurrent use (unlike Do, it never calls t.Fatal).
func (e *env) post(body string) posted {
	req, _ := http.NewRequest("POST", e.URL+"/api/orders", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(e.Headers.PrivateToken, e.f.Token)
	resp, err := e.Client.Do(req)
	if err != nil {
		return posted{body: err.Error()}
	}
	defer resp.Body.Close()
	var env struct {
		Data struct {
			Order struct{ Code string } `json:"order"`
		} `json:"data"`
	}
	raw := new(bytes.Buffer)
	_, _ = raw.ReadFrom(resp.Body)
	_ = json.Unmarshal(raw.Bytes(), &env)
	return posted{status: resp.StatusCode, code: env.Data.Order.Code, body: raw.String()}
}

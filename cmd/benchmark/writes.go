package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"
)

// orderBody builds a valid order from what the default fixtures hold: the
// first payment and shipping methods and the first product's first
// variant (the e-shop lets its stock go negative, so every order in a
// load run is accepted).
func orderBody(base string) ([]byte, error) {
	var pays struct {
		PaymentMethods []struct{ GUID string } `json:"paymentMethods"`
	}
	var ships struct {
		ShippingMethods []struct{ GUID string } `json:"shippingMethods"`
	}
	var list struct {
		Products []struct{ GUID string } `json:"products"`
	}
	if _, err := fetch(base, "/api/payment-methods", &pays); err != nil || len(pays.PaymentMethods) == 0 {
		return nil, fmt.Errorf("no payment method: %v", err)
	}
	if _, err := fetch(base, "/api/shipping-methods", &ships); err != nil || len(ships.ShippingMethods) == 0 {
		return nil, fmt.Errorf("no shipping method: %v", err)
	}
	if _, err := fetch(base, "/api/products?itemsPerPage=1", &list); err != nil || len(list.Products) == 0 {
		return nil, fmt.Errorf("no product: %v", err)
	}
	var product struct {
		Variants []struct{ Code string } `json:"variants"`
	}
	if _, err := fetch(base, "/api/products/"+list.Products[0].GUID, &product); err != nil || len(product.Variants) == 0 {
		return nil, fmt.Errorf("no variant: %v", err)
	}
	item := func(kind, key, value, price string) map[string]any {
		return map[string]any{"itemType": kind, key: value, "vatRate": "21.00", "itemPriceWithVat": price, "amount": "1.000"}
	}
	return json.Marshal(map[string]any{"data": map[string]any{
		"email": "bench@example.test", "paymentMethodGuid": pays.PaymentMethods[0].GUID, "shippingGuid": ships.ShippingMethods[0].GUID,
		"currency":       map[string]any{"code": "CZK"},
		"billingAddress": map[string]any{"fullName": "Bench Person", "street": "Main", "houseNumber": "1", "city": "Brno", "zip": "60200"},
		"items": []map[string]any{
			item("product", "code", product.Variants[0].Code, "100.00"),
			item("shipping", "name", "Courier", "99.00"),
			item("billing", "name", "Card", "0.00"),
		},
	}})
}

// webhookLatency registers an order:create webhook pointing at a loopback
// receiver in this process, creates n orders one after another and
// measures, per order, the notification's arrival against the POST: the
// write commits after the request was sent and before its answer came
// back, so arrival minus answer is a lower bound of commit -> receipt
// (0 when the notification came first) and arrival minus sending an
// upper bound.
func webhookLatency(base string, body []byte, n int) (lower, upper [2]time.Duration, lost int, err error) {
	var (
		mu      sync.Mutex
		arrived = map[string]time.Time{}
		got     = make(chan struct{}, n*2)
	)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return lower, upper, 0, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Now()
		raw, _ := io.ReadAll(r.Body)
		var note struct {
			EventInstance string `json:"eventInstance"`
		}
		_ = json.Unmarshal(raw, &note)
		mu.Lock()
		arrived[note.EventInstance] = at
		mu.Unlock()
		got <- struct{}{}
	})}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()

	reg, _ := json.Marshal(map[string]any{"data": []map[string]any{{"event": "order:create", "url": "http://" + l.Addr().String() + "/hook"}}})
	if _, err := send(http.MethodPost, base+"/api/webhooks", reg); err != nil {
		return lower, upper, 0, fmt.Errorf("register webhook: %w", err)
	}
	type times struct{ sent, answered time.Time }
	sent := map[string]times{}
	for i := 0; i < n; i++ {
		t0 := time.Now()
		raw, err := send(http.MethodPost, base+"/api/orders", body)
		if err != nil {
			return lower, upper, 0, err
		}
		var env struct {
			Data struct {
				Order struct{ Code string } `json:"order"`
			} `json:"data"`
		}
		if err := json.Unmarshal(raw, &env); err != nil || env.Data.Order.Code == "" {
			return lower, upper, 0, fmt.Errorf("order answer without a code: %s", firstLine(string(raw)))
		}
		sent[env.Data.Order.Code] = times{t0, time.Now()}
	}
	deadline := time.After(10 * time.Second)
wait:
	for range n {
		select {
		case <-got:
		case <-deadline:
			break wait
		}
	}
	mu.Lock()
	defer mu.Unlock()
	var lo, up []time.Duration
	for code, t := range sent {
		at, ok := arrived[code]
		if !ok {
			lost++
			continue
		}
		lo = append(lo, max(0, at.Sub(t.answered)))
		up = append(up, at.Sub(t.sent))
	}
	if len(lo) == 0 {
		return lower, upper, lost, fmt.Errorf("no notification arrived")
	}
	return percentiles(lo), percentiles(up), lost, nil
}

// percentiles returns the p50 and p99 of durations (sorted in place).
func percentiles(d []time.Duration) [2]time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return [2]time.Duration{d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]}
}

// send sends a JSON request with the API headers; a non-2xx answer is an
// error.
func send(method, url string, body []byte) ([]byte, error) {
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Service-Private-API-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return raw, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, firstLine(string(raw)))
	}
	return raw, nil
}

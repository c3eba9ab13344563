package robustness

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// Orders consuming the same stock at once are covered by
// sandbox/shop/orders TestConcurrentOrdersKeepStock; these tests cover the
// other two races of the issue.

// productChanges counts the change-log entries of one product by type.
func productChanges(t *testing.T, s *sandboxtest.Server, guid string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for page := 1; ; page++ {
		var d struct {
			Changes []struct {
				GUID       string `json:"guid"`
				ChangeType string `json:"changeType"`
			} `json:"changes"`
			Paginator struct{ PageCount int } `json:"paginator"`
		}
		r := s.Do(sandboxtest.Call{Path: fmt.Sprintf("/api/products/changes?from=2000-01-01T00:00:00Z&itemsPerPage=100&page=%d", page), PrivateToken: privateToken})
		if r.Status != http.StatusOK {
			t.Fatalf("changes: %d %s", r.Status, r.Body)
		}
		r.Data(t, &d)
		for _, c := range d.Changes {
			if c.GUID == guid {
				out[c.ChangeType]++
			}
		}
		if page >= d.Paginator.PageCount {
			return out
		}
	}
}

// TestParallelPatchesOfOneProduct sends many PATCHes of one product at
// once: each is answered 200, the final name is one of those written, and
// the change log and the domain events count every write exactly once.
// The limits are off: with them, the spec's write lock answers 423 to
// identical concurrent writes and the store would never see them race.
func TestParallelPatchesOfOneProduct(t *testing.T) {
	lim := sandbox.DefaultLimits()
	lim.Off = true
	s := sandboxtest.New(t, sandbox.Config{Limits: &lim})
	var list struct {
		Products []struct {
			GUID string `json:"guid"`
		} `json:"products"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=1", PrivateToken: privateToken}).Data(t, &list)
	guid := list.Products[0].GUID
	var events atomic.Int64
	s.App.Bus.Hook(func(m bus.Message) {
		if m.Topic == bus.TopicEvent && m.Event.Kind == "product:update" && m.Event.Instance == guid {
			events.Add(1)
		}
	})
	before := productChanges(t, s, guid)

	const writers = 24
	names := make([]string, writers)
	statuses := make([]int, writers)
	var wg sync.WaitGroup
	for i := range writers {
		names[i] = fmt.Sprintf("Parallel name %02d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := s.Do(sandboxtest.Call{Method: http.MethodPatch, Path: "/api/products/" + guid, PrivateToken: privateToken,
				Body: map[string]any{"data": map[string]any{"name": names[i]}}})
			statuses[i] = r.Status
		}()
	}
	wg.Wait()
	for i, st := range statuses {
		if st != http.StatusOK {
			t.Fatalf("PATCH %d answered %d", i, st)
		}
	}
	var got struct {
		Name string `json:"name"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products/" + guid, PrivateToken: privateToken}).Data(t, &got)
	if !slices.Contains(names, got.Name) {
		t.Errorf("final name %q is none of the %d written", got.Name, writers)
	}
	after := productChanges(t, s, guid)
	if n := after["edit"] - before["edit"]; n != writers {
		t.Errorf("the change log gained %d edit entries for %d PATCHes", n, writers)
	}
	if n := events.Load(); n != writers {
		t.Errorf("%d product:update events for %d PATCHes", n, writers)
	}
}

// TestWebhookRegistrationWhileEventsFire registers webhooks while orders
// are being created: every order created after a webhook's registration
// was answered reaches that webhook exactly once, and no webhook gets an
// order twice or an order that does not exist.
func TestWebhookRegistrationWhileEventsFire(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	var (
		mu   sync.Mutex
		got  = map[string][]string{} // hook path -> order codes received
		recv = make(chan struct{}, 1024)
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var note struct {
			Event         string `json:"event"`
			EventInstance string `json:"eventInstance"`
		}
		_ = json.Unmarshal(raw, &note)
		if note.Event == "order:create" {
			mu.Lock()
			got[r.URL.Path] = append(got[r.URL.Path], note.EventInstance)
			mu.Unlock()
			recv <- struct{}{}
		}
	}))
	t.Cleanup(rcv.Close)
	body := orderBody(t, s)

	const orders, hooks = 40, 5
	type stamp struct {
		code string
		sent time.Time
	}
	created := make([]stamp, 0, orders)
	registered := make([]time.Time, hooks)
	// made receives the number of orders created so far, after each one,
	// and is closed when the stream ends: the registrations are spread
	// over the stream by its progress, not by the clock.
	made := make(chan int, orders)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(made)
		for range orders {
			t0 := time.Now()
			r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/orders", PrivateToken: privateToken, Body: body})
			var d struct {
				Order struct{ Code string } `json:"order"`
			}
			if r.Status != http.StatusCreated {
				t.Errorf("order answered %d: %.300s", r.Status, r.Body)
				return
			}
			r.Data(t, &d)
			created = append(created, stamp{d.Order.Code, t0})
			made <- len(created)
		}
	}()
	go func() {
		defer wg.Done()
		seen := 0
		for i := range hooks {
			for seen < (i+1)*orders/(hooks+1) { // the i-th registration goes after this share of the stream
				n, open := <-made
				if !open {
					break
				}
				seen = n
			}
			r := s.Do(sandboxtest.Call{Method: http.MethodPost, Path: "/api/webhooks", PrivateToken: privateToken,
				Body: map[string]any{"data": []map[string]any{{"event": "order:create", "url": fmt.Sprintf("%s/hook/%d", rcv.URL, i)}}}})
			if r.Status/100 != 2 {
				t.Errorf("webhook %d answered %d: %.300s", i, r.Status, r.Body)
				return
			}
			registered[i] = time.Now()
		}
	}()
	wg.Wait()
	if t.Failed() {
		return
	}
	exists := map[string]bool{}
	want := map[string]map[string]bool{}
	total := 0
	for i := range hooks {
		path := fmt.Sprintf("/hook/%d", i)
		want[path] = map[string]bool{}
		for _, o := range created {
			exists[o.code] = true
			if o.sent.After(registered[i]) {
				want[path][o.code] = true
				total++
			}
		}
	}
	if total == 0 {
		t.Fatal("no order was created after a registration; the test raced nothing")
	}
	deadline := time.After(20 * time.Second)
	for {
		mu.Lock()
		missing := 0
		for path, codes := range want {
			for code := range codes {
				if !slices.Contains(got[path], code) {
					missing++
				}
			}
		}
		mu.Unlock()
		if missing == 0 {
			break
		}
		select {
		case <-recv:
		case <-deadline:
			t.Fatalf("%d expected notifications never arrived; got %v", missing, got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for path, codes := range got {
		seen := map[string]bool{}
		for _, c := range codes {
			if seen[c] {
				t.Errorf("%s got order %s twice", path, c)
			}
			if !exists[c] {
				t.Errorf("%s got order %s, which was not created", path, c)
			}
			seen[c] = true
		}
		if !strings.HasPrefix(path, "/hook/") {
			t.Errorf("a notification went to %s", path)
		}
	}
}

// orderBody is a valid order from the default fixtures: the first payment
// and shipping methods and a variant of the first product.
func orderBody(t *testing.T, s *sandboxtest.Server) map[string]any {
	t.Helper()
	var pays struct {
		PaymentMethods []struct{ GUID string } `json:"paymentMethods"`
	}
	var ships struct {
		ShippingMethods []struct{ GUID string } `json:"shippingMethods"`
	}
	var list struct {
		Products []struct{ GUID string } `json:"products"`
	}
	s.Do(sandboxtest.Call{Path: "/api/payment-methods", PrivateToken: privateToken}).Data(t, &pays)
	s.Do(sandboxtest.Call{Path: "/api/shipping-methods", PrivateToken: privateToken}).Data(t, &ships)
	s.Do(sandboxtest.Call{Path: "/api/products?itemsPerPage=1", PrivateToken: privateToken}).Data(t, &list)
	var p struct {
		Variants []struct{ Code string } `json:"variants"`
	}
	s.Do(sandboxtest.Call{Path: "/api/products/" + list.Products[0].GUID, PrivateToken: privateToken}).Data(t, &p)
	if len(pays.PaymentMethods) == 0 || len(ships.ShippingMethods) == 0 || len(p.Variants) == 0 {
		t.Fatal("the fixtures lack a payment method, a shipping method or a variant")
	}
	item := func(kind, key, value, price string) map[string]any {
		return map[string]any{"itemType": kind, key: value, "vatRate": "21.00", "itemPriceWithVat": price, "amount": "1.000"}
	}
	return map[string]any{"data": map[string]any{
		"email": "race@example.test", "paymentMethodGuid": pays.PaymentMethods[0].GUID, "shippingGuid": ships.ShippingMethods[0].GUID,
		"currency":       map[string]any{"code": "CZK"},
		"billingAddress": map[string]any{"fullName": "Race Person", "street": "Main", "houseNumber": "1", "city": "Brno", "zip": "60200"},
		"items": []map[string]any{
			item("product", "code", p.Variants[0].Code, "100.00"),
			item("shipping", "name", "Courier", "99.00"),
			item("billing", "name", "Card", "0.00"),
		},
	}}
}

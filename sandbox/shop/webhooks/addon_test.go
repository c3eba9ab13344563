package webhooks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks/webhookstest"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// addonClient is what an add-on does with its API access token.
type addonClient struct {
	t *testing.T
	e *evtest.Env
}

func (c addonClient) do(method, path string, body any) *sandboxtest.Response {
	c.t.Helper()
	return c.e.S.Do(sandboxtest.Call{Method: method, Path: path, AccessToken: c.e.Addon, Body: body})
}

// setUp issues the signature key and registers the add-on's webhook,
// all with the add-on token.
func (c addonClient) setUp(event string, approve ...string) (key string) {
	c.t.Helper()
	// The e-shop owner approves the endpoints the add-on still waits for.
	if r := c.e.Control("POST", "/_sandbox/eshops/1001/addons/example-addon/approve", map[string]any{"endpoints": approve}); r.Status != 200 {
		c.t.Fatalf("approve %v: %d %s", approve, r.Status, r.Body)
	}
	r := c.do("POST", "/api/webhooks/renew-signature-key", nil)
	var k struct{ SignatureKey string }
	if r.Status != 200 {
		c.t.Fatalf("renew key: %d %s", r.Status, r.Body)
	}
	r.Data(c.t, &k)
	r = c.do("POST", "/api/webhooks", map[string]any{"data": []map[string]string{{"event": event, "url": c.e.R.URL}}})
	if r.Status != 201 {
		c.t.Fatalf("register %s: %d %s", event, r.Status, r.Body)
	}
	return k.SignatureKey
}

// verified waits for the event, checks its signature like a receiver
// would (HMAC of the raw body with the key) and returns it.
func (c addonClient) verified(key, event, instance string) webhookstest.Notification {
	c.t.Helper()
	n := c.e.R.WaitFor(event, instance)
	if !n.Valid(key) {
		c.t.Fatalf("%s: signature %q does not match the body %s", event, n.Signature, n.Body)
	}
	if n.Payload.EshopID != 1001 {
		c.t.Fatalf("%s: eshopId %d", event, n.Payload.EshopID)
	}
	return n
}

// TestAddonProductUpdate does what a real add-on does, with the resource
// available today: register product:update, change a product, receive
// the signed notification and fetch the product it names.
func TestAddonProductUpdate(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	c := addonClient{t, e}
	key := c.setUp("product:update", "UpdateProduct")
	var products []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	guid := products[0]["guid"].(string)
	if r := c.do("PATCH", "/api/products/"+guid, map[string]any{"data": map[string]any{"shortDescription": "Now waterproof"}}); r.Status != 200 {
		t.Fatalf("update product: %d %s", r.Status, r.Body)
	}
	n := c.verified(key, "product:update", guid)
	var p struct{ GUID, ShortDescription string }
	r := c.do("GET", "/api/products/"+n.Payload.EventInstance, nil)
	if r.Status != 200 {
		t.Fatalf("fetch the product: %d %s", r.Status, r.Body)
	}
	r.Data(t, &p)
	if p.GUID != guid || p.ShortDescription != "Now waterproof" {
		t.Fatalf("fetched %+v", p)
	}
}

// addonOrderPending is the ratchet of TestAddonOrderCreate: while set,
// the test expects POST /api/orders to answer 501 (the orders module of
// issue 5 is not registered yet) and says so; once orders land the test
// fails until this is emptied, and then runs in full.
var addonOrderPending = ""

// TestAddonOrderCreate is the acceptance scenario: register order:create,
// create an order, receive order:create with a valid signature, fetch
// the order.
func TestAddonOrderCreate(t *testing.T) {
	e := evtest.Start(t, sandbox.Config{})
	c := addonClient{t, e}
	key := c.setUp("order:create", "CreateOrder")
	r := c.do("POST", "/api/orders", map[string]any{"data": orderBody(loadMatrixFacts(t))})
	if addonOrderPending != "" {
		if r.Status == 501 && r.Env.Errors[0].Instance == "CreateOrder" {
			t.Logf("pending (%s)", addonOrderPending)
			return
		}
		t.Fatalf("ratchet: POST /api/orders answers %d now; empty addonOrderPending. %s", r.Status, r.Body)
	}
	if r.Status != 201 && r.Status != 200 {
		t.Fatalf("create order: %d %s", r.Status, r.Body)
	}
	var created struct {
		Order struct{ Code string }
	}
	r.Data(t, &created)
	code := created.Order.Code
	if code == "" {
		code = findKey(decode(r), "code")
	}
	n := c.verified(key, "order:create", code)
	r = c.do("GET", "/api/orders/"+n.Payload.EventInstance, nil)
	var o struct{ Order struct{ Code, Email string } }
	if r.Status != 200 {
		t.Fatalf("fetch the order: %d %s", r.Status, r.Body)
	}
	r.Data(t, &o)
	if o.Order.Code != code || o.Order.Email != "matrix@example.test" {
		t.Fatalf("fetched %+v, want order %s", o, code)
	}
}

func decode(r *sandboxtest.Response) any {
	var v any
	_ = json.Unmarshal(r.Env.Data, &v)
	return v
}

// TestRemovedAddonGetsNoDeliveries: removing (or uninstalling) an add-on
// deletes the webhooks its token registered and cancels their deliveries
// still waiting for a retry; its tokens are revoked, so a delivery could
// only lead to a refused call. The e-shop's own webhooks stay.
func TestRemovedAddonGetsNoDeliveries(t *testing.T) {
	for _, how := range []struct{ name, method, path string }{
		{"remove", "DELETE", "/_sandbox/eshops/1001/addons/example-addon"},
		{"uninstall", "POST", "/_sandbox/eshops/1001/addons/example-addon/uninstall"},
	} {
		t.Run(how.name, func(t *testing.T) {
			e := evtest.Start(t, sandbox.Config{})
			c := addonClient{t, e}
			c.setUp("order:create")
			private := e.R.URL + "?owner=eshop"
			if r := e.Call("POST", "/api/webhooks", map[string]any{"data": []map[string]string{{"event": "order:create", "url": private}}}); r.Status != 201 {
				t.Fatalf("register the e-shop's own webhook: %d %s", r.Status, r.Body)
			}
			// Both first attempts fail, so both deliveries wait for a retry.
			e.R.FailNext(2)
			if r := e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "2025000001"}); r.Status != 200 {
				t.Fatalf("emit: %d %s", r.Status, r.Body)
			}
			e.R.Wait("two failed attempts", func() bool { return e.R.Tries() >= 2 })
			// The receiver saw both attempts; wait until the sandbox has
			// recorded them too (each delivery pending, one attempt), so the
			// removal finds the add-on's delivery waiting for its retry.
			e.R.Wait("both attempts recorded", func() bool {
				var ds struct{ Deliveries []webhooks.Notification }
				e.Control("GET", "/_sandbox/deliveries?event=order:create", nil).Data(t, &ds)
				n := 0
				for _, d := range ds.Deliveries {
					if d.Status == webhooks.StatusPending && len(d.Attempts) == 1 {
						n++
					}
				}
				return n == 2
			})

			r := e.Control(how.method, how.path, nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", how.name, r.Status, r.Body)
			}
			var ended struct {
				Webhooks webhooks.Forgotten `json:"webhooks"`
			}
			r.Data(t, &ended)
			if ended.Webhooks != (webhooks.Forgotten{Webhooks: 1, Deliveries: 1}) {
				t.Fatalf("%s ended %+v, want the add-on's 1 webhook and its 1 waiting delivery", how.name, ended.Webhooks)
			}
			var list struct{ Webhooks []webhooks.Webhook }
			e.Call("GET", "/api/webhooks", nil).Data(t, &list)
			if len(list.Webhooks) != 1 || list.Webhooks[0].URL != private {
				t.Fatalf("webhooks left: %+v, want the e-shop's own only", list.Webhooks)
			}

			// The retries fall due: the e-shop's webhook gets its retry, the
			// add-on's canceled delivery none.
			e.Advance("1h")
			var ds struct{ Deliveries []webhooks.Notification }
			e.R.Wait("the e-shop's retry delivered", func() bool {
				e.Control("GET", "/_sandbox/deliveries?event=order:create", nil).Data(t, &ds)
				for _, d := range ds.Deliveries {
					if d.URL == private && d.Status == webhooks.StatusDelivered {
						return true
					}
				}
				return false
			})
			if len(ds.Deliveries) != 2 {
				t.Fatalf("%d deliveries, want 2", len(ds.Deliveries))
			}
			for _, d := range ds.Deliveries {
				switch d.URL {
				case private:
					if d.Status != webhooks.StatusDelivered {
						t.Errorf("the e-shop's delivery is %s, want delivered", d.Status)
					}
				default:
					if d.Status != webhooks.StatusFailed || len(d.Attempts) != 1 || !strings.Contains(d.Canceled, "example-addon") {
						t.Errorf("the add-on's delivery: status %s, %d attempts, canceled %q; want failed after 1 attempt, canceled naming the add-on", d.Status, len(d.Attempts), d.Canceled)
					}
				}
			}

			// A new event reaches the e-shop's webhook only.
			e.Control("POST", "/_sandbox/events", map[string]any{"eshop": 1001, "event": "order:create", "instance": "2025000002"})
			e.R.WaitFor("order:create", "2025000002")
			e.Control("GET", "/_sandbox/deliveries?event=order:create", nil).Data(t, &ds)
			for _, d := range ds.Deliveries {
				if d.Instance == "2025000002" && d.URL != private {
					t.Errorf("a new event went to the removed add-on's webhook %s", d.URL)
				}
			}
		})
	}
}

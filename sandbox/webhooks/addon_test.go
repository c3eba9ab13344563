package webhooks_test

import (
	"encoding/json"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/internal/evtest"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/webhooks/webhookstest"
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

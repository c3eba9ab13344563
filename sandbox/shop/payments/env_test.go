package payments_test

import (
	"encoding/json"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// facts are the fixture values the payment tests use.
type facts struct {
	Token, AddonToken, Addon string
	Courier, COD, Card       map[string]any
	Product                  struct{ Code, VatRate string }
	Results                  map[string]int
	Statuses                 []struct {
		ID         int  `json:"id"`
		MarkAsPaid bool `json:"markAsPaid"`
	}
}

func read(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

func loadFacts(t testing.TB) *facts {
	f := &facts{}
	var creds struct {
		PrivateTokens []struct{ Token string }
		Addons        []struct {
			Name      string
			APITokens []struct{ Token, ExpiresAt string } `json:"apiTokens"`
		}
	}
	read(t, "eshops/1001/credentials.json", &creds)
	f.Token, f.Addon = creds.PrivateTokens[0].Token, creds.Addons[0].Name
	for _, tk := range creds.Addons[0].APITokens {
		if tk.ExpiresAt > "2090" {
			f.AddonToken = tk.Token
		}
	}
	var ships, pays []map[string]any
	read(t, "eshops/1001/shipping-methods.json", &ships)
	read(t, "eshops/1001/payment-methods.json", &pays)
	for _, m := range ships {
		if m["_default"] == true {
			f.Courier = m
		}
	}
	for _, m := range pays {
		if m["_online"] == true && m["_addon"] == f.Addon {
			f.Card = m
		}
		if m["paymentType"].(map[string]any)["code"] == "cash-on-delivery" {
			f.COD = m
		}
	}
	var st struct {
		Statuses []struct {
			ID         int  `json:"id"`
			MarkAsPaid bool `json:"markAsPaid"`
		} `json:"statuses"`
		Results map[string]int `json:"_paymentResults"`
	}
	read(t, "eshops/1001/order-statuses.json", &st)
	f.Statuses, f.Results = st.Statuses, st.Results
	var prods []struct {
		Type     string
		Variants []struct{ Code, VatRate string }
	}
	read(t, "eshops/1001/products.json", &prods)
	for _, p := range prods {
		if p.Type == "product" {
			f.Product.Code, f.Product.VatRate = p.Variants[0].Code, p.Variants[0].VatRate
			break
		}
	}
	if f.Card == nil || f.COD == nil || f.Courier == nil || f.AddonToken == "" || len(f.Results) == 0 {
		t.Fatal("the fixtures lack what the payment tests need")
	}
	return f
}

// order is an order paid online with the example add-on's card method.
func (f *facts) order(method map[string]any) map[string]any {
	return map[string]any{
		"email": "buyer@example.com", "shippingGuid": f.Courier["guid"], "paymentMethodGuid": method["guid"], "language": "en",
		"billingAddress": map[string]any{"fullName": "Eva Buyer", "street": "Korunní", "houseNumber": "12", "city": "Praha", "zip": "120 00"},
		"items": []any{
			map[string]any{"itemType": "shipping", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			map[string]any{"itemType": "billing", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			map[string]any{"itemType": "product", "code": f.Product.Code, "vatRate": f.Product.VatRate, "itemPriceWithVat": "500.00"},
		},
	}
}

type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) hook(m bus.Message) {
	if m.Topic == bus.TopicEvent && m.Event != nil {
		e.mu.Lock()
		e.list = append(e.list, m.Event.Kind+" "+m.Event.Instance)
		e.mu.Unlock()
	}
}

func (e *events) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.list
	e.list = nil
	return out
}

type env struct {
	*sandboxtest.Server
	f  *facts
	ev *events
}

func start(t testing.TB) *env {
	t.Helper()
	return startWith(t, sandbox.Config{})
}

// startWith starts a sandbox with a configuration of its own (a frozen
// clock, the contract report's payment time).
func startWith(t testing.TB, cfg sandbox.Config) *env {
	t.Helper()
	s := sandboxtest.New(t, cfg)
	e := &env{Server: s, f: loadFacts(t), ev: &events{}}
	s.App.Bus.Hook(e.ev.hook)
	return e
}

func (e *env) private(method, path string, body any) sandboxtest.Call {
	return sandboxtest.Call{Method: method, Path: path, PrivateToken: e.f.Token, Body: body}
}

func (e *env) addon(method, path string, body any) sandboxtest.Call {
	return sandboxtest.Call{Method: method, Path: path, AccessToken: e.f.AddonToken, Body: body}
}

// newOrder creates an order and returns it with its payment code (the
// transaction id of its pending payment).
func (e *env) newOrder(t testing.TB, method map[string]any) (map[string]any, string) {
	t.Helper()
	return e.newOrderWith(t, e.f.order(method))
}

// newOrderWith creates an order from a request's data.
func (e *env) newOrderWith(t testing.TB, data map[string]any) (map[string]any, string) {
	t.Helper()
	r := e.Do(e.private("POST", "/api/orders", map[string]any{"data": data}))
	if r.Status != 201 {
		t.Fatalf("create order: %d %s", r.Status, r.Body)
	}
	var d struct{ Order map[string]any }
	r.Data(t, &d)
	code := ""
	for _, tx := range d.Order["paymentTransactions"].([]any) {
		m := tx.(map[string]any)
		if m["status"] == "pending" {
			code = m["transactionId"].(string)
		}
	}
	return d.Order, code
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// orderNow reads an order with its payment transactions.
func (e *env) orderNow(t testing.TB, code string) map[string]any {
	t.Helper()
	var d struct{ Order map[string]any }
	r := e.Do(e.private("GET", "/api/orders/"+code+"?include=paymentTransactions", nil))
	if r.Status != 200 {
		t.Fatalf("order %s: %d %s", code, r.Status, r.Body)
	}
	r.Data(t, &d)
	return d.Order
}

// statusID is the id of an order's (or an item's) status.
func statusID(o map[string]any) int {
	st, _ := o["status"].(map[string]any)
	id, _ := st["id"].(float64)
	return int(id)
}

// billingID is the id of an order's billing method (0 when none).
func billingID(o map[string]any) int {
	bm, _ := o["billingMethod"].(map[string]any)
	id, _ := bm["id"].(float64)
	return int(id)
}

// outbox lists the e-mails the sandbox sent for an order.
func (e *env) outbox(t testing.TB, orderCode string) []map[string]any {
	t.Helper()
	var box struct{ Emails []map[string]any }
	e.Do(sandboxtest.Call{Path: "/_sandbox/outbox?eshop=1001&orderCode=" + orderCode}).Data(t, &box)
	return box.Emails
}

// kinds are the event kinds of a list of "kind instance" events.
func kinds(evs []string) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, strings.Fields(ev)[0])
	}
	return out
}

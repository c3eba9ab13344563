package orders_test

import (
	"encoding/json"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// facts are the fixture values the tests use, read from the embedded
// fixtures so the tests follow the data instead of hard-coding it.
type facts struct {
	Token, AddonToken, OtherToken string
	Courier, Branches             map[string]any // shipping methods: the default one, one with pickup points
	COD, Card                     map[string]any // payment methods: an offline and the online one
	Statuses                      struct {
		Default  int `json:"defaultStatus"`
		Statuses []struct {
			ID               int    `json:"id"`
			Name             string `json:"name"`
			ChangeOrderItems bool   `json:"changeOrderItems"`
			MarkAsPaid       bool   `json:"markAsPaid"`
			Role             string `json:"_role"`
			SendEmail        bool   `json:"_sendEmail"`
		} `json:"statuses"`
	}
	Products []map[string]any
	Orders   []map[string]any
}

func readFixture(t testing.TB, path string, v any) {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func loadFacts(t testing.TB) *facts {
	f := &facts{}
	var creds struct {
		PrivateTokens []struct{ Token, Rights any }
		Addons        []struct {
			APITokens []struct{ Token, ExpiresAt string } `json:"apiTokens"`
		}
	}
	readFixture(t, "eshops/1001/credentials.json", &creds)
	f.Token = creds.PrivateTokens[0].Token.(string)
	for _, tk := range creds.Addons[0].APITokens {
		if tk.ExpiresAt > "2090" {
			f.AddonToken = tk.Token
		}
	}
	var creds2 struct{ PrivateTokens []struct{ Token string } }
	readFixture(t, "eshops/1002/credentials.json", &creds2)
	f.OtherToken = creds2.PrivateTokens[0].Token
	var ships, pays []map[string]any
	readFixture(t, "eshops/1001/shipping-methods.json", &ships)
	readFixture(t, "eshops/1001/payment-methods.json", &pays)
	for _, m := range ships {
		if m["_default"] == true {
			f.Courier = m
		}
		if m["_branches"] != nil {
			f.Branches = m
		}
	}
	for _, m := range pays {
		pt := m["paymentType"].(map[string]any)
		if m["_online"] == true {
			f.Card = m
		} else if pt["code"] == "cash-on-delivery" {
			f.COD = m
		}
	}
	readFixture(t, "eshops/1001/order-statuses.json", &f.Statuses)
	readFixture(t, "eshops/1001/products.json", &f.Products)
	readFixture(t, "eshops/1001/orders.json", &f.Orders)
	if f.Courier == nil || f.Branches == nil || f.COD == nil || f.Card == nil || f.AddonToken == "" {
		t.Fatal("fixtures lack a method the tests need")
	}
	return f
}

// status finds a status by a predicate.
func (f *facts) status(t testing.TB, pred func(id int, chg, paid bool, role string) bool) int {
	t.Helper()
	for _, s := range f.Statuses.Statuses {
		if pred(s.ID, s.ChangeOrderItems, s.MarkAsPaid, s.Role) && s.ID != f.Statuses.Default {
			return s.ID
		}
	}
	t.Fatal("no such status in the fixtures")
	return 0
}

// variant is a product variant of the fixtures.
type variant struct {
	Code, GUID, Type, Price, VatRate string
	SetItems                         int
}

// variants lists the fixture variants matching pred.
func (f *facts) variants(pred func(v variant) bool) []variant {
	var out []variant
	for _, p := range f.Products {
		for _, vv := range p["variants"].([]any) {
			vm := vv.(map[string]any)
			v := variant{Code: vm["code"].(string), GUID: p["guid"].(string), Type: p["type"].(string), Price: vm["price"].(string), VatRate: vm["vatRate"].(string)}
			if si, ok := p["setItems"].([]any); ok {
				v.SetItems = len(si)
			}
			if pred(v) {
				out = append(out, v)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

func (f *facts) variant(t testing.TB, pred func(v variant) bool) variant {
	t.Helper()
	l := f.variants(pred)
	if len(l) == 0 {
		t.Fatal("no such variant in the fixtures")
	}
	return l[0]
}

// events records the domain events of a sandbox.
type events struct {
	mu   sync.Mutex
	list []sandbox.Event
}

func (e *events) hook(m bus.Message) {
	if m.Topic == bus.TopicEvent && m.Event != nil {
		e.mu.Lock()
		e.list = append(e.list, *m.Event)
		e.mu.Unlock()
	}
}

// take returns the events since the last take as "kind instance".
func (e *events) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]string, len(e.list))
	for i, ev := range e.list {
		out[i] = ev.Kind + " " + ev.Instance
	}
	e.list = nil
	return out
}

type env struct {
	*sandboxtest.Server
	f  *facts
	ev *events
}

func start(t testing.TB, cfg sandbox.Config) *env {
	t.Helper()
	s := sandboxtest.New(t, cfg)
	e := &env{Server: s, f: loadFacts(t), ev: &events{}}
	s.App.Bus.Hook(e.ev.hook)
	return e
}

// call sends a request with the full-access token of e-shop 1001.
func (e *env) call(t testing.TB, method, path string, body any) *sandboxtest.Response {
	t.Helper()
	return e.Do(sandboxtest.Call{Method: method, Path: path, PrivateToken: e.f.Token, Body: body})
}

// create posts an order and decodes the created order.
func (e *env) create(t testing.TB, path string, data map[string]any) map[string]any {
	t.Helper()
	r := e.call(t, "POST", path, map[string]any{"data": data})
	if r.Status != 201 {
		t.Fatalf("create order: %d %s", r.Status, r.Body)
	}
	if strings.Contains(string(r.Body), `"_`) {
		t.Errorf("the created order shows sandbox metadata: %s", r.Body)
	}
	var d struct{ Order map[string]any }
	r.Data(t, &d)
	return d.Order
}

// order is a valid order of e-shop 1001 with delivery: courier, cash on
// delivery and the given goods items.
func (f *facts) order(goods ...map[string]any) map[string]any {
	items := []any{
		map[string]any{"itemType": "shipping", "name": f.Courier["name"], "vatRate": "21.00", "itemPriceWithVat": "129.00"},
		map[string]any{"itemType": "billing", "name": f.COD["name"], "vatRate": "21.00", "itemPriceWithVat": "39.00"},
	}
	for _, g := range goods {
		items = append(items, g)
	}
	return map[string]any{
		"email":             "buyer@example.com",
		"shippingGuid":      f.Courier["guid"],
		"paymentMethodGuid": f.COD["guid"],
		"billingAddress":    map[string]any{"fullName": "Eva Buyer", "street": "Korunní", "houseNumber": "12", "city": "Praha", "zip": "120 00", "countryCode": "CZ"},
		"items":             items,
	}
}

func product(v variant, amount, price string) map[string]any {
	return map[string]any{"itemType": "product", "code": v.Code, "vatRate": v.VatRate, "itemPriceWithVat": price, "amount": amount}
}

// supply is a variant's amount in one stock of e-shop 1001 ("" when the
// stock holds none).
func (e *env) supply(t testing.TB, stockID, code string) string {
	t.Helper()
	st := e.record(t, "stocks", stockID)
	for _, s := range st["_supplies"].([]any) {
		m := s.(map[string]any)
		if m["code"] == code {
			return m["amount"].(string)
		}
	}
	return ""
}

// count is the number of records of a collection of e-shop 1001.
func (e *env) count(t testing.TB, coll string) int {
	t.Helper()
	n := 0
	_ = e.App.Store.View(func(tx *store.Tx) error {
		_ = tx.Scan(1001, coll, func(string, []byte) bool { n++; return true })
		return nil
	})
	return n
}

// record reads a stored record of e-shop 1001.
func (e *env) record(t testing.TB, coll, id string) map[string]any {
	t.Helper()
	var m map[string]any
	err := e.App.Store.View(func(tx *store.Tx) error {
		raw, err := tx.Get(1001, coll, id)
		if err != nil {
			return err
		}
		return json.Unmarshal(raw, &m)
	})
	if err != nil {
		t.Fatalf("%s/%s: %v", coll, id, err)
	}
	return m
}

func price(o map[string]any) string {
	p := o["price"].(map[string]any)
	return p["withVat"].(string) + "/" + p["withoutVat"].(string) + "/" + p["vat"].(string)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// atLeast compares two decimal amounts.
func atLeast(amount, min string) bool {
	a, err := sandbox.ParseDecimal(amount)
	b, _ := sandbox.ParseDecimal(min)
	return err == nil && a.GreaterThanOrEqual(b)
}

func sandboxCall(method, path, token string, body any) sandboxtest.Call {
	return sandboxtest.Call{Method: method, Path: path, PrivateToken: token, Body: body}
}

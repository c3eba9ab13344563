package orders_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestStatusChange walks one order through status changes at both
// addresses of the operation and checks the events and what each status
// definition implies: order:update on every change, order:cancel for the
// canceling status (stock back), order:paid only from unpaid to paid, the
// status's documents and e-mail.
func TestStatusChange(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" && atLeast(e.supply(t, "1", v.Code), "6") })
	paid := f.status(t, func(id int, chg, paid bool, role string) bool { return paid })
	canceled := f.status(t, func(id int, chg, paid bool, role string) bool { return role == "canceled" })
	plain := f.status(t, func(id int, chg, paid bool, role string) bool { return !paid && role == "" && !chg })
	stock := e.supply(t, "1", v.Code)
	o := e.create(t, "/api/orders?suppressDocumentGeneration=true", f.order(product(v, "3", "100.00")))
	code := o["code"].(string)
	e.ev.take()

	patch := func(path, token string, addon bool, body any) *sandboxtest.Response {
		c := sandboxtest.Call{Method: "PATCH", Path: path, Body: body}
		if addon {
			c.AccessToken = token
		} else {
			c.PrivateToken = token
		}
		return e.Do(c)
	}
	steps := []struct {
		name   string
		path   string
		addon  bool
		body   any
		status int
		events []string // expected, in order
		paid   bool
	}{
		{"reference path, plain status", "/api/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"statusId": plain}}, 200,
			[]string{"order:update " + code}, false},
		{"same status again changes nothing", "/api/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"statusId": plain}}, 200,
			nil, false},
		{"spec path with the add-on token, paid status", "/orders/" + code + "/status", true, map[string]any{"data": map[string]any{"statusId": itoa(paid)}}, 200,
			[]string{"order:update " + code, "order:paid " + code, "invoice:create", "proofPayment:create"}, true},
		{"paid again: no second order:paid", "/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"paid": true}}, 200, nil, true},
		{"cancel", "/api/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"statusId": canceled}}, 200,
			[]string{"order:update " + code, "order:cancel " + code, "stock:movement 1"}, true},
		{"unpaid then paid by flag", "/api/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"paid": false}}, 200,
			[]string{"order:update " + code}, false},
		{"paid by flag", "/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"paid": true, "billingMethodId": 2}}, 200,
			[]string{"order:update " + code, "order:paid " + code}, true},
		{"unknown status", "/orders/" + code + "/status", false, map[string]any{"data": map[string]any{"statusId": 999}}, 400, nil, true},
		{"nothing to change", "/orders/" + code + "/status", false, map[string]any{"data": map[string]any{}}, 422, nil, true},
		{"unknown order", "/orders/NO-SUCH/status", false, map[string]any{"data": map[string]any{"statusId": plain}}, 404, nil, true},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			token := f.Token
			if st.addon {
				token = f.AddonToken
			}
			r := patch(st.path, token, st.addon, st.body)
			if r.Status != st.status {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			evs := e.ev.take()
			var kinds []string
			for _, ev := range evs {
				if strings.HasPrefix(ev, "invoice:") || strings.HasPrefix(ev, "proofPayment:") {
					ev = strings.Fields(ev)[0]
				}
				kinds = append(kinds, ev)
			}
			if strings.Join(kinds, ",") != strings.Join(st.events, ",") {
				t.Errorf("events %v, want %v", kinds, st.events)
			}
			if st.status != 200 {
				if len(r.Env.Errors) == 0 {
					t.Fatal("no error in the envelope")
				}
				return
			}
			var d struct{ Order map[string]any }
			r.Data(t, &d)
			if d.Order["paid"] != st.paid {
				t.Errorf("paid %v, want %v", d.Order["paid"], st.paid)
			}
		})
	}
	if got := e.supply(t, "1", v.Code); got != stock {
		t.Errorf("stock %s after cancel, want %s back", got, stock)
	}
	var mails int
	r := e.Do(sandboxtest.Call{Path: "/_sandbox/outbox?orderCode=" + code})
	var box struct{ Emails []map[string]any }
	r.Data(t, &box)
	for _, m := range box.Emails {
		if m["kind"] == "order-status" {
			mails++
		}
	}
	if mails != 3 { // plain, paid, canceled (all with _sendEmail)
		t.Errorf("%d status e-mails, want 3: %v", mails, box.Emails)
	}
	// rights: the read-only token and a body without Content-Type
	r = e.Do(sandboxtest.Call{Method: "PATCH", Path: "/orders/" + code + "/status", ContentType: "-", PrivateToken: f.Token, Body: `{"data":{"statusId":-1}}`})
	if r.Status != 422 {
		t.Errorf("alias without Content-Type: %d", r.Status)
	}
	r = e.Do(sandboxtest.Call{Method: "PATCH", Path: "/orders/" + code + "/status", Body: `{"data":{"statusId":-1}}`})
	if r.Status != 401 {
		t.Errorf("alias without a token: %d", r.Status)
	}
	r = e.Do(sandboxtest.Call{Method: "PATCH", Path: "/orders/" + code + "/status", PrivateToken: f.OtherToken, Body: map[string]any{"data": map[string]any{"statusId": -1}}})
	if r.Status != 404 {
		t.Errorf("another e-shop's order: %d", r.Status)
	}
	r = e.Do(sandboxtest.Call{Method: "GET", Path: "/orders/" + code + "/status", PrivateToken: f.Token})
	if r.Status != 404 {
		t.Errorf("GET on the alias: %d", r.Status)
	}
}

// TestBulkStatusChange changes several orders at once; unknown codes are
// skipped and reported with 200.
func TestBulkStatusChange(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	canceled := f.status(t, func(id int, chg, paid bool, role string) bool { return role == "canceled" })
	a, b := f.Orders[len(f.Orders)-1]["code"].(string), f.Orders[len(f.Orders)-2]["code"].(string)
	r := e.call(t, "PATCH", "/api/orders/status-change", map[string]any{"data": map[string]any{"orderCodes": []string{a, "NOPE", b}, "statusId": canceled}})
	if r.Status != 200 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != "NOPE" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	evs := e.ev.take()
	for _, c := range []string{a, b} {
		if !contains(evs, "order:cancel "+c) {
			t.Errorf("no order:cancel for %s in %v", c, evs)
		}
	}
}

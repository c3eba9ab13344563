package payments_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestPaymentMethods: a method the add-on creates is inactive and hidden
// until the operator activates it; orders cannot use it before.
func TestPaymentMethods(t *testing.T) {
	e := start(t)
	r := e.Do(e.addon("POST", "/api/payment-methods", map[string]any{"data": map[string]any{"name": "Pay by bank app", "paymentType": "card",
		"visibility": true, "logo": map[string]any{"filename": "bank.png", "content": "iVBORw0KGgo="}}}))
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var m map[string]any
	r.Data(t, &m)
	guid := m["guid"].(string)
	if m["visibility"] != false || m["paymentType"].(map[string]any)["id"].(float64) != 4 || !strings.HasSuffix(m["logoUrl"].(string), "bank.png") {
		t.Errorf("created %v", m)
	}
	if evs := e.ev.take(); len(evs) != 1 || evs[0] != "paymentMethod:change "+guid {
		t.Errorf("events %v", evs)
	}
	listed := func() map[string]any {
		var l struct{ PaymentMethods []map[string]any }
		e.Do(e.private("GET", "/api/payment-methods", nil)).Data(t, &l)
		for _, pm := range l.PaymentMethods {
			if pm["guid"] == guid {
				return pm
			}
		}
		return nil
	}
	if pm := listed(); pm == nil || pm["visible"] != false {
		t.Fatalf("listed %v", pm)
	}
	method := map[string]any{"guid": guid}
	r = e.Do(e.private("POST", "/api/orders", map[string]any{"data": e.f.order(method)}))
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.paymentMethodGuid" {
		t.Fatalf("order with an inactive method: %d %s", r.Status, r.Body)
	}
	r = e.Do(sandboxtest.Call{Method: "POST", Path: "/_sandbox/eshops/1001/payment-methods/" + guid + "/activate"})
	if r.Status != 200 {
		t.Fatalf("activate: %d %s", r.Status, r.Body)
	}
	if pm := listed(); pm["visible"] != true {
		t.Errorf("after activation %v", pm)
	}
	o, code := e.newOrder(t, method)
	if code == "" || o["onlinePaymentLink"] == nil {
		t.Errorf("an order paid by the add-on's new method gets a payment code: %q %v", code, o["onlinePaymentLink"])
	}
	if r := e.Do(e.private("POST", "/api/payment-methods", map[string]any{"data": map[string]any{"name": "X", "paymentType": "barter"}})); r.Status != 400 || r.Env.Errors[0].Instance != "data.paymentType" {
		t.Errorf("unknown payment type: %d %s", r.Status, r.Body)
	}
	if r := e.Do(e.private("DELETE", "/api/payment-methods/"+guid, nil)); r.Status != 200 {
		t.Errorf("delete: %d", r.Status)
	}
	if r := e.Do(e.private("DELETE", "/api/payment-methods/"+guid, nil)); r.Status != 404 {
		t.Errorf("delete again: %d", r.Status)
	}
}

// TestPaymentStatus plays the add-on's side of steps 4-7 over the API.
func TestPaymentStatus(t *testing.T) {
	e := start(t)
	f := e.f
	o, code := e.newOrder(t, f.Card)
	orderCode := o["code"].(string)
	if code == "" {
		t.Fatal("no payment code")
	}
	e.ev.take()
	r := e.Do(e.addon("GET", "/api/payment-status/"+code, nil))
	if r.Status != 200 {
		t.Fatalf("payment info: %d %s", r.Status, r.Body)
	}
	var info struct{ OrderCode, ReturnURL string }
	r.Data(t, &info)
	if info.OrderCode != orderCode || info.ReturnURL != e.URL+"/eshops/1001/order/"+orderCode+"/thank-you?paymentCode="+code {
		t.Errorf("info %+v", info)
	}
	if r := e.Do(e.addon("GET", "/api/payment-status/NO-SUCH-CODE", nil)); r.Status != 404 {
		t.Errorf("unknown code: %d", r.Status)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "refunded"}})); r.Status != 400 || r.Env.Errors[0].Instance != "data.status" {
		t.Errorf("unknown result: %d %s", r.Status, r.Body)
	}
	r = e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid", "message": "3-D Secure OK"}}))
	if r.Status != 200 {
		t.Fatalf("paid: %d %s", r.Status, r.Body)
	}
	evs := e.ev.take()
	for _, want := range []string{"order:update " + orderCode, "order:paid " + orderCode} {
		if !contains(evs, want) {
			t.Errorf("missing %s in %v", want, evs)
		}
	}
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, strings.Fields(ev)[0])
	}
	if !contains(kinds, "invoice:create") && !contains(kinds, "proofPayment:create") {
		t.Errorf("the paid status's documents are missing: %v", evs)
	}
	var d struct{ Order map[string]any }
	e.Do(e.private("GET", "/api/orders/"+orderCode+"?include=paymentTransactions", nil)).Data(t, &d)
	st := d.Order["status"].(map[string]any)
	if d.Order["paid"] != true || int(st["id"].(float64)) != f.Results["paid"] || d.Order["billingMethod"].(map[string]any)["id"].(float64) != 4 {
		t.Errorf("order after payment: paid %v status %v billing %v", d.Order["paid"], st, d.Order["billingMethod"])
	}
	tx := d.Order["paymentTransactions"].([]any)[0].(map[string]any)
	if tx["status"] != "paid" || tx["transactionId"] != code {
		t.Errorf("transaction %v", tx)
	}
	// the add-on then sets the status itself (step 6): nothing more happens
	r = e.Do(e.addon("PATCH", "/orders/"+orderCode+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}}))
	if r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}
	if evs := e.ev.take(); len(evs) != 0 {
		t.Errorf("setting the same status again: %v", evs)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 200 {
		t.Errorf("the same result again: %d", r.Status)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "canceled"}})); r.Status != 409 {
		t.Errorf("another result for a used code: %d %s", r.Status, r.Body)
	}
	// a failed attempt keeps the order unpaid; the buyer may try again
	o2, code2 := e.newOrder(t, f.Card)
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code2, map[string]any{"data": map[string]any{"status": "failed"}})); r.Status != 200 {
		t.Fatalf("failed: %d", r.Status)
	}
	e.Do(e.private("GET", "/api/orders/"+o2["code"].(string), nil)).Data(t, &d)
	if d.Order["paid"] != false {
		t.Errorf("failed payment marked the order paid")
	}
	// a canceled result cancels the order
	o3, code3 := e.newOrder(t, f.Card)
	e.ev.take()
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code3, map[string]any{"data": map[string]any{"status": "canceled"}})); r.Status != 200 {
		t.Fatalf("canceled: %d", r.Status)
	}
	if evs := e.ev.take(); !contains(evs, "order:cancel "+o3["code"].(string)) {
		t.Errorf("events %v", evs)
	}
	// private tokens may read codes too; a method without an online gateway gets none
	if r := e.Do(e.private("GET", "/api/payment-status/"+code, nil)); r.Status != 200 {
		t.Errorf("private token: %d", r.Status)
	}
	if _, c := e.newOrder(t, f.COD); c != "" {
		t.Errorf("cash on delivery got payment code %q", c)
	}
}

// TestPaymentForCanceledOrder: a result for an order that was canceled in
// the meantime is recorded, but the order stays canceled and unpaid (the
// add-on escalates it; spec step 5).
func TestPaymentForCanceledOrder(t *testing.T) {
	e := start(t)
	o, code := e.newOrder(t, e.f.Card)
	oc := o["code"].(string)
	e.Do(e.private("PATCH", "/api/orders/"+oc+"/status", map[string]any{"data": map[string]any{"statusId": e.f.Results["canceled"]}}))
	e.ev.take()
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	var d struct{ Order map[string]any }
	e.Do(e.addon("GET", "/api/orders/"+oc+"?include=paymentTransactions", nil)).Data(t, &d)
	if d.Order["paid"] != false || int(d.Order["status"].(map[string]any)["id"].(float64)) != e.f.Results["canceled"] {
		t.Errorf("order after a late payment: paid %v, status %v", d.Order["paid"], d.Order["status"])
	}
	if tx := d.Order["paymentTransactions"].([]any)[0].(map[string]any); tx["status"] != "paid" {
		t.Errorf("the transaction does not show the result: %v", tx)
	}
	if evs := e.ev.take(); contains(evs, "order:paid "+oc) || !contains(evs, "order:update "+oc) {
		t.Errorf("events %v", evs)
	}
}

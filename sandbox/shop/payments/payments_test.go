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

// TestPaymentStatus plays the add-on's reads of steps 4-6 over the API:
// the payment's order and return address, unknown codes and results, and
// the one-time code's final result.
func TestPaymentStatus(t *testing.T) {
	e := start(t)
	f := e.f
	o, code := e.newOrder(t, f.Card)
	orderCode := o["code"].(string)
	if code == "" {
		t.Fatal("no payment code")
	}
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
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code+"?suppressDocumentGeneration=maybe", map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 400 {
		t.Errorf("a malformed flag: %d %s", r.Status, r.Body)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid", "message": "3-D Secure OK"}})); r.Status != 200 {
		t.Fatalf("paid: %d %s", r.Status, r.Body)
	}
	if tx := e.orderNow(t, orderCode)["paymentTransactions"].([]any)[0].(map[string]any); tx["status"] != "paid" || tx["transactionId"] != code {
		t.Errorf("transaction %v", tx)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 200 {
		t.Errorf("the same result again: %d", r.Status)
	}
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "canceled"}})); r.Status != 409 {
		t.Errorf("another result for a used code: %d %s", r.Status, r.Body)
	}
	// private tokens may read codes too; a method without an online gateway gets none
	if r := e.Do(e.private("GET", "/api/payment-status/"+code, nil)); r.Status != 200 {
		t.Errorf("private token: %d", r.Status)
	}
	if _, c := e.newOrder(t, f.COD); c != "" {
		t.Errorf("cash on delivery got payment code %q", c)
	}
}

// TestPaymentResultStoresOnly: PATCH /api/payment-status stores the
// result and nothing else (spec: payment flow step 6). Whatever the
// result, the order keeps its status, stays unpaid, keeps its billing
// method; no document, no e-mail, no order:paid or order:cancel: those
// follow from the status call alone (step 7).
func TestPaymentResultStoresOnly(t *testing.T) {
	for _, result := range []string{"paid", "canceled", "failed", "pending"} {
		t.Run(result, func(t *testing.T) {
			e := start(t)
			data := e.f.order(e.f.Card)
			data["billingMethodCode"] = 2 // wire transfer: a recorded payment form would show
			o, code := e.newOrderWith(t, data)
			oc := o["code"].(string)
			before := e.orderNow(t, oc)
			mails := len(e.outbox(t, oc))
			e.ev.take()
			if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": result}})); r.Status != 200 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
			if evs := e.ev.take(); len(evs) != 1 || evs[0] != "order:update "+oc {
				t.Errorf("events %v, want only the order's update (its transaction changed)", evs)
			}
			after := e.orderNow(t, oc)
			if after["paid"] != false || statusID(after) != statusID(before) || billingID(after) != 2 {
				t.Errorf("order after the result alone: paid %v, status %d (was %d), billing method %d (was 2)", after["paid"], statusID(after), statusID(before), billingID(after))
			}
			if n := len(e.outbox(t, oc)); n != mails {
				t.Errorf("e-mails for the order: %d, before %d", n, mails)
			}
			if tx := after["paymentTransactions"].([]any)[0].(map[string]any); tx["status"] != result {
				t.Errorf("transaction %v, want status %s", tx, result)
			}
		})
	}
}

// TestStatusCallCompletesPayment: the status call that follows a paid
// result moves the order to the paid status with everything the status
// definition implies (spec: step 7): paid flag and order:paid, the
// status's documents (invoice, proof of payment), its e-mail, and the
// payment form recorded as the billing method (step 6: on success).
func TestStatusCallCompletesPayment(t *testing.T) {
	e := start(t)
	f := e.f
	var paidStatus struct {
		ID         int  `json:"id"`
		MarkAsPaid bool `json:"markAsPaid"`
	}
	for _, st := range f.Statuses {
		if st.ID == f.Results["paid"] {
			paidStatus = st
		}
	}
	if !paidStatus.MarkAsPaid {
		t.Fatalf("the fixtures map paid to status %d, which does not mark orders paid", f.Results["paid"])
	}
	data := f.order(f.Card)
	data["billingMethodCode"] = 2
	// no documents at creation, so the paid status's invoice shows
	created := e.Do(e.private("POST", "/api/orders?suppressDocumentGeneration=true", map[string]any{"data": data}))
	if created.Status != 201 {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	var d struct{ Order map[string]any }
	created.Data(t, &d)
	oc := d.Order["code"].(string)
	code := d.Order["paymentTransactions"].([]any)[0].(map[string]any)["transactionId"].(string)
	if r := e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}})); r.Status != 200 {
		t.Fatalf("result: %d %s", r.Status, r.Body)
	}
	e.ev.take()
	mails := len(e.outbox(t, oc))
	r := e.Do(e.addon("PATCH", "/orders/"+oc+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}}))
	if r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}
	evs := e.ev.take()
	for _, want := range []string{"order:update " + oc, "order:paid " + oc} {
		if !contains(evs, want) {
			t.Errorf("missing %s in %v", want, evs)
		}
	}
	if k := kinds(evs); !contains(k, "invoice:create") || !contains(k, "proofPayment:create") {
		t.Errorf("the paid status's documents are missing: %v", evs)
	}
	after := e.orderNow(t, oc)
	if after["paid"] != true || statusID(after) != f.Results["paid"] || billingID(after) != 4 {
		t.Errorf("order after the status call: paid %v, status %d, billing method %d (want card, 4)", after["paid"], statusID(after), billingID(after))
	}
	if got := e.outbox(t, oc); len(got) != mails+1 || got[len(got)-1]["kind"] != "order-status" {
		t.Errorf("the paid status's e-mail: %v", got)
	}
	if NeedsLink := after["onlinePaymentLink"]; NeedsLink != nil {
		t.Errorf("a paid order keeps its payment link %v", NeedsLink)
	}
	// the same status again changes nothing
	if r := e.Do(e.addon("PATCH", "/orders/"+oc+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}})); r.Status != 200 {
		t.Fatalf("status again: %d", r.Status)
	}
	if evs := e.ev.take(); len(evs) != 0 {
		t.Errorf("setting the same status again: %v", evs)
	}

	// Marked paid by a status call without a paid result (an e-shop
	// owner's decision, or an add-on's mistake the report lists): paid,
	// but no payment form is recorded, since no payment succeeded.
	data = f.order(f.Card)
	data["billingMethodCode"] = 2
	o2, _ := e.newOrderWith(t, data)
	oc2 := o2["code"].(string)
	if r := e.Do(e.addon("PATCH", "/orders/"+oc2+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}})); r.Status != 200 {
		t.Fatalf("status: %d", r.Status)
	}
	if after := e.orderNow(t, oc2); after["paid"] != true || billingID(after) != 2 {
		t.Errorf("marked paid without a result: paid %v, billing method %d (want 2 kept)", after["paid"], billingID(after))
	}

	// canceled: the result alone leaves the order; the status call cancels it
	o3, code3 := e.newOrder(t, f.Card)
	oc3 := o3["code"].(string)
	e.Do(e.addon("PATCH", "/api/payment-status/"+code3, map[string]any{"data": map[string]any{"status": "canceled"}}))
	e.ev.take()
	if r := e.Do(e.addon("PATCH", "/orders/"+oc3+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["canceled"]}})); r.Status != 200 {
		t.Fatalf("cancel: %d", r.Status)
	}
	if evs := e.ev.take(); !contains(evs, "order:cancel "+oc3) {
		t.Errorf("events %v", evs)
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

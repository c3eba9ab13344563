package payments_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
)

// page fetches a buyer page (no API headers) and returns its HTML.
func (e *env) page(t testing.TB, path string) (int, string) {
	t.Helper()
	resp, err := e.Client.Get(e.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// TestBuyerPages checks the order-confirmed page (button, 5-second
// redirect to the filled gateway address, template insert), the payment
// link and the thank-you page, without a browser.
func TestBuyerPages(t *testing.T) {
	e := start(t)
	f := e.f
	gw := "https://gateway.example/pay?code=#PAYMENT_CODE#&eshop=#ESHOP_ID#&lang=#LANGUAGE#&shop=#ESHOP_URL#"
	if r := e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + f.Addon, Body: map[string]any{"url": gw}}); r.Status != 200 {
		t.Fatalf("gateway: %d %s", r.Status, r.Body)
	}
	if r := e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + f.Addon, Body: map[string]any{"url": "https://x.example/?no-code"}}); r.Status != 400 {
		t.Errorf("a template without #PAYMENT_CODE#: %d", r.Status)
	}
	err := e.App.Store.Update(func(tx *store.Tx) error {
		_, err := tx.Put(1001, storefront.TemplatesCollection, storefront.OrderConfirmed, []byte(`{"html":"<img id=\"conversion-pixel\" src=\"/pixel.gif\">"}`))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	o, code := e.newOrder(t, f.Card)
	oc := o["code"].(string)
	want := "https://gateway.example/pay?code=" + code + "&amp;eshop=1001&amp;lang=en&amp;shop=" + url.QueryEscape(e.URL+"/eshops/1001")
	status, html := e.page(t, "/eshops/1001/order/"+oc+"/confirmed")
	if status != 200 || !strings.Contains(html, `<meta http-equiv="refresh" content="5;url=`+want+`">`) ||
		!strings.Contains(html, `id="pay-online" class="button" href="`+want+`"`) || !strings.Contains(html, `id="conversion-pixel"`) {
		t.Fatalf("confirmed page (%d):\n%s\nwant gateway %s", status, html, want)
	}
	// the same attempt keeps its code
	if _, again := e.page(t, "/eshops/1001/order/"+oc+"/confirmed"); !strings.Contains(again, "code="+code) {
		t.Error("a second visit started a new payment code")
	}
	if _, pay := e.page(t, "/eshops/1001/order/"+oc+"/pay"); !strings.Contains(pay, `content="0;url=`+want) {
		t.Errorf("payment link page:\n%s", pay)
	}
	if _, pend := e.page(t, "/eshops/1001/order/"+oc+"/thank-you?paymentCode="+code); !strings.Contains(pend, `data-status="pending"`) {
		t.Errorf("thank-you while pending:\n%s", pend)
	}
	// The paid result alone: the page thanks for the payment and says the
	// order is not marked paid yet; the buyer is not sent to pay again.
	e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "paid"}}))
	if _, paid := e.page(t, "/eshops/1001/order/"+oc+"/thank-you?paymentCode="+code); !strings.Contains(paid, `data-status="paid"`) ||
		!strings.Contains(paid, `data-paid="false"`) || strings.Contains(paid, `id="pay-again"`) {
		t.Errorf("thank-you after the payment result alone:\n%s", paid)
	}
	if _, conf := e.page(t, "/eshops/1001/order/"+oc+"/confirmed"); strings.Contains(conf, "http-equiv") || !strings.Contains(conf, `data-status="received"`) {
		t.Errorf("confirmed page of an order whose payment was received:\n%s", conf)
	}
	if _, pay := e.page(t, "/eshops/1001/order/"+oc+"/pay"); strings.Contains(pay, "gateway.example") {
		t.Errorf("the payment link of a received payment leads to the gateway again:\n%s", pay)
	}
	// the add-on's status call marks the order paid
	if r := e.Do(e.addon("PATCH", "/orders/"+oc+"/status", map[string]any{"data": map[string]any{"statusId": f.Results["paid"]}})); r.Status != 200 {
		t.Fatalf("status: %d %s", r.Status, r.Body)
	}
	if _, paid := e.page(t, "/eshops/1001/order/"+oc+"/thank-you?paymentCode="+code); !strings.Contains(paid, `data-status="paid"`) || !strings.Contains(paid, `data-paid="true"`) {
		t.Errorf("thank-you after payment:\n%s", paid)
	}
	if _, conf := e.page(t, "/eshops/1001/order/"+oc+"/confirmed"); strings.Contains(conf, "http-equiv") || !strings.Contains(conf, `data-status="paid"`) {
		t.Errorf("confirmed page of a paid order still redirects:\n%s", conf)
	}
	// a failed attempt: the thank-you page offers another try, which gets a new code
	o2, code2 := e.newOrder(t, f.Card)
	oc2 := o2["code"].(string)
	e.Do(e.addon("PATCH", "/api/payment-status/"+code2, map[string]any{"data": map[string]any{"status": "failed"}}))
	_, failed := e.page(t, "/eshops/1001/order/"+oc2+"/thank-you?paymentCode="+code2)
	if !strings.Contains(failed, `data-status="failed"`) || !strings.Contains(failed, `id="pay-again"`) {
		t.Errorf("thank-you after a failed payment:\n%s", failed)
	}
	if _, conf := e.page(t, "/eshops/1001/order/"+oc2+"/confirmed"); strings.Contains(conf, "code="+code2) || !strings.Contains(conf, "http-equiv") {
		t.Errorf("a retry must get a new one-time code:\n%s", conf)
	}
	// no gateway registered: no redirect, an explanation
	e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + f.Addon, Body: map[string]any{"url": ""}})
	o3, _ := e.newOrder(t, f.Card)
	if _, conf := e.page(t, "/eshops/1001/order/"+o3["code"].(string)+"/confirmed"); strings.Contains(conf, "http-equiv") || !strings.Contains(conf, `data-status="unavailable"`) {
		t.Errorf("confirmed page without a gateway:\n%s", conf)
	}
	if status, _ := e.page(t, "/eshops/1001/order/NOPE/confirmed"); status != http.StatusNotFound {
		t.Errorf("unknown order: %d", status)
	}
	if status, _ := e.page(t, "/eshops/1001/order/"+oc+"/thank-you?paymentCode=nope"); status != http.StatusNotFound {
		t.Errorf("unknown payment: %d", status)
	}
}

// TestSeededPendingPayments: the fixtures' orders that wait for an online
// payment can be paid at once: their pending transaction ids are live
// payment codes.
func TestSeededPendingPayments(t *testing.T) {
	e := start(t)
	var orders []map[string]any
	read(t, "eshops/1001/orders.json", &orders)
	n := 0
	for _, o := range orders {
		if o["paid"] == true || o["paymentMethod"].(map[string]any)["guid"] != e.f.Card["guid"] {
			continue
		}
		for _, tx := range o["paymentTransactions"].([]any) {
			m := tx.(map[string]any)
			if m["status"] != "pending" {
				continue
			}
			n++
			r := e.Do(e.addon("GET", "/api/payment-status/"+m["transactionId"].(string), nil))
			if r.Status != 200 || !strings.Contains(string(r.Body), `"orderCode":"`+o["code"].(string)+`"`) {
				t.Errorf("seeded code %s: %d %s", m["transactionId"], r.Status, r.Body)
			}
		}
	}
	if n == 0 {
		t.Fatal("the fixtures have no order waiting for an online payment")
	}
}

// TestNewAttemptIsLogged: the buyer's payment link after a failed attempt
// starts a new one, a pending transaction on the order; that edit is in
// the orders' change log (with order:update), as a payment result's is,
// while a visit that keeps the open attempt changes and logs nothing.
func TestNewAttemptIsLogged(t *testing.T) {
	e := start(t)
	gw := "https://gateway.example/pay?code=#PAYMENT_CODE#&eshop=#ESHOP_ID#"
	if r := e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + e.f.Addon, Body: map[string]any{"url": gw}}); r.Status != 200 {
		t.Fatalf("gateway: %d %s", r.Status, r.Body)
	}
	o, code := e.newOrder(t, e.f.Card)
	oc := o["code"].(string)
	edits := func() int {
		t.Helper()
		r := e.Do(e.private("GET", "/api/orders/changes?changeType=edit&from="+url.QueryEscape(o["creationTime"].(string)), nil))
		if r.Status != 200 {
			t.Fatalf("changes: %d %s", r.Status, r.Body)
		}
		var d struct{ Changes []map[string]any }
		r.Data(t, &d)
		n := 0
		for _, c := range d.Changes {
			if c["code"] == oc {
				n++
			}
		}
		return n
	}
	e.page(t, "/eshops/1001/order/"+oc+"/pay")
	if n := edits(); n != 0 {
		t.Fatalf("the open attempt kept: %d edits logged, want 0", n)
	}
	e.Do(e.addon("PATCH", "/api/payment-status/"+code, map[string]any{"data": map[string]any{"status": "failed"}}))
	before := edits()
	e.ev.take()
	if _, pay := e.page(t, "/eshops/1001/order/"+oc+"/pay"); strings.Contains(pay, "code="+code) {
		t.Fatalf("the failed attempt's code again:\n%s", pay)
	}
	pending := 0
	for _, tx := range e.orderNow(t, oc)["paymentTransactions"].([]any) {
		if tx.(map[string]any)["status"] == "pending" {
			pending++
		}
	}
	if pending != 1 {
		t.Fatalf("%d pending transactions after the new attempt, want 1", pending)
	}
	if n := edits(); n != before+1 {
		t.Errorf("%d edits of order %s logged after the new attempt, want %d", n, oc, before+1)
	}
	if evs := e.ev.take(); !contains(evs, "order:update "+oc) {
		t.Errorf("events of the new attempt %v, want order:update %s", evs, oc)
	}
}

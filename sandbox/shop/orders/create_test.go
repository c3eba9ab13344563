package orders_test

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestCreateOrder creates an order and checks the answer, the stored
// order, its totals to the cent, the stock, the documents, the e-mail
// and the events.
func TestCreateOrder(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool {
		return v.Type == "product" && v.VatRate == "21.00" && atLeast(e.supply(t, "1", v.Code), "6")
	})
	before := e.supply(t, "1", v.Code)
	mails := e.count(t, "outbox")

	o := e.create(t, "/api/orders", f.order(product(v, "2", "1000.00")))
	code := o["code"].(string)
	if got := price(o); got != "2168.00/1791.73/376.27" {
		t.Errorf("price %s", got)
	}
	if o["price"].(map[string]any)["toPay"] != "2168.00" || o["paid"] != false || o["cashDeskOrder"] != false {
		t.Errorf("price/paid %v %v", o["price"], o["paid"])
	}
	items := o["items"].([]any)
	goods := items[2].(map[string]any)
	if goods["productGuid"] != v.GUID || goods["amount"] != "2.000" || goods["itemPrice"].(map[string]any)["withVat"] != "2000.00" ||
		goods["unitPrice"].(map[string]any)["withoutVat"] != "826.45" || goods["name"] == "" || goods["priceRatio"] != "1.0000" {
		t.Errorf("goods item %v", goods)
	}
	if st := o["status"].(map[string]any); int(st["id"].(float64)) != f.Statuses.Default {
		t.Errorf("status %v, want the default %d", st, f.Statuses.Default)
	}
	if o["shipping"].(map[string]any)["guid"] != f.Courier["guid"] || o["paymentMethod"].(map[string]any)["guid"] != f.COD["guid"] {
		t.Errorf("methods %v %v", o["shipping"], o["paymentMethod"])
	}
	if !strings.HasPrefix(o["adminUrl"].(string), e.URL+"/eshops/1001/admin/orders/"+code) {
		t.Errorf("adminUrl %v", o["adminUrl"])
	}
	// stock: two pieces left stock 1
	if after := e.supply(t, "1", v.Code); after != dsub(before, "2") {
		t.Errorf("stock %s -> %s", before, after)
	}
	// the stored order is what GET answers
	r := e.call(t, "GET", "/api/orders/"+code+"?include=notes", nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), `"code":"`+code+`"`) {
		t.Fatalf("detail: %d %s", r.Status, r.Body)
	}
	// the generic list and the detail with every include section serve
	// the new order in the reference's shapes (sandboxtest checks them)
	var l struct {
		Orders    []map[string]any
		Paginator struct{ TotalCount int }
	}
	e.call(t, "GET", "/api/orders?orderCodes="+code, nil).Data(t, &l)
	if l.Paginator.TotalCount != 1 || l.Orders[0]["fullName"] != "Eva Buyer" {
		t.Errorf("list %+v", l)
	}
	if r := e.call(t, "GET", "/api/orders/"+code+"?include=notes,shippingDetails,completion,paymentTransactions,images,surchargeParameters", nil); r.Status != 200 || strings.Contains(string(r.Body), `"_`) {
		t.Errorf("detail with every section (no sandbox metadata): %d %s", r.Status, r.Body)
	}
	if r := e.call(t, "GET", "/api/orders?orderCodes="+code, nil); strings.Contains(string(r.Body), `"_`) {
		t.Errorf("list shows sandbox metadata: %s", r.Body)
	}
	// documents and their events
	stored := e.record(t, "orders", code)
	inv, dn := stored["_invoiceCode"], stored["_deliveryNoteCode"]
	if inv == nil || dn == nil {
		t.Fatalf("no invoice / delivery note: %v %v", inv, dn)
	}
	invoice := e.record(t, "invoices", inv.(string))
	if invoice["orderCode"] != code || invoice["price"].(map[string]any)["withVat"] != "2168.00" || len(invoice["items"].([]any)) != 3 {
		t.Errorf("invoice %v", invoice)
	}
	if dnote := e.record(t, "delivery-notes", dn.(string)); len(dnote["items"].([]any)) != 1 {
		t.Errorf("delivery note items %v", dnote["items"])
	}
	if n := e.count(t, "outbox"); n != mails+1 {
		t.Errorf("outbox %d -> %d", mails, n)
	}
	evs := e.ev.take()
	for _, want := range []string{"order:create " + code, "invoice:create " + inv.(string), "deliveryNote:create " + dn.(string), "stock:movement 1"} {
		if !contains(evs, want) {
			t.Errorf("event %q missing in %v", want, evs)
		}
	}
	if contains(evs, "order:paid "+code) {
		t.Error("order:paid on creation")
	}
}

// dsub subtracts two decimal amounts and formats with 3 places.
func dsub(a, b string) string {
	x, _ := sandbox.ParseDecimal(a)
	y, _ := sandbox.ParseDecimal(b)
	return sandbox.FormatDecimal(x.Sub(y), 3)
}

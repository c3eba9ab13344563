package orders_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestOrderItems adds, changes and removes items and checks the totals,
// the stock and order:update.
func TestOrderItems(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" && atLeast(e.supply(t, "1", v.Code), "6") })
	o := e.create(t, "/api/orders", f.order(product(v, "1", "1000.00")))
	code := o["code"].(string)
	base := e.supply(t, "1", v.Code)
	e.ev.take()

	r := e.call(t, "POST", "/api/orders/"+code+"/item", map[string]any{"data": map[string]any{"itemType": "product", "code": v.Code, "vatRate": "21.00", "itemPriceWithVat": "500.00", "amount": "2", "priceRatio": "0.9000"}})
	if r.Status != 201 {
		t.Fatalf("add item: %d %s", r.Status, r.Body)
	}
	var d struct{ Order map[string]any }
	r.Data(t, &d)
	if got := price(d.Order); got != "2068.00/1709.09/358.91" {
		t.Errorf("after adding: %s", got)
	}
	items := d.Order["items"].([]any)
	added := items[len(items)-1].(map[string]any)
	id := strconv.Itoa(int(added["itemId"].(float64)))
	if added["unitPrice"].(map[string]any)["withVat"] != "450.00" || added["itemPrice"].(map[string]any)["withVat"] != "900.00" {
		t.Errorf("added item prices %v %v", added["unitPrice"], added["itemPrice"])
	}
	if got := e.supply(t, "1", v.Code); got != dsub(base, "2") {
		t.Errorf("stock after adding: %s", got)
	}
	if evs := e.ev.take(); !contains(evs, "order:update "+code) || !contains(evs, "stock:movement 1") {
		t.Errorf("events %v", evs)
	}

	r = e.call(t, "PATCH", "/api/orders/"+code+"/item/"+id, map[string]any{"data": map[string]any{"amount": "3", "remark": "gift wrap"}})
	if r.Status != 200 {
		t.Fatalf("change item: %d %s", r.Status, r.Body)
	}
	var it struct{ OrderItem map[string]any }
	r.Data(t, &it)
	if it.OrderItem["amount"] != "3.000" || it.OrderItem["itemPrice"].(map[string]any)["withVat"] != "1350.00" || it.OrderItem["remark"] != "gift wrap" {
		t.Errorf("changed item %v", it.OrderItem)
	}
	if got := e.supply(t, "1", v.Code); got != dsub(base, "3") {
		t.Errorf("stock after changing the amount: %s", got)
	}
	r = e.call(t, "PATCH", "/api/orders/"+code+"/item/"+id, map[string]any{"data": map[string]any{"code": "NO-SUCH"}})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.code" {
		t.Errorf("unknown code: %d %s", r.Status, r.Body)
	}
	r = e.call(t, "POST", "/api/orders/"+code+"/item/"+id+"/surcharge-parameters", map[string]any{"data": map[string]any{"name": "Engraving", "price": "99.00"}})
	if r.Status != 201 || !strings.Contains(string(r.Body), `"name":"Engraving"`) {
		t.Fatalf("surcharge: %d %s", r.Status, r.Body)
	}
	r = e.call(t, "DELETE", "/api/orders/"+code+"/item/"+id+"/surcharge-parameters/nope", nil)
	if r.Status != 404 {
		t.Errorf("unknown surcharge: %d", r.Status)
	}
	r = e.call(t, "DELETE", "/api/orders/"+code+"/item/"+id, nil)
	if r.Status != 200 {
		t.Fatalf("delete item: %d %s", r.Status, r.Body)
	}
	if got := e.supply(t, "1", v.Code); got != base {
		t.Errorf("stock after deleting: %s, want %s", got, base)
	}
	r = e.call(t, "GET", "/api/orders/"+code, nil)
	r.Data(t, &d)
	if got := price(d.Order); got != "1168.00/965.29/202.71" {
		t.Errorf("after deleting: %s", got)
	}
	if r := e.call(t, "DELETE", "/api/orders/"+code+"/item/999999", nil); r.Status != 404 {
		t.Errorf("unknown item: %d", r.Status)
	}

	// payment and shipping items
	r = e.call(t, "POST", "/api/orders/"+code+"/payment", map[string]any{"data": map[string]any{"guid": f.Card["guid"], "vatRate": "21.00", "itemPriceWithVat": "0.00"}})
	if r.Status != 201 {
		t.Fatalf("add payment: %d %s", r.Status, r.Body)
	}
	r.Data(t, &d)
	pms := d.Order["paymentMethods"].([]any)
	last := pms[len(pms)-1].(map[string]any)
	if last["paymentMethod"].(map[string]any)["guid"] != f.Card["guid"] {
		t.Errorf("paymentMethods %v", pms)
	}
	pid := strconv.Itoa(int(last["itemId"].(float64)))
	r = e.call(t, "PATCH", "/api/orders/"+code+"/payment/"+pid, map[string]any{"data": map[string]any{"guid": f.COD["guid"], "itemPriceWithVat": "39.00"}})
	if r.Status != 200 {
		t.Fatalf("change payment: %d %s", r.Status, r.Body)
	}
	r.Data(t, &it)
	if it.OrderItem["name"] != f.COD["name"] || it.OrderItem["itemPrice"].(map[string]any)["withVat"] != "39.00" {
		t.Errorf("payment item %v", it.OrderItem)
	}
	firstShipping := strconv.Itoa(int(d.Order["shippings"].([]any)[0].(map[string]any)["itemId"].(float64)))
	if r := e.call(t, "PATCH", "/api/orders/"+code+"/payment/"+firstShipping, map[string]any{"data": map[string]any{"itemPriceWithVat": "1.00"}}); r.Status != 404 {
		t.Errorf("a shipping item through the payment path: %d", r.Status)
	}
	r = e.call(t, "PATCH", "/api/orders/"+code+"/shipping/"+firstShipping, map[string]any{"data": map[string]any{"itemPriceWithVat": "0.00"}})
	if r.Status != 200 {
		t.Fatalf("change shipping: %d %s", r.Status, r.Body)
	}
	r = e.call(t, "POST", "/api/orders/"+code+"/shipping", map[string]any{"data": map[string]any{"guid": "00000000-0000-4000-8000-000000000000", "vatRate": "21.00", "itemPriceWithVat": "1.00"}})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.guid" {
		t.Errorf("unknown shipping method: %d %s", r.Status, r.Body)
	}
}

// TestOrderHistoryNotesHead covers the history remarks (with
// orderHistoryRemarks:change), the notes and the head.
func TestOrderHistoryNotesHead(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	o := e.create(t, "/api/orders", f.order(product(v, "1", "10.00")))
	code := o["code"].(string)
	e.ev.take()
	r := e.call(t, "POST", "/api/orders/"+code+"/history", map[string]any{"data": map[string]any{"text": "Customer called."}})
	if r.Status != 201 {
		t.Fatalf("remark: %d %s", r.Status, r.Body)
	}
	if evs := e.ev.take(); len(evs) != 1 || evs[0] != "orderHistoryRemarks:change "+code {
		t.Errorf("events %v", evs)
	}
	var h struct{ OrderHistory []map[string]any }
	e.call(t, "GET", "/api/orders/"+code+"/history", nil).Data(t, &h)
	if len(h.OrderHistory) != 2 || h.OrderHistory[0]["system"] != true || h.OrderHistory[1]["text"] != "Customer called." {
		t.Fatalf("history %v", h.OrderHistory)
	}
	e.call(t, "GET", "/api/orders/"+code+"/history?system=false", nil).Data(t, &h)
	if len(h.OrderHistory) != 1 {
		t.Errorf("system=false: %v", h.OrderHistory)
	}
	sysID := strconv.Itoa(int(h.OrderHistory[0]["id"].(float64)))
	if r := e.call(t, "DELETE", "/api/orders/"+code+"/history/"+sysID, nil); r.Status != 200 {
		t.Errorf("delete remark: %d %s", r.Status, r.Body)
	}
	e.call(t, "GET", "/api/orders/"+code+"/history?system=true", nil).Data(t, &h)
	if r := e.call(t, "DELETE", "/api/orders/"+code+"/history/"+strconv.Itoa(int(h.OrderHistory[0]["id"].(float64))), nil); r.Status != 409 {
		t.Errorf("deleting a system entry: %d", r.Status)
	}
	if r := e.call(t, "GET", "/api/orders/NOPE/history", nil); r.Status != 404 {
		t.Errorf("history of an unknown order: %d", r.Status)
	}

	r = e.call(t, "PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "VIP", "trackingNumber": "PA1",
		"additionalFields": []any{map[string]any{"index": 1, "text": "PO-7"}}}})
	if r.Status != 200 {
		t.Fatalf("notes: %d %s", r.Status, r.Body)
	}
	var d struct{ Order map[string]any }
	e.call(t, "GET", "/api/orders/"+code+"?include=notes", nil).Data(t, &d)
	notes := d.Order["notes"].(map[string]any)
	if notes["eshopRemark"] != "VIP" || notes["trackingNumber"] != "PA1" || !strings.HasSuffix(notes["trackingUrl"].(string), "PA1") ||
		notes["additionalFields"].([]any)[0].(map[string]any)["text"] != "PO-7" {
		t.Errorf("notes %v", notes)
	}
	r = e.call(t, "PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"additionalFields": []any{map[string]any{"index": 9, "text": "x"}}}})
	if r.Status != 400 || r.Env.Errors[0].Instance != "data.additionalFields[0].index" {
		t.Errorf("unknown additional field: %d %s", r.Status, r.Body)
	}

	r = e.call(t, "PATCH", "/api/orders/"+code+"/head", map[string]any{"data": map[string]any{"email": "new@example.com",
		"billingAddress": map[string]any{"countryCode": "CZ", "street": "Dlouhá", "houseNumber": "5"}}})
	if r.Status != 200 {
		t.Fatalf("head: %d %s", r.Status, r.Body)
	}
	r.Data(t, &d)
	if ba := d.Order["billingAddress"].(map[string]any); d.Order["email"] != "new@example.com" || ba["street"] != "Dlouhá" || ba["houseNumber"] != "5" || ba["fullName"] != "Eva Buyer" {
		t.Errorf("head %v %v", d.Order["email"], ba)
	}
	canceled := f.status(t, func(id int, chg, paid bool, role string) bool { return role == "canceled" })
	e.call(t, "PATCH", "/api/orders/"+code+"/status", map[string]any{"data": map[string]any{"statusId": canceled}})
	if r := e.call(t, "PATCH", "/api/orders/"+code+"/head", map[string]any{"data": map[string]any{"phone": "1"}}); r.Status != 422 {
		t.Errorf("head of a canceled order: %d", r.Status)
	}
	e.ev.take()
	if r := e.call(t, "DELETE", "/api/orders/"+code, nil); r.Status != 200 {
		t.Fatalf("delete: %d", r.Status)
	}
	if evs := e.ev.take(); !contains(evs, "order:delete "+code) {
		t.Errorf("events %v", evs)
	}
	if r := e.call(t, "GET", "/api/orders/"+code, nil); r.Status != 404 {
		t.Errorf("deleted order: %d", r.Status)
	}
}

// TestOrderExtras covers copy, sources, claims, gifts and the documents
// made from an order.
func TestOrderExtras(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	o := e.create(t, "/api/orders?suppressDocumentGeneration=true", f.order(product(v, "2", "10.00")))
	code := o["code"].(string)

	r := e.call(t, "POST", "/api/orders/"+code+"/copy", map[string]any{"data": map[string]any{"scope": "all"}})
	if r.Status != 201 {
		t.Fatalf("copy: %d %s", r.Status, r.Body)
	}
	var d struct{ Order map[string]any }
	r.Data(t, &d)
	if d.Order["code"] == code || d.Order["guid"] == o["guid"] || price(d.Order) != price(o) {
		t.Errorf("copy %v %v", d.Order["code"], price(d.Order))
	}

	var src struct{ Sources []map[string]any }
	e.call(t, "GET", "/api/orders/sources", nil).Data(t, &src)
	names := map[float64]any{}
	for _, s := range src.Sources {
		names[s["id"].(float64)] = s["name"]
	}
	if names[2] != "API" || names[1] == nil || o["source"].(map[string]any)["id"].(float64) != 2 {
		t.Errorf("sources %v, order source %v", src.Sources, o["source"])
	}

	var cl struct {
		Orders    []map[string]any
		Paginator struct{ TotalCount int }
	}
	e.call(t, "GET", "/api/orders/claims?orderCode="+code, nil).Data(t, &cl)
	if cl.Paginator.TotalCount != 1 || cl.Orders[0]["productCode"] != v.Code || cl.Orders[0]["amount"] != "2.000" {
		t.Errorf("claims %v", cl)
	}

	r = e.call(t, "POST", "/api/orders/gifts", map[string]any{"data": map[string]any{"code": v.Code, "currencyCode": "CZK", "orderPrice": "2000.00"}})
	if r.Status != 201 {
		t.Fatalf("gift: %d %s", r.Status, r.Body)
	}
	var g struct{ Items []map[string]any }
	r.Data(t, &g)
	if len(g.Items) != 1 || g.Items[0]["orderPrice"] != "2000.00" {
		t.Errorf("gifts %v", g.Items)
	}
	if r := e.call(t, "POST", "/api/orders/gifts", map[string]any{"data": map[string]any{"code": "NOPE", "currencyCode": "CZK"}}); r.Status != 400 {
		t.Errorf("gift of an unknown product: %d", r.Status)
	}
	if r := e.call(t, "DELETE", "/api/orders/gifts/"+strconv.Itoa(int(g.Items[0]["id"].(float64))), nil); r.Status != 200 {
		t.Errorf("delete gift: %d", r.Status)
	}
	var gs map[string]any
	e.call(t, "PATCH", "/api/orders/gifts/settings", map[string]any{"data": map[string]any{"stockDependent": true}}).Data(t, &gs)
	e.call(t, "GET", "/api/orders/gifts/settings", nil).Data(t, &gs)
	if gs["stockDependent"] != true {
		t.Errorf("gift settings %v", gs)
	}

	e.ev.take()
	r = e.call(t, "POST", "/api/orders/"+code+"/invoice", map[string]any{"data": map[string]any{"varSymbol": "777", "dueDate": "2030-01-31"}})
	if r.Status != 201 {
		t.Fatalf("invoice: %d %s", r.Status, r.Body)
	}
	var inv struct{ Invoice map[string]any }
	r.Data(t, &inv)
	if inv.Invoice["orderCode"] != code || inv.Invoice["varSymbol"].(float64) != 777 || inv.Invoice["dueDate"] != "2030-01-31" {
		t.Errorf("invoice %v", inv.Invoice)
	}
	if evs := e.ev.take(); !contains(evs, "invoice:create "+inv.Invoice["code"].(string)) {
		t.Errorf("events %v", evs)
	}
	if r := e.call(t, "POST", "/api/orders/"+code+"/invoice", map[string]any{"data": map[string]any{}}); r.Status != 409 {
		t.Errorf("second invoice: %d", r.Status)
	}
	if r := e.call(t, "POST", "/api/orders/"+code+"/invoice?suppressExistenceCheck=true", map[string]any{"data": map[string]any{}}); r.Status != 201 {
		t.Errorf("second invoice with suppressExistenceCheck: %d", r.Status)
	}
	r = e.call(t, "POST", "/api/orders/"+code+"/delivery-notes", map[string]any{"data": map[string]any{"code": "DL-" + code}})
	if r.Status != 201 || !strings.Contains(string(r.Body), `"code":"DL-`+code+`"`) {
		t.Errorf("delivery note: %d %s", r.Status, r.Body)
	}
	var pf struct{ ProformaInvoice map[string]any }
	proforma := e.Do(sandboxtest.Call{Method: "POST", Path: "/api/orders/" + code + "/proforma-invoice", PrivateToken: f.Token, Body: map[string]any{"data": map[string]any{}}})
	if proforma.Status != 201 {
		t.Fatalf("proforma: %d %s", proforma.Status, proforma.Body)
	}
	proforma.Data(t, &pf)
	if pf.ProformaInvoice["orderCode"] != code || pf.ProformaInvoice["price"].(map[string]any)["withVat"] != o["price"].(map[string]any)["withVat"] {
		t.Errorf("proforma %v", pf.ProformaInvoice)
	}
}

// TestControlPlane covers the outbox and the status-list editor with its
// orderStatusesList:change.
func TestControlPlane(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	e.create(t, "/api/orders", f.order(product(v, "1", "10.00")))
	var box struct{ Emails []map[string]any }
	e.Do(sandboxtest.Call{Path: "/_sandbox/outbox?eshop=1001&kind=order-confirmation"}).Data(t, &box)
	if len(box.Emails) != 1 || box.Emails[0]["to"] != "buyer@example.com" {
		t.Fatalf("outbox %v", box.Emails)
	}
	e.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/outbox"})
	e.Do(sandboxtest.Call{Path: "/_sandbox/outbox"}).Data(t, &box)
	if len(box.Emails) != 0 {
		t.Errorf("outbox after clearing: %v", box.Emails)
	}
	e.ev.take()
	r := e.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/order-statuses/7", Body: map[string]any{"name": "Packed", "changeOrderItems": true}})
	if r.Status != 200 {
		t.Fatalf("put status: %d %s", r.Status, r.Body)
	}
	if evs := e.ev.take(); len(evs) != 1 || evs[0] != "orderStatusesList:change 7" {
		t.Errorf("events %v", evs)
	}
	var st struct {
		Statuses []map[string]any
	}
	e.call(t, "GET", "/api/orders/statuses", nil).Data(t, &st)
	found := false
	for _, s := range st.Statuses {
		if s["id"].(float64) == 7 && s["name"] == "Packed" && s["changeOrderItems"] == true {
			found = true
		}
	}
	if !found {
		t.Errorf("new status not listed: %v", st.Statuses)
	}
	o := e.create(t, "/api/orders", func() map[string]any { d := f.order(product(v, "1", "1.00")); d["statusId"] = 7; return d }())
	if r := e.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/order-statuses/7"}); r.Status != 409 {
		t.Errorf("deleting a status in use: %d", r.Status)
	}
	e.call(t, "DELETE", "/api/orders/"+o["code"].(string), nil)
	if r := e.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/order-statuses/7"}); r.Status != 200 {
		t.Errorf("deleting a custom status: %d %s", r.Status, r.Body)
	}
	withDeleted := f.order(product(v, "1", "1.00"))
	withDeleted["statusId"] = 7
	if r := e.call(t, "POST", "/api/orders", map[string]any{"data": withDeleted}); r.Status != 400 {
		t.Errorf("an order in a deleted status: %d %s", r.Status, r.Body)
	}
	if r := e.Do(sandboxtest.Call{Method: "DELETE", Path: "/_sandbox/eshops/1001/order-statuses/" + itoa(f.Statuses.Default)}); r.Status != 409 {
		t.Errorf("deleting the default status: %d", r.Status)
	}
}

// TestStockEventsHTTP sells a variant out and cancels the order: the
// beta stock events follow the sum over all stocks.
func TestStockEventsHTTP(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	canceled := f.status(t, func(id int, chg, paid bool, role string) bool { return role == "canceled" })
	// a variant in stock: ordering its whole sum over all stocks sells it out
	v := f.variant(t, func(v variant) bool { return v.Type == "product" && atLeast(e.supply(t, "1", v.Code), "3") })
	total, _ := sandbox.ParseDecimal(e.supply(t, "1", v.Code))
	if s2 := e.supply(t, "2", v.Code); s2 != "" {
		d2, _ := sandbox.ParseDecimal(s2)
		total = total.Add(d2)
	}
	all := sandbox.FormatDecimal(total, 3)
	stock1 := e.supply(t, "1", v.Code)
	e.ev.take()
	o := e.create(t, "/api/orders", f.order(product(v, all, "10.00")))
	evs := e.ev.take()
	wantEvents := []string{"stock:movement 1", "stock:soldOut " + v.Code}
	for _, p := range f.Products {
		for _, vv := range p["variants"].([]any) {
			if vm := vv.(map[string]any); vm["code"] == v.Code && vm["minStockSupply"] != nil {
				wantEvents = append(wantEvents, "stock:minStockSupplyReached "+v.Code)
			}
		}
	}
	if len(wantEvents) < 3 {
		t.Fatal("pick a variant with a minimum supply")
	}
	for _, want := range wantEvents {
		if !contains(evs, want) {
			t.Errorf("missing %s in %v", want, evs)
		}
	}
	e.call(t, "PATCH", "/api/orders/"+o["code"].(string)+"/status", map[string]any{"data": map[string]any{"statusId": canceled}})
	if evs := e.ev.take(); !contains(evs, "stock:inStock "+v.Code) || !contains(evs, "order:cancel "+o["code"].(string)) {
		t.Errorf("after cancel: %v", evs)
	}
	if got := e.supply(t, "1", v.Code); got != stock1 {
		t.Errorf("stock %s, want %s back", got, stock1)
	}
	// a customer whose orders are disabled: the order is canceled at once
	var customers []map[string]any
	readFixture(t, "eshops/1001/customers.json", &customers)
	for _, c := range customers {
		if c["disabledOrders"] == true {
			d := f.order(product(v, "1", "10.00"))
			d["customerGuid"] = c["guid"]
			o := e.create(t, "/api/orders", d)
			if int(o["status"].(map[string]any)["id"].(float64)) != canceled {
				t.Errorf("order of a disabled customer: status %v", o["status"])
			}
			if evs := e.ev.take(); !contains(evs, "order:cancel "+o["code"].(string)) || contains(evs, "stock:movement 1") {
				t.Errorf("events %v", evs)
			}
			return
		}
	}
	t.Error("no customer with disabled orders in the fixtures")
}

// TestOrderChangesAndPDF reads the change log after a create, an edit
// and a delete, and downloads an order as a PDF.
func TestOrderChangesAndPDF(t *testing.T) {
	e := start(t, sandbox.Config{})
	f := e.f
	v := f.variant(t, func(v variant) bool { return v.Type == "product" })
	o := e.create(t, "/api/orders", f.order(product(v, "1", "10.00")))
	code := o["code"].(string)
	from := o["creationTime"].(string)
	e.call(t, "PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "x"}})
	e.call(t, "DELETE", "/api/orders/"+code, nil)
	var ch struct {
		Changes []map[string]any
	}
	r := e.call(t, "GET", "/api/orders/changes?from="+strings.ReplaceAll(from, "+", "%2B"), nil)
	if r.Status != 200 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	r.Data(t, &ch)
	var mine []string
	for _, c := range ch.Changes {
		if c["code"] == code {
			mine = append(mine, c["changeType"].(string))
		}
	}
	if strings.Join(mine, ",") != "add,edit,delete" {
		t.Errorf("changes of %s: %v", code, mine)
	}
	if r := e.call(t, "GET", "/api/orders/changes?from=2000-01-01T00:00:00Z&changeType=moved", nil); r.Status != 400 || r.Env.Errors[0].Instance != "changeType" {
		t.Errorf("bad changeType: %d", r.Status)
	}
	first := f.Orders[0]["code"].(string)
	r = e.call(t, "GET", "/api/orders/"+first+"/pdf", nil)
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(r.Body), "%PDF-") || !strings.Contains(string(r.Body), first) {
		t.Errorf("pdf: %d %s %.40q", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
}

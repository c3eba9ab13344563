package jobs_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
)

// shapeCase is one batch endpoint fed one row shape: the file's lines,
// the log word the job must write, and the reads that must show the
// rows' writes (gjson path = value on the answer of a GET).
type shapeCase struct {
	shape  string // "flat" or "library"
	lines  []map[string]any
	log    string
	checks map[string]string // "GET path|gjson path" -> value
}

// TestBatchRowShapes: every batch endpoint takes both the flat row and
// the row the official client library builds ({"data": row or rows,
// ...the record's identifiers}, an order's with "settings"), and writes
// both the same way. Every registry batch has cases, so a new batch
// endpoint cannot slip past.
func TestBatchRowShapes(t *testing.T) {
	var products, categories, lists []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	evtest.Read(t, "eshops/1001/categories.json", &categories)
	evtest.Read(t, "eshops/1001/pricelists.json", &lists)
	str := func(v any) string { return strings.Trim(jsonText(v), `"`) }
	p0, p1 := str(products[0]["guid"]), str(products[1]["guid"])
	cat0 := str(products[0]["defaultCategory"].(map[string]any)["guid"])
	inCat := ""
	for _, p := range products[1:] {
		if str(p["defaultCategory"].(map[string]any)["guid"]) == cat0 {
			inCat = str(p["guid"])
			break
		}
	}
	if inCat == "" {
		t.Fatal("the fixtures have no second product in the first product's category")
	}
	code0 := str(products[0]["variants"].([]any)[0].(map[string]any)["code"])
	code1 := str(products[1]["variants"].([]any)[0].(map[string]any)["code"])
	img := func(p int) string { return str(products[p]["images"].([]any)[0].(map[string]any)["name"]) }
	list0 := jsonText(lists[0]["id"])
	lastGuid := func(back int) string { return str(products[len(products)-1-back]["guid"]) }
	order := orderRow(t)
	type endpoint struct {
		method, path string
		cases        []shapeCase
	}
	batches := map[string]endpoint{
		"CreateBrandBatch": {"POST", "/api/brands/batch", []shapeCase{
			{"flat", []map[string]any{{"name": "Flat Brand", "indexName": "flat-brand"}}, "1 records changed",
				map[string]string{"/api/brands/flat-brand|data.name": "Flat Brand"}},
			{"library", []map[string]any{{"data": map[string]any{"name": "Library Brand", "indexName": "library-brand"}}}, "1 records changed",
				map[string]string{"/api/brands/library-brand|data.name": "Library Brand"}},
		}},
		"UpdateProductCategoryBatch": {"PATCH", "/api/categories/batch", []shapeCase{
			{"flat", []map[string]any{{"guid": cat0, "menuTitle": "Flat menu"}}, "1 records changed",
				map[string]string{"/api/categories/" + cat0 + "|data.menuTitle": "Flat menu"}},
			{"library", []map[string]any{{"guid": cat0, "data": map[string]any{"menuTitle": "Library menu"}}}, "1 records changed",
				map[string]string{"/api/categories/" + cat0 + "|data.menuTitle": "Library menu"}},
		}},
		"UpdateCategoryProductsPriorityBatch": {"PATCH", "/api/categories/products-priority/batch", []shapeCase{
			{"flat", []map[string]any{{"categoryGuid": cat0, "productGuid": p0, "priority": 3}}, "1 records changed",
				map[string]string{"/api/categories/" + cat0 + `/productsPriority|data.categoryProducts.#(productGuid=="` + p0 + `").priority`: "3"}},
			{"library", []map[string]any{{"categoryGuid": cat0, "data": []any{
				map[string]any{"productGuid": p0, "priority": 4}, map[string]any{"productGuid": inCat, "priority": 5}}}}, "1 records changed",
				map[string]string{
					"/api/categories/" + cat0 + `/productsPriority|data.categoryProducts.#(productGuid=="` + p0 + `").priority`:    "4",
					"/api/categories/" + cat0 + `/productsPriority|data.categoryProducts.#(productGuid=="` + inCat + `").priority`: "5",
				}},
		}},
		"UpdatePricelistBatch": {"PATCH", "/api/pricelists/" + list0 + "/batch", []shapeCase{
			{"flat", []map[string]any{{"code": code0, "vatRate": "12.00"}}, "1 records changed",
				map[string]string{"/api/pricelists/" + list0 + "?code=" + code0 + "|data.pricelist.0.vatRate": "12.00"}},
			{"library", []map[string]any{{"data": map[string]any{"code": code1, "vatRate": "10.00"}}}, "1 records changed",
				map[string]string{"/api/pricelists/" + list0 + "?code=" + code1 + "|data.pricelist.0.vatRate": "10.00"}},
		}},
		"ProductBatchUpdate": {"PATCH", "/api/products/batch", []shapeCase{
			{"flat", []map[string]any{{"guid": p0, "shortDescription": "Flat text"}}, "1 records changed",
				map[string]string{"/api/products/" + p0 + "|data.shortDescription": "Flat text"}},
			{"library", []map[string]any{{"guid": p1, "data": map[string]any{"shortDescription": "Library text"}}}, "1 records changed",
				map[string]string{"/api/products/" + p1 + "|data.shortDescription": "Library text"}},
		}},
		"ProductBatchDelete": {"DELETE", "/api/products/batch", []shapeCase{
			{"flat", []map[string]any{{"guid": lastGuid(0)}}, "1 records changed",
				map[string]string{"/api/products/" + lastGuid(0) + "|errors.0.errorCode": "not-found"}},
			{"library", []map[string]any{{"data": map[string]any{"guid": lastGuid(1)}}}, "1 records changed",
				map[string]string{"/api/products/" + lastGuid(1) + "|errors.0.errorCode": "not-found"}},
		}},
		"ProductImageBatchDelete": {"DELETE", "/api/products/images/batch", []shapeCase{
			{"flat", []map[string]any{{"productGuid": p0, "imageName": img(0)}}, "1 records changed",
				map[string]string{"/api/products/" + p0 + "?include=images|" + `data.images.#(name=="` + img(0) + `")`: ""}},
			{"library", []map[string]any{{"productGuid": p1, "data": []any{map[string]any{"imageName": img(1)}}}}, "1 records changed",
				map[string]string{"/api/products/" + p1 + "?include=images|" + `data.images.#(name=="` + img(1) + `")`: ""}},
		}},
		"OrderBatchInsertion": {"POST", "/api/orders/batch", []shapeCase{
			{"flat", []map[string]any{order("flat@example.com")}, "1 records changed",
				map[string]string{`/api/orders?email=flat@example.com|data.orders.0.email`: "flat@example.com"}},
			{"library", []map[string]any{{"settings": map[string]any{"suppressDocumentGeneration": true, "suppressEmailSending": true},
				"data": order("library@example.com")}}, "1 records changed",
				map[string]string{`/api/orders?email=library@example.com|data.orders.0.email`: "library@example.com"}},
		}},
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range reg.Resources() {
		for _, op := range row.Ops {
			if _, ok := batches[op.Operation]; op.Kind == registry.Batch && !ok {
				t.Errorf("batch %s has no row-shape cases", op.Operation)
			}
		}
	}
	for name, b := range batches {
		for _, c := range b.cases {
			t.Run(name+"/"+c.shape, func(t *testing.T) {
				e := evtest.Start(t, sandbox.Config{})
				e.Register("job:finished")
				id := submit(t, e, b.method, b.path, map[string]any{"batchFileUrlPath": jsonl(c.lines...)})
				e.Advance("5s")
				j := job(t, e, id)
				if j.Status != jobs.Completed || !strings.Contains(deref(j.Log), c.log) || strings.Contains(deref(j.Log), "skipped. Line") {
					t.Fatalf("job %s, log %q", j.Status, deref(j.Log))
				}
				for k, want := range c.checks {
					path, at, _ := strings.Cut(k, "|")
					got := gjson.ParseBytes(e.Call("GET", path, nil).Body).Get(at)
					if want == "" && got.Exists() {
						t.Errorf("GET %s: %s still there: %s", path, at, got.Raw)
					}
					if want != "" && got.String() != want {
						t.Errorf("GET %s: %s is %q, want %q", path, at, got.String(), want)
					}
				}
			})
		}
	}
}

// TestOrderRowSettings: an order row's settings are the creation flags
// of POST /api/orders: with suppressDocumentGeneration the order gets no
// invoice, without it it gets one; an unknown setting skips the row.
func TestOrderRowSettings(t *testing.T) {
	order := orderRow(t)
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	id := submit(t, e, "POST", "/api/orders/batch", map[string]any{"batchFileUrlPath": jsonl(
		map[string]any{"settings": map[string]any{"suppressDocumentGeneration": true}, "data": order("quiet@example.com")},
		map[string]any{"settings": map[string]any{}, "data": order("documents@example.com")},
		map[string]any{"settings": map[string]any{"sendFireworks": true}, "data": order("unknown@example.com")},
	)})
	e.Advance("5s")
	j := job(t, e, id)
	if j.Status != jobs.Completed || !strings.Contains(deref(j.Log), "3 rows read, 2 records changed, 1 rows skipped. Line 3: settings.sendFireworks is not an order creation flag") {
		t.Fatalf("job %s, log %q", j.Status, deref(j.Log))
	}
	invoices := func(email string) int64 {
		o := gjson.ParseBytes(e.Call("GET", "/api/orders?email="+email, nil).Body).Get("data.orders.0.code").String()
		if o == "" {
			t.Fatalf("no order for %s", email)
		}
		return gjson.ParseBytes(e.Call("GET", "/api/invoices?orderCode="+o, nil).Body).Get("data.invoices.#").Int()
	}
	if n := invoices("quiet@example.com"); n != 0 {
		t.Errorf("suppressDocumentGeneration: %d invoices", n)
	}
	if n := invoices("documents@example.com"); n != 1 {
		t.Errorf("without the flag: %d invoices, want 1", n)
	}
}

// orderRow returns a builder of the data of a minimal order with
// delivery (spec, item rule 1) for e-shop 1001, by e-mail.
func orderRow(t *testing.T) func(email string) map[string]any {
	var methods, shipping, products []map[string]any
	evtest.Read(t, "eshops/1001/payment-methods.json", &methods)
	evtest.Read(t, "eshops/1001/shipping-methods.json", &shipping)
	evtest.Read(t, "eshops/1001/products.json", &products)
	code := products[0]["variants"].([]any)[0].(map[string]any)["code"]
	return func(email string) map[string]any {
		return map[string]any{"email": email, "paymentMethodGuid": methods[0]["guid"], "shippingGuid": shipping[1]["guid"],
			"billingAddress": map[string]any{"fullName": "Batch Buyer", "street": "Krátká", "houseNumber": "3", "city": "Brno", "zip": "602 00", "countryCode": "CZ"},
			"currency":       map[string]any{"code": "CZK"},
			"items": []any{
				map[string]any{"itemType": "product", "code": code, "amount": "1.000", "vatRate": "21.00", "itemPriceWithVat": "100.00"},
				map[string]any{"itemType": "shipping", "name": "Kurýr", "vatRate": "21.00", "itemPriceWithVat": "99.00"},
				map[string]any{"itemType": "billing", "name": "Platba", "vatRate": "21.00", "itemPriceWithVat": "0.00"},
			}}
	}
}

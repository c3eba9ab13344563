package crud_test

import (
	"encoding/json"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// env is a sandbox with the full token of e-shop 1001 and a recorder of
// the domain events it publishes.
type env struct {
	s      *sandboxtest.Server
	token  string
	mu     sync.Mutex
	events []sandbox.Event
}

func start(t *testing.T) *env {
	t.Helper()
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	e := &env{s: s, token: fixture(t, "credentials", `privateTokens.#(rights=="all").token`)}
	s.App.Bus.Hook(func(m bus.Message) {
		if m.Topic == bus.TopicEvent && m.Event != nil {
			e.mu.Lock()
			e.events = append(e.events, *m.Event)
			e.mu.Unlock()
		}
	})
	return e
}

// fixture reads a value out of e-shop 1001's default fixtures.
func fixture(t *testing.T, file, path string) string {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, "eshops/1001/"+file+".json")
	if err != nil {
		t.Fatal(err)
	}
	v := gjson.GetBytes(raw, path)
	if !v.Exists() {
		t.Fatalf("fixtures %s: nothing at %s", file, path)
	}
	return v.String()
}

func (e *env) call(t *testing.T, method, path string, body any) *sandboxtest.Response {
	t.Helper()
	return e.s.Do(sandboxtest.Call{Method: method, Path: path, PrivateToken: e.token, Body: body})
}

// must calls and fails the test unless the status is want.
func (e *env) must(t *testing.T, want int, method, path string, body any) gjson.Result {
	t.Helper()
	r := e.call(t, method, path, body)
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.Body)
	}
	return gjson.ParseBytes(r.Body)
}

// took returns the events recorded so far and forgets them.
func (e *env) took() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.events {
		out = append(out, ev.Kind+" "+ev.Instance)
	}
	e.events = nil
	return out
}

func data(v string) map[string]any {
	var m any
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		panic(err)
	}
	return map[string]any{"data": m}
}

// TestLanguageVariants: POST writes the default language, PATCH with
// language writes only the translation, GET with language reads it, and
// a parameter is found by its code in the selected language.
func TestLanguageVariants(t *testing.T) {
	e := start(t)
	e.must(t, 201, "POST", "/api/products/filtering-parameters", data(`{"name":"Tloušťka","code":"tloustka"}`))
	e.must(t, 200, "PATCH", "/api/products/filtering-parameters/tloustka?language=en", data(`{"name":"Thickness","code":"thickness"}`))
	cs := e.must(t, 200, "GET", "/api/products/filtering-parameters/tloustka", nil)
	if cs.Get("data.name").String() != "Tloušťka" || cs.Get("data.code").String() != "tloustka" {
		t.Fatalf("default language changed: %s", cs.Get("data").Raw)
	}
	en := e.must(t, 200, "GET", "/api/products/filtering-parameters/thickness?language=en", nil)
	if en.Get("data.name").String() != "Thickness" || en.Get("data.code").String() != "thickness" {
		t.Fatalf("translation: %s", en.Get("data").Raw)
	}
	if r := e.call(t, "GET", "/api/products/filtering-parameters/thickness", nil); r.Status != 404 {
		t.Fatalf("the English code answers without language: %d", r.Status)
	}
	if r := e.call(t, "GET", "/api/products/filtering-parameters/tloustka?language=xx", nil); r.Status != 400 {
		t.Fatalf("unknown language: %d", r.Status)
	}
}

// TestChangeLog: the generic writes feed the "last changes" list; from
// and changeType select.
func TestChangeLog(t *testing.T) {
	e := start(t)
	now := sandbox.FormatTime(e.s.App.Clock.Now())
	q := "/api/products/changes?from=" + strings.Replace(now, "+", "%2B", 1)
	if n := e.must(t, 200, "GET", q, nil).Get("data.changes.#").Int(); n != 0 {
		t.Fatalf("%d changes before any write", n)
	}
	guid := e.must(t, 201, "POST", "/api/products", data(`{"name":"Změna","variants":[{"code":"CHG-1"}]}`)).Get("data.product.guid").String()
	e.must(t, 200, "PATCH", "/api/products/"+guid, data(`{"shortDescription":"x"}`))
	e.must(t, 200, "DELETE", "/api/products/"+guid, nil)
	got := e.must(t, 200, "GET", q, nil)
	var kinds []string
	for _, c := range got.Get("data.changes").Array() {
		if c.Get("guid").String() != guid {
			t.Fatalf("change of another product: %s", c.Raw)
		}
		kinds = append(kinds, c.Get("changeType").String())
	}
	if strings.Join(kinds, ",") != "add,edit,delete" {
		t.Fatalf("changes %v, want add,edit,delete", kinds)
	}
	if n := e.must(t, 200, "GET", q+"&changeType=delete", nil).Get("data.changes.#").Int(); n != 1 {
		t.Fatalf("changeType=delete: %d changes", n)
	}
	if r := e.call(t, "GET", "/api/products/changes?from=2000-01-01T00:00:00Z&changeType=moved", nil); r.Status != 400 || r.Env.Errors[0].Instance != "changeType" {
		t.Fatalf("bad changeType: %d %s", r.Status, r.Body)
	}
	// A fresh sandbox already tells the fixtures' history.
	if n := e.must(t, 200, "GET", "/api/invoices/changes?from=2000-01-01T00:00:00Z", nil).Get("data.paginator.totalCount").Int(); n == 0 {
		t.Fatal("no seeded invoice changes")
	}
}

// TestEvents: creates, updates and deletes emit the resource's events;
// writes of an embedded record emit its parent's update; a bulk create
// emits one event per coupon and then the mass event with the list.
func TestEvents(t *testing.T) {
	e := start(t)
	e.must(t, 201, "POST", "/api/brands", data(`{"name":"Event Gear","indexName":"event-gear"}`))
	e.must(t, 200, "PATCH", "/api/brands/event-gear", data(`{"description":"d"}`))
	e.must(t, 200, "DELETE", "/api/brands/event-gear", nil)
	guid := fixture(t, "customers", "0.guid")
	e.must(t, 201, "POST", "/api/customers/"+guid+"/remarks", data(`{"remark":"r","rating":"positive"}`))
	tpl := fixture(t, "coupon-templates", "0.guid")
	e.must(t, 201, "POST", "/api/discount-coupons", data(`{"coupons":[{"code":"EV-1","template":"`+tpl+`"},{"code":"EV-2","template":"`+tpl+`"}]}`))
	e.must(t, 200, "DELETE", "/api/discount-coupons", data(`{"couponCodes":["EV-1","EV-2"]}`))
	want := []string{
		"brand:create event-gear", "brand:update event-gear", "brand:delete event-gear",
		"customer:update " + guid,
		"discountCoupon:create EV-1", "discountCoupon:create EV-2", `discountCoupon:massCreate ["EV-1","EV-2"]`,
		"discountCoupon:delete EV-1", "discountCoupon:delete EV-2", `discountCoupon:massDelete ["EV-1","EV-2"]`,
	}
	if got := e.took(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A rolled-back write emits nothing.
	if r := e.call(t, "POST", "/api/brands", data(`{"name":"x","indexName":"`+fixture(t, "brands", "0.code")+`"}`)); r.Status != 409 {
		t.Fatalf("duplicate brand: %d %s", r.Status, r.Body)
	}
	if got := e.took(); len(got) != 0 {
		t.Fatalf("a refused write emitted %v", got)
	}
}

// TestBulk: skipped rows answer 200 with the rows in errors; more rows
// than the endpoint allows answer 413 and change nothing.
func TestBulk(t *testing.T) {
	e := start(t)
	code := fixture(t, "discount-coupons", "0.code")
	r := e.call(t, "PATCH", "/api/discount-coupons", data(`{"coupons":[{"code":"`+code+`","remark":"ok"},{"code":"NO-SUCH","remark":"x"}]}`))
	if r.Status != 200 || len(r.Env.Errors) != 1 || !strings.Contains(r.Env.Errors[0].Message, "data.coupons[1] skipped") {
		t.Fatalf("partial success: %d %s", r.Status, r.Body)
	}
	if got := e.must(t, 200, "GET", "/api/discount-coupons/"+code, nil).Get("data.coupon.remark").String(); got != "ok" {
		t.Fatalf("written row: remark %q", got)
	}
	var many []string
	for i := 0; i < 101; i++ {
		many = append(many, `{"code":"MANY-`+string(rune('A'+i%26))+strings.Repeat("X", i/26)+`"}`)
	}
	r = e.call(t, "POST", "/api/discount-coupons", data(`{"coupons":[`+strings.Join(many, ",")+`]}`))
	if r.Status != 413 || r.Env.Errors[0].ErrorCode != sandbox.CodeTooManyEntities {
		t.Fatalf("too many: %d %s", r.Status, r.Body)
	}
	if n := e.must(t, 200, "GET", "/api/discount-coupons?itemsPerPage=100", nil).Get(`data.coupons.#(code%"MANY-*")#`).Array(); len(n) != 0 {
		t.Fatalf("413 changed %d coupons", len(n))
	}
}

// TestSDKEncodings: integer value objects sent as digit strings and ""
// for null are stored and answered canonically.
func TestSDKEncodings(t *testing.T) {
	e := start(t)
	code := fixture(t, "credit-notes", "0.code")
	got := e.must(t, 200, "PATCH", "/api/credit-notes/"+code, data(`{"varSymbol":"2025123","specSymbol":"","constSymbol":""}`))
	if v := got.Get("data.creditNote.varSymbol"); v.Type != gjson.Number || v.Int() != 2025123 {
		t.Fatalf("varSymbol answered %s", v.Raw)
	}
	if v := got.Get("data.creditNote.specSymbol"); v.Type != gjson.Null {
		t.Fatalf("specSymbol answered %s", v.Raw)
	}
	if r := e.call(t, "PATCH", "/api/credit-notes/"+code, data(`{"varSymbol":"12a"}`)); r.Status != 422 || r.Env.Errors[0].Instance != "data.varSymbol" {
		t.Fatalf("bad digit string: %d %s", r.Status, r.Body)
	}
}

// TestPutSentAsPost: the client SDK sends the PUT endpoints as POST; the
// body decides between the POST and the PUT of the same path.
func TestPutSentAsPost(t *testing.T) {
	e := start(t)
	p0, p3 := fixture(t, "products", "0.guid"), fixture(t, "products", "3.guid")
	got := e.must(t, 200, "POST", "/api/products/"+p0+"/relatedProducts", data(`{"relatedProducts":[{"guid":"`+p3+`"}]}`))
	if got.Get("data.items.#").Int() != 1 {
		t.Fatalf("PUT sent as POST did not replace: %s", got.Get("data").Raw)
	}
	got = e.must(t, 201, "POST", "/api/products/"+p0+"/relatedProducts", data(`{"relatedProduct":{"guid":"`+fixture(t, "products", "1.guid")+`"}}`))
	if got.Get("data.items.#").Int() != 2 {
		t.Fatalf("POST did not add: %s", got.Get("data").Raw)
	}
	req := fixture(t, "shipping-requests", "0.shippingRequestCode")
	ship := fixture(t, "shipping-requests", "0._shippingGuid")
	e.must(t, 200, "POST", "/api/shipping-request/"+req+"/"+ship, data(`{"branchId":"B1"}`))
}

// TestReferences: an unknown referenced id answers 404 naming the field;
// a taken code 409; a new record is completed to the reference's shape.
func TestReferences(t *testing.T) {
	e := start(t)
	r := e.call(t, "POST", "/api/products", data(`{"name":"x","brandCode":"no-such-brand"}`))
	if r.Status != 404 || r.Env.Errors[0].Instance != "data.brandCode" {
		t.Fatalf("unknown brand: %d %s", r.Status, r.Body)
	}
	taken := fixture(t, "products", "0.variants.0.code")
	r = e.call(t, "POST", "/api/products", data(`{"name":"x","variants":[{"code":"`+taken+`"}]}`))
	if r.Status != 409 || r.Env.Errors[0].Instance != "data.variants[0].code" {
		t.Fatalf("taken variant code: %d %s", r.Status, r.Body)
	}
	got := e.must(t, 201, "POST", "/api/customers", data(`{"billingAddress":{"fullName":"Minimal"}}`))
	for _, k := range []string{"guid", "adminUrl", "priceRatio", "accounts", "deliveryAddress", "remarks", "creationTime"} {
		if !got.Get("data.customer." + k).Exists() {
			t.Fatalf("created customer lacks %s: %s", k, got.Get("data").Raw)
		}
	}
}

// TestDeleteGuards: a brand products use, or a category with products or
// subcategories, is deleted only with the reference's flag.
func TestDeleteGuards(t *testing.T) {
	e := start(t)
	brand := fixture(t, "products", "0.brand.code")
	r := e.call(t, "DELETE", "/api/brands/"+brand, nil)
	if r.Status != 409 || !strings.Contains(r.Env.Errors[0].Message, "deleteUsed=true") {
		t.Fatalf("used brand: %d %s", r.Status, r.Body)
	}
	e.must(t, 200, "DELETE", "/api/brands/"+brand+"?deleteUsed=true", nil)
	e.must(t, 404, "GET", "/api/brands/"+brand, nil)
	parent := fixture(t, "categories", "#(parentGuid!=null).parentGuid")
	r = e.call(t, "DELETE", "/api/categories/"+parent+"?deleteUsed=true", nil)
	if r.Status != 409 || !strings.Contains(r.Env.Errors[0].Message, "deleteChildren=true") {
		t.Fatalf("category with children: %d %s", r.Status, r.Body)
	}
	other := fixture(t, "products", `#(brand.code!="`+brand+`").brand.code`)
	if r := e.call(t, "DELETE", "/api/brands/"+other+"?deleteUsed=maybe", nil); r.Status != 400 || r.Env.Errors[0].Instance != "deleteUsed" {
		t.Fatalf("bad flag: %d %s", r.Status, r.Body)
	}
}

// TestVariantEvents: a product write emits the beta variant events of the
// variants it names; deleting a variant by code emits its delete.
func TestVariantEvents(t *testing.T) {
	e := start(t)
	guid := e.must(t, 201, "POST", "/api/products", data(`{"name":"V","variants":[{"code":"V-1"},{"code":"V-2"}]}`)).Get("data.product.guid").String()
	e.must(t, 200, "PATCH", "/api/products/"+guid, data(`{"variants":[{"code":"V-2","price":"10.00"},{"code":"V-3"}]}`))
	e.must(t, 200, "DELETE", "/api/products/code/V-1", nil)
	want := "productVariant:create V-1\nproductVariant:create V-2\nproduct:create " + guid +
		"\nproductVariant:update V-2\nproductVariant:create V-3\nproduct:update " + guid +
		"\nproductVariant:delete V-1\nproduct:update " + guid
	if got := strings.Join(e.took(), "\n"); got != want {
		t.Fatalf("events:\n%s\nwant:\n%s", got, want)
	}
	// A PATCH merges variants by code: the ones it does not name stay.
	codes := e.must(t, 200, "GET", "/api/products/"+guid, nil).Get("data.variants.#.code").String()
	if codes != `["V-2","V-3"]` {
		t.Fatalf("variants %s", codes)
	}
}

// TestSurchargeRename: the surcharge parameter PATCH goes through the
// generic update: a new name moves the record to the code made from it
// (the old code answers 404), and with a language the name goes into the
// translation and the code stays.
func TestSurchargeRename(t *testing.T) {
	e := start(t)
	code := fixture(t, "surcharge-parameters", "0.code")
	base := "/api/products/surcharge-parameters/"
	got := e.must(t, 200, "PATCH", base+code+"?language=en", data(`{"name":"Gift box"}`))
	if got.Get("data.surchargeParameter.code").String() != code {
		t.Fatalf("a translated name moved the code: %s", got.Get("data").Raw)
	}
	if r := e.call(t, "GET", base+code, nil); r.Status != 200 || gjson.GetBytes(r.Body, "data.surchargeParameter.name").String() == "Gift box" {
		t.Fatalf("default language after a translated PATCH: %d %s", r.Status, r.Body)
	}
	got = e.must(t, 200, "PATCH", base+code, data(`{"name":"Boxed Gift"}`))
	if got.Get("data.surchargeParameter.code").String() != "boxed-gift" {
		t.Fatalf("renamed: %s", got.Get("data").Raw)
	}
	if r := e.call(t, "GET", base+code, nil); r.Status != 404 {
		t.Fatalf("the old code: %d", r.Status)
	}
	if n := e.must(t, 200, "GET", base+"boxed-gift", nil).Get("data.surchargeParameter.name").String(); n != "Boxed Gift" {
		t.Fatalf("the new code names %q", n)
	}
}

// TestPricelistRowsFollowProducts: the price-list PATCH is a generic bulk
// update of the price rows (an unknown code is skipped with 200, each
// written row emits productVariantPrice:update, the mass event lists
// them), and deleting a product drops its rows from every price list.
func TestPricelistRowsFollowProducts(t *testing.T) {
	e := start(t)
	list := fixture(t, "pricelists", "0.id")
	code := fixture(t, "pricelists", "0._prices.0.code")
	guid := fixture(t, "pricelists", "0._prices.0._productGuid")
	body := data(`[{"code":"` + code + `","price":{"commonPrice":"200.00"}},{"code":"NO-SUCH-CODE","vatRate":"10.00"}]`)
	r := e.must(t, 200, "PATCH", "/api/pricelists/"+list, body)
	if errs := r.Get("errors").Array(); len(errs) != 1 || errs[0].Get("instance").String() != "NO-SUCH-CODE" {
		t.Fatalf("skipped rows: %s", r.Raw)
	}
	got := e.must(t, 200, "GET", "/api/pricelists/"+list+"?code="+code, nil).Get("data.pricelist.0.price")
	if got.Get("commonPrice").String() != "200.00" || got.Get("priceRatio").String() == "" {
		t.Fatalf("the price object is merged, not replaced: %s", got.Raw)
	}
	if ev := e.took(); strings.Join(ev, ",") != "productVariantPrice:update "+code+`,productVariantPrice:massUpdate ["`+code+`"]` {
		t.Fatalf("events %v", ev)
	}
	rows := func() int64 {
		return e.must(t, 200, "GET", "/api/pricelists/"+list+"?guid="+guid, nil).Get("data.paginator.totalCount").Int()
	}
	if rows() == 0 {
		t.Fatal("the fixture product has no price rows")
	}
	e.must(t, 200, "DELETE", "/api/products/"+guid, nil)
	if n := rows(); n != 0 {
		t.Fatalf("%d price rows of the deleted product remain", n)
	}
}

package marketing_test

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
)

// TestMarketingRules: a coupon set draws unique codes up to the bulk
// maximum; a single-use coupon is used once; the order must exist unless
// the check is suppressed; a mailing list sorts the addresses it gets.
func TestMarketingRules(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{Limits: &sandbox.Limits{Off: true}})
	tok := sandboxtest.Fixture(t, 1001, "credentials", `privateTokens.#(rights=="all").token`)
	do := func(method, path, body string) (int, gjson.Result) { return s.JSON(method, path, tok, body) }
	tpl := sandboxtest.Fixture(t, 1001, "coupon-templates", "0.guid")
	st, got := do("POST", "/api/discount-coupons/set", `{"data":{"count":5,"discountType":"absolute","amount":"50.00","currency":"CZK","template":"`+tpl+`"}}`)
	if st != 201 || got.Get("data.coupons.#").Int() != 5 {
		t.Fatalf("set: %d %s", st, got.Raw)
	}
	seen := map[string]bool{}
	got.Get("data.coupons.#.code").ForEach(func(_, c gjson.Result) bool { seen[c.String()] = true; return true })
	if len(seen) != 5 {
		t.Fatalf("codes not unique: %v", seen)
	}
	if st, _ := do("POST", "/api/discount-coupons/set", `{"data":{"count":101,"template":"`+tpl+`"}}`); st != 413 {
		t.Fatalf("101 coupons: %d", st)
	}
	single := sandboxtest.Fixture(t, 1001, "discount-coupons", "#(reusable==false).code")
	order := sandboxtest.Fixture(t, 1001, "orders", "0.code")
	if st, got := do("PATCH", "/api/discount-coupons/use/"+single, `{"data":{"orderCode":"NOPE"}}`); st != 404 || got.Get("errors.0.instance").String() != "data.orderCode" {
		t.Fatalf("unknown order: %d %s", st, got.Raw)
	}
	if st, _ := do("PATCH", "/api/discount-coupons/use/"+single, `{"data":{"orderCode":"`+order+`"}}`); st != 200 {
		t.Fatalf("use: %d", st)
	}
	if st, _ := do("PATCH", "/api/discount-coupons/use/"+single, `{"data":{"orderCode":"`+order+`"}}`); st != 409 {
		t.Fatalf("second use of a single-use coupon: %d", st)
	}
	reusable := sandboxtest.Fixture(t, 1001, "discount-coupons", "#(reusable==true).code")
	if st, _ := do("PATCH", "/api/discount-coupons/use/"+reusable+"?suppressOrderChecking=true", `{"data":{}}`); st != 200 {
		t.Fatalf("suppressed order check: %d", st)
	}
	list := sandboxtest.Fixture(t, 1001, "mailing-lists", "0.code")
	known := sandboxtest.Fixture(t, 1001, "mailing-lists", "0._emails.0.email")
	st, got = do("POST", "/api/mailing-lists/"+list, `{"data":{"emails":["`+known+`","new@example.org","not an address"]}}`)
	if st != 201 || got.Get("data.emailsExisting.0").String() != known || got.Get("data.emailsInserted.0").String() != "new@example.org" ||
		got.Get("data.emailsInvalid.0").String() != "not an address" || got.Get("data.errorMessages.#").Int() != 1 {
		t.Fatalf("emails: %d %s", st, got.Raw)
	}
	if st, _ := do("POST", "/api/mailing-lists/no-such-list", `{"data":{"emails":["a@example.org"]}}`); st != 404 {
		t.Fatalf("unknown list: %d", st)
	}
}

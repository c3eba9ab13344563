package crud_test

import (
	"strconv"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestSurchargeCreateDefaults: every default of the spec's surcharge
// parameter table holds on create, whether the field is left out or sent
// as null: the code is made from the name, the currency is the e-shop's
// default, required is false, includingVat is true, and the fields
// without a default are null. The answer and a later read agree.
func TestSurchargeCreateDefaults(t *testing.T) {
	e := start(t)
	currency := fixture(t, "eshop", "currencies.#(isDefault==true).code")
	table := []struct {
		field string
		want  func(name string) string // JSON of the value for a parameter of that name
	}{
		{"code", func(name string) string { return `"` + sandbox.Slug(name) + `"` }},
		{"currency", func(string) string { return `"` + currency + `"` }},
		{"required", func(string) string { return `false` }},
		{"includingVat", func(string) string { return `true` }},
		{"displayName", func(string) string { return `null` }},
		{"description", func(string) string { return `null` }},
		{"priority", func(string) string { return `null` }},
		{"googleMapping", func(string) string { return `null` }},
	}
	for _, tc := range table {
		for _, mode := range []string{"absent", "null"} {
			t.Run(tc.field+"/"+mode, func(t *testing.T) {
				name := "Default " + tc.field + " " + mode
				body := map[string]any{"name": name}
				if mode == "null" {
					body[tc.field] = nil
				}
				created := e.must(t, 201, "POST", "/api/products/surcharge-parameters", map[string]any{"data": body}).Get("data.surchargeParameter")
				if got := created.Get(tc.field).Raw; got != tc.want(name) {
					t.Fatalf("created with %s %s: %s = %s, want %s", tc.field, mode, tc.field, got, tc.want(name))
				}
				read := e.must(t, 200, "GET", "/api/products/surcharge-parameters/"+created.Get("code").String(), nil)
				if got := read.Get("data.surchargeParameter." + tc.field).Raw; got != tc.want(name) {
					t.Fatalf("read back: %s = %s, want %s", tc.field, got, tc.want(name))
				}
			})
		}
	}
}

// TestSurchargeCreateRules: a create follows the table's rules like an
// update does: a name is required (the code is made from it), an
// explicit code must be URL-friendly and the currency one of the
// e-shop's (400 naming the field, nothing stored); explicit values win
// over the defaults.
func TestSurchargeCreateRules(t *testing.T) {
	e := start(t)
	base := "/api/products/surcharge-parameters"
	before := e.must(t, 200, "GET", base, nil).Get("data.paginator.totalCount").Int()
	for _, tc := range []struct{ body, instance string }{
		{`{"name":"Bad code","code":"Bad Code"}`, "code"},
		{`{"name":"Odd currency","currency":"USD"}`, "currency"},
		{`{"displayName":"No name"}`, "name"},
		{`{"name":""}`, "name"},
	} {
		r := e.call(t, "POST", base, data(tc.body))
		if r.Status != 400 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != tc.instance {
			t.Fatalf("%s: %d %s", tc.body, r.Status, r.Body)
		}
	}
	got := e.must(t, 201, "POST", base, data(`{"name":"Explicit","code":"own-code","currency":"EUR","required":true,"includingVat":false}`)).Get("data.surchargeParameter")
	if got.Get("code").String() != "own-code" || got.Get("currency").String() != "EUR" || !got.Get("required").Bool() || got.Get("includingVat").Bool() {
		t.Fatalf("explicit values: %s", got.Raw)
	}
	if after := e.must(t, 200, "GET", base, nil).Get("data.paginator.totalCount").Int(); after != before+1 {
		t.Fatalf("%d parameters after one create, %d before: a refused create was stored", after, before)
	}
}

// TestSurchargeValueIndexFromItsName: a value created inline without a
// valueIndex gets the slug of its name (or of its description when it
// has no name), not of the two joined.
func TestSurchargeValueIndexFromItsName(t *testing.T) {
	e := start(t)
	created := e.must(t, 201, "POST", "/api/products/surcharge-parameters", map[string]any{"data": map[string]any{
		"name": "Wrapping", "values": []any{map[string]any{"name": "Gift box"}, map[string]any{"description": "Plain paper"}},
	}}).Get("data.surchargeParameter")
	read := e.must(t, 200, "GET", "/api/products/surcharge-parameters/"+created.Get("code").String(), nil)
	for i, want := range []string{"gift-box", "plain-paper"} {
		if got := read.Get("data.surchargeParameter.values." + strconv.Itoa(i) + ".valueIndex").String(); got != want {
			t.Errorf("value %d: valueIndex %q, want %q (%s)", i, got, want, read.Get("data.surchargeParameter.values").Raw)
		}
	}
}

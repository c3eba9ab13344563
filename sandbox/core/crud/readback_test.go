package crud_test

import (
	"strings"
	"testing"
)

// TestEmbeddedRename: a PATCH whose body gives an embedded record a new
// identifier (a variant parameter value's rawValue, a filtering or
// surcharge parameter value's valueIndex) moves the record to it: the
// answer is 200, the new identifier finds the record in the place the
// old one held, and the old one answers 404.
func TestEmbeddedRename(t *testing.T) {
	cases := []struct {
		name, parent, base, field, list string
	}{
		{"variant parameter value", "variant-parameters", "/api/products/variant-parameters/", "rawValue", "data.values"},
		{"filtering parameter value", "filtering-parameters", "/api/products/filtering-parameters/", "valueIndex", "data.values"},
		{"surcharge parameter value", "surcharge-parameters", "/api/products/surcharge-parameters/", "valueIndex", "data.surchargeParameter.values"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := start(t)
			key := "code"
			if c.parent == "variant-parameters" {
				key = "paramIndex"
			}
			parent := fixture(t, c.parent, "0."+key)
			old := fixture(t, c.parent, "0.values.1."+c.field)
			e.must(t, 200, "PATCH", c.base+parent+"/"+old, data(`{"`+c.field+`":"renamed-value"}`))
			got := e.must(t, 200, "GET", c.base+parent, nil)
			if v := got.Get(c.list + ".1." + c.field).String(); v != "renamed-value" {
				t.Fatalf("the renamed value is not in its place: %s", got.Get(c.list).Raw)
			}
			if got.Get(c.list + `.#(` + c.field + `=="` + old + `")`).Exists() {
				t.Fatalf("the old identifier is still there: %s", got.Get(c.list).Raw)
			}
			if r := e.call(t, "PATCH", c.base+parent+"/"+old, data(`{"`+c.field+`":"again"}`)); r.Status != 404 {
				t.Fatalf("the old identifier: %d %s", r.Status, r.Body)
			}
			e.must(t, 200, "PATCH", c.base+parent+"/renamed-value", data(`{"priority":4}`))
		})
	}
}

// TestProductRequestValues: what a product request sets in the shape
// the request declares is read back in the shape the answer declares: a
// surcharge value's own price and visibility for the product, and
// negativeStockAllowed true/false/null as "yes"/"no"/"default".
func TestProductRequestValues(t *testing.T) {
	e := start(t)
	guid := fixture(t, "products", "0.guid")
	code := fixture(t, "products", "0.variants.0.code")
	sp := fixture(t, "surcharge-parameters", "0.code")
	spv := fixture(t, "surcharge-parameters", "0.values.1.valueIndex")
	cases := []struct {
		negative any
		want     string
	}{{true, "yes"}, {false, "no"}, {nil, "default"}}
	for _, c := range cases {
		body := map[string]any{"data": map[string]any{
			"variants":            []any{map[string]any{"code": code, "negativeStockAllowed": c.negative}},
			"surchargeParameters": []any{map[string]any{"code": sp, "values": []any{map[string]any{"valueIndex": spv, "price": "77.00", "visible": false}}}},
		}}
		e.must(t, 200, "PATCH", "/api/products/"+guid, body)
		got := e.must(t, 200, "GET", "/api/products/"+guid+"?include=surchargeParameters", nil)
		if v := got.Get(`data.variants.#(code=="` + code + `").negativeStockAllowed`).String(); v != c.want {
			t.Errorf("negativeStockAllowed %v read back as %q, want %q", c.negative, v, c.want)
		}
		val := got.Get(`data.surchargeParameters.#(code=="` + sp + `").values.#(valueIndex=="` + spv + `")`)
		if val.Get("price").String() != "77.00" || val.Get("visible").Bool() {
			t.Errorf("surcharge value read back %s, want price 77.00 and not visible", val.Raw)
		}
	}
}

// TestFlagsManagement: a product update's flagsManagement adds (or
// re-dates) and removes single flags, leaving the others; an unknown
// action answers 422 and an unknown flag 404, each naming the entry, and
// nothing changes.
func TestFlagsManagement(t *testing.T) {
	e := start(t)
	guid := fixture(t, "products", "2.guid") // flags preorder, new, free-shipping
	path := "/api/products/" + guid + "?include=flags"
	flags := func() string { return e.must(t, 200, "GET", path, nil).Get("data.flags.#.code").Raw }
	e.must(t, 200, "PATCH", "/api/products/"+guid, data(`{"flagsManagement":[
		{"action":"remove","code":"new"},
		{"action":"add","code":"tip","dateFrom":"2026-01-01","dateTo":"2026-02-01"},
		{"action":"add","code":"preorder","dateTo":"2026-03-01"}]}`))
	if got := flags(); got != `["free-shipping","tip","preorder"]` {
		t.Fatalf("flags %s", got)
	}
	tip := e.must(t, 200, "GET", path, nil).Get(`data.flags.#(code=="tip")`)
	if tip.Get("dateFrom").String() != "2026-01-01" || tip.Get("dateTo").String() != "2026-02-01" {
		t.Fatalf("tip %s", tip.Raw)
	}
	cases := []struct {
		body     string
		status   int
		instance string
	}{
		{`{"flagsManagement":[{"action":"add","code":"new"},{"action":"toggle","code":"tip"}]}`, 422, "data.flagsManagement[1].action"},
		{`{"flagsManagement":[{"action":"add","code":"no-such-flag"}]}`, 404, "data.flagsManagement[0].code"},
	}
	for _, c := range cases {
		r := e.call(t, "PATCH", "/api/products/"+guid, data(c.body))
		if r.Status != c.status || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != c.instance {
			t.Errorf("%s: %d %s", c.body, r.Status, r.Body)
		}
	}
	if got := flags(); got != `["free-shipping","tip","preorder"]` {
		t.Fatalf("a refused request changed the flags: %s", got)
	}
}

// TestUnfitValuesRefused: a text the record cannot hold (the request's
// schema allows any text, the record keeps a date, a decimal, a word of
// a list) answers 400 naming the field instead of being stored and then
// answered as null; a value the record can hold in its canonical form
// (a discount with two decimal places where it keeps four) is still
// taken.
func TestUnfitValuesRefused(t *testing.T) {
	e := start(t)
	cust := fixture(t, "customers", "0.guid")
	group := fixture(t, "customer-groups", "0.id")
	cases := []struct {
		method, path, body string
		status             int
		instance, expect   string
	}{
		{"PATCH", "/api/customers/" + cust, `{"birthDate":"next tuesday"}`, 400, "data.birthDate", "a date like"},
		{"PATCH", "/api/customers/groups/" + group, `{"maxDiscount":"a lot"}`, 400, "data.maxDiscount", "decimal number with 4"},
		{"PATCH", "/api/customers/" + cust, `{"birthDate":"1990-05-17"}`, 200, "", ""},
		{"PATCH", "/api/customers/groups/" + group, `{"maxDiscount":"0.15"}`, 200, "", ""},
	}
	for _, c := range cases {
		r := e.call(t, c.method, c.path, data(c.body))
		if r.Status != c.status {
			t.Errorf("%s %s: %d, want %d: %s", c.path, c.body, r.Status, c.status, r.Body)
			continue
		}
		if c.status == 400 && (len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != c.instance || !strings.Contains(r.Env.Errors[0].Message, c.expect)) {
			t.Errorf("%s %s: %s", c.path, c.body, r.Body)
		}
	}
	if b := e.must(t, 200, "GET", "/api/customers/"+cust, nil).Get("data.customer.birthDate").String(); b != "1990-05-17" {
		t.Errorf("birthDate %q", b)
	}
	if d := e.must(t, 200, "GET", "/api/customers/groups", nil).Get(`data.customerGroups.#(id==` + group + `).maxDiscount`).String(); d != "0.1500" {
		t.Errorf("maxDiscount %q", d)
	}
}

// TestVariantReferences: a variant's consumptionTaxId, recyclingFeeId,
// measure and packaging unit ids read back as the objects and names the
// answer declares, and its stocksLocations as its amount and location per
// stock, which the stock's supplies list too; an unknown id answers 404
// naming the field.
func TestVariantReferences(t *testing.T) {
	e := start(t)
	tax := fixture(t, "consumption-taxes", "0.id")
	fee := fixture(t, "recycling-fee-categories", "0.id")
	mu := fixture(t, "measure-units", "0.id")
	unit := fixture(t, "units", "1.id")
	stock := fixture(t, "stocks", "1.id")
	body := data(`{"name":"Variant references","variants":[{"code":"VREF-1","price":"10.00",
		"consumptionTaxId":` + tax + `,"recyclingFeeId":` + fee + `,
		"measureUnit":{"measureAmount":"0.500","measureUnitId":` + mu + `,"packagingAmount":"2.000","packagingUnitId":` + unit + `},
		"stocksLocations":[{"stockId":` + stock + `,"location":"B-07","amount":"4.000"}]}]}`)
	guid := e.must(t, 201, "POST", "/api/products", body).Get("data.product.guid").String()
	v := e.must(t, 200, "GET", "/api/products/"+guid, nil).Get("data.variants.0")
	checks := map[string]string{
		"consumptionTax.id":                                  tax,
		"consumptionTax.name":                                fixture(t, "consumption-taxes", "0.name"),
		"recyclingFee.id":                                    fee,
		"recyclingFee.fee":                                   fixture(t, "recycling-fee-categories", "0.fee"),
		"measureUnit.measureUnitName":                        fixture(t, "measure-units", "0.unitName"),
		"measureUnit.packagingUnitName":                      fixture(t, "units", "1.name"),
		`perStockAmounts.#(stockId==` + stock + `).location`: "B-07",
		`perStockAmounts.#(stockId==` + stock + `).amount`:   "4.000",
	}
	for path, want := range checks {
		if got := v.Get(path).String(); got != want {
			t.Errorf("variant %s = %q, want %q", path, got, want)
		}
	}
	sup := e.must(t, 200, "GET", "/api/stocks/"+stock+"/supplies?code=VREF-1", nil).Get("data.supplies.0")
	if sup.Get("amount").String() != "4.000" || sup.Get("location").String() != "B-07" || sup.Get("productGuid").String() != guid {
		t.Errorf("stock supply %s", sup.Raw)
	}
	for _, c := range []struct{ field, body string }{
		{"data.variants[0].consumptionTaxId", `{"variants":[{"code":"VREF-1","consumptionTaxId":9999}]}`},
		{"data.variants[0].recyclingFeeId", `{"variants":[{"code":"VREF-1","recyclingFeeId":9999}]}`},
		{"data.variants[0].measureUnit.measureUnitId", `{"variants":[{"code":"VREF-1","measureUnit":{"measureUnitId":9999}}]}`},
		{"data.variants[0].stocksLocations[0].stockId", `{"variants":[{"code":"VREF-1","stocksLocations":[{"stockId":9999,"location":"X"}]}]}`},
	} {
		r := e.call(t, "PATCH", "/api/products/"+guid, data(c.body))
		if r.Status != 404 || len(r.Env.Errors) != 1 || r.Env.Errors[0].Instance != c.field {
			t.Errorf("%s: %d %s", c.field, r.Status, r.Body)
		}
	}
}

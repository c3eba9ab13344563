package shape

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func gen() *Gen {
	return &Gen{Now: time.Date(2025, 3, 1, 10, 0, 0, 0, time.FixedZone("", 3600)), UUID: func() string { return "11111111-2222-4333-8444-555555555555" }, Currency: "CZK"}
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func text(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestConform: required keys get canonical defaults, declared nullable
// keys the value lacks are null (every declared property is answered),
// values are repaired to the canonical form, undeclared keys are dropped
// (metadata kept).
func TestConform(t *testing.T) {
	n := Response("GetDetailOfBrand")
	if !n.Valid() {
		t.Fatal("no brand detail node")
	}
	got := text(gen().Conform(decode(t, `{"name":"X","extra":1,"_meta":2,"showInBrandList":"true"}`), n))
	want := `{"_meta":2,"brandWeb":null,"contactEmail":null,"description":null,"europeanResellerContactEmail":null,` +
		`"europeanResellerManufacturingCompanyName":null,"europeanResellerPostalAddress":null,"guid":"","indexName":"",` +
		`"manufacturingCompanyName":null,"metaDescription":null,"metaTitle":null,"name":"X","postalAddress":null,` +
		`"showInBrandList":true,"showInCategoriesMenu":false}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	cases := []struct{ op, path, in, want string }{
		// a price in the wrong number of places becomes canonical
		{"GetListOfConsumptionTaxes", "consumptionTaxes.[].price", `"12.5"`, `"12.50"`},
		// a number where a price string is due
		{"GetListOfConsumptionTaxes", "consumptionTaxes.[].price", `7`, `"7.00"`},
		// an integer sent as digits
		{"GetListOfConsumptionTaxes", "consumptionTaxes.[].id", `"42"`, `42`},
		// a required GUID gets a fresh one
		{"GetShipmentDetail", "guid", `null`, `"11111111-2222-4333-8444-555555555555"`},
		// a nullable value of the wrong type becomes null
		{"GetDetailOfBrand", "description", `{"a":1}`, `null`},
		// an enum value outside the list falls back to the first
		{"GetListOfProducts", "products.[].visibility", `"nope"`, `"hidden"`},
	}
	for _, tc := range cases {
		node := Response(tc.op)
		for _, s := range splitPath(tc.path) {
			node = node.Path(s)
		}
		if got := text(gen().Conform(decode(t, tc.in), node)); got != tc.want {
			t.Errorf("%s %s: %s -> %s, want %s", tc.op, tc.path, tc.in, got, tc.want)
		}
	}
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '.' {
			s := p[start:i]
			if s == "[]" {
				out = append(out, "[]")
			} else if s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	return out
}

// TestComplete keeps undeclared keys (a record's sandbox fields) while
// filling the required ones.
func TestComplete(t *testing.T) {
	got := text(gen().Complete(decode(t, `{"code":"acme","name":"Acme"}`), Def("Brand")))
	if got != `{"code":"acme","guid":"","indexName":"","name":"Acme","showInBrandList":false,"showInCategoriesMenu":false}` {
		t.Fatalf("got %s", got)
	}
}

// TestNormalize undoes the SDK's encodings: digit strings for integer
// value objects, "" for a null value object; other strings stay.
func TestNormalize(t *testing.T) {
	in := decode(t, `{"varSymbol":"123","specSymbol":"","constSymbol":"","reasonRemark":"","dueDate":"2025-01-02"}`)
	got := text(Normalize(in, Request("UpdateCreditNote")))
	want := `{"constSymbol":null,"dueDate":"2025-01-02","reasonRemark":"","specSymbol":null,"varSymbol":123}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestDefaults(t *testing.T) {
	g := gen()
	tests := []struct {
		node Node
		want string
	}{
		{Response("GetListOfConsumptionTaxes").Path("consumptionTaxes", "[]", "created"), `null`},
		{Def("Invoice").Prop("varSymbol"), `0`},
		{Def("Invoice").Prop("price").Prop("exchangeRate"), `"1.00000000"`},
		{Def("Invoice").Prop("price").Prop("currencyCode"), `"CZK"`},
		{Def("Invoice").Prop("items"), `[]`},
	}
	for i, tc := range tests {
		var got any
		if tc.node.Nullable() {
			got = nil
		} else {
			got = g.Default(tc.node)
		}
		if text(got) != tc.want {
			t.Errorf("%d: %s, want %s", i, text(got), tc.want)
		}
	}
}

// TestUnfit: texts a record cannot hold are found with their path and
// what the record expects; texts Conform can repair, and values of other
// types, are not.
func TestUnfit(t *testing.T) {
	customer := Response("GetCustomerDetail").Path("customer")
	cases := []struct {
		name, in     string
		path, expect string
	}{
		{"a date", `{"birthDate":"soon"}`, ".birthDate", "a date like 2026-01-31"},
		{"a good date", `{"birthDate":"2001-02-03"}`, "", ""},
		{"a nested date-time", `{"accounts":[{"email":"a@b.c"}],"creationTime":"now"}`, ".creationTime", "a date-time like"},
		{"a decimal to repair", `{"priceRatio":"0.5"}`, "", ""},
		{"a decimal that is none", `{"priceRatio":"half"}`, ".priceRatio", "a decimal number with 4 decimal places"},
		{"another type", `{"birthDate":12}`, "", ""},
	}
	for _, c := range cases {
		path, expect, bad := Unfit(decode(t, c.in), customer)
		if bad != (c.path != "") || path != c.path || !strings.HasPrefix(expect, c.expect) {
			t.Errorf("%s: %q %q %v, want %q %q", c.name, path, expect, bad, c.path, c.expect)
		}
	}
}

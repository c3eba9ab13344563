package locale

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestTablesComplete: every language says everything, with the same
// values in the same order, so no page or e-mail falls back to another
// language or loses a value.
func TestTablesComplete(t *testing.T) {
	ref := reflect.ValueOf(*For(Fallback))
	for _, lang := range Languages() {
		m := For(lang)
		if m.Lang != lang {
			t.Fatalf("For(%q) is the %q table", lang, m.Lang)
		}
		v := reflect.ValueOf(*m)
		for i := range v.NumField() {
			f := v.Type().Field(i)
			switch f.Type.Kind() {
			case reflect.String:
				got, want := v.Field(i).String(), ref.Field(i).String()
				if strings.TrimSpace(got) == "" {
					t.Errorf("%s.%s is empty", lang, f.Name)
				}
				if strings.Count(got, "%s") != strings.Count(want, "%s") || strings.Count(got, "%") != strings.Count(want, "%") {
					t.Errorf("%s.%s takes other values than %s: %q vs %q", lang, f.Name, Fallback, got, want)
				}
			case reflect.Map:
				got := v.Field(i).Interface().(map[string]string)
				want := ref.Field(i).Interface().(map[string]string)
				if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
					t.Errorf("%s.%s names %v, %s names %v", lang, f.Name, slices.Sorted(maps.Keys(got)), Fallback, slices.Sorted(maps.Keys(want)))
				}
			}
		}
	}
}

func TestFor(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"cs", "cs"}, {"CS", "cs"}, {" en ", "en"}, {"en-GB", "en"}, {"cs_CZ", "cs"}, {"de", "en"}, {"", "en"},
	} {
		if got := For(tc.in).Lang; got != tc.want {
			t.Errorf("For(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got := For("cs").StatusName("failed"); got != "neúspěšná" {
		t.Errorf("cs failed = %q", got)
	}
	if got := For("cs").StatusName("refunded"); got != "refunded" {
		t.Errorf("an e-shop's own result keeps its code: %q", got)
	}
}

const info = `{"currencies":[
 {"code":"CZK","priceDecimalPlaces":0,"documentPriceDecimalPlaces":2,"display":{"decimalsSeparator":",","location":"after","text":"Kč","thousandsSeparator":" "}},
 {"code":"EUR","priceDecimalPlaces":2,"documentPriceDecimalPlaces":2,"display":{"decimalsSeparator":".","location":"before","text":"€","thousandsSeparator":","}}]}`

func TestCurrency(t *testing.T) {
	doc := gjson.Parse(info)
	const sp = "\u00a0"
	for _, tc := range []struct {
		code, amount string
		document     bool
		want         string
	}{
		{"CZK", "9490.00", false, "9" + sp + "490" + sp + "Kč"},
		{"CZK", "7490.00", true, "7" + sp + "490,00" + sp + "Kč"},
		{"CZK", "1234567.5", true, "1" + sp + "234" + sp + "567,50" + sp + "Kč"},
		{"CZK", "99.50", false, "100" + sp + "Kč"}, // rounded half up, as "math" rounding does
		{"CZK", "-12.30", true, "-12,30" + sp + "Kč"},
		{"EUR", "1189.00", false, "€1,189.00"},
		{"EUR", "19.9", true, "€19.90"},
		{"EUR", "0", true, "€0.00"},
		{"USD", "5.00", true, "5.00" + sp + "USD"}, // not a currency of the e-shop
		{"CZK", "abc", true, "abc"},                // never hides a stored value
	} {
		c := CurrencyOf(doc, tc.code)
		got := c.Price(tc.amount)
		if tc.document {
			got = c.Amount(tc.amount)
		}
		if got != tc.want {
			t.Errorf("%s %s = %q, want %q", tc.amount, tc.code, got, tc.want)
		}
	}
}

package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// parseItems reads a JSON list of request items the way the handler does.
func parseItems(t *testing.T, raw string) ([]*Item, error) {
	t.Helper()
	var list []map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&list); err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	var out []*Item
	for i, m := range list {
		it, err := ParseItem(i, m)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, nil
}

const (
	shipping = `{"itemType":"shipping","name":"Courier","vatRate":"21.00","itemPriceWithVat":"129.00"}`
	billing  = `{"itemType":"billing","name":"Cash on delivery","vatRate":"21.00","itemPriceWithVat":"39.00"}`
)

// TestItemRules runs the spec's item rules 1 and 4-9 (rules 2 and 3 need
// the catalogue and are covered over HTTP) on whole item lists and checks
// the order total to the cent, or the error and the field it names.
func TestItemRules(t *testing.T) {
	tests := []struct {
		name     string
		cashDesk bool
		items    string
		total    string // withVat/withoutVat/vat of the order
		lines    int    // items after rule 9
		instance string // error instance when the list is refused
	}{
		{name: "rule 1: minimal order with delivery", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"}]`,
			total: "1168.00/965.29/202.71", lines: 3},
		{name: "rule 1: no shipping item", items: `[` + billing + `,{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1.00"}]`,
			instance: "data.items"},
		{name: "rule 1: no billing item", items: `[` + shipping + `,{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1.00"}]`,
			instance: "data.items"},
		{name: "rule 1: no product item", items: `[` + shipping + `,` + billing + `]`, instance: "data.items"},
		{name: "rule 1: a cash-desk order needs no shipping or billing", cashDesk: true,
			items: `[{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"250.00","amount":"2"}]`,
			total: "500.00/413.22/86.78", lines: 1},
		{name: "rule 4: percentage coupon via priceRatio", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"3290.00","priceRatio":"0.9000"},
			{"itemType":"product","code":"B","vatRate":"21.00","itemPriceWithVat":"1590.00","priceRatio":"0.9000"},
			{"itemType":"discount-coupon","name":"WINTER10 (10 %)","vatRate":"21.00","itemPriceWithVat":"0.00"}]`,
			total: "4560.00/3768.59/791.41", lines: 5},
		{name: "rule 5: fixed coupon", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"discount-coupon","name":"SPRING200","vatRate":"21.00","itemPriceWithVat":"-200.00"}]`,
			total: "968.00/800.00/168.00", lines: 4},
		{name: "rule 5: a positive coupon is refused", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"discount-coupon","name":"X","vatRate":"21.00","itemPriceWithVat":"200.00"}]`,
			instance: "data.items[3].itemPriceWithVat"},
		{name: "rule 6: free-shipping coupon", items: `[{"itemType":"shipping","name":"Courier","vatRate":"21.00","itemPriceWithVat":"0.00"},` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"discount-coupon","name":"FREESHIP","vatRate":"21.00","itemPriceWithVat":"0.00"}]`,
			total: "1039.00/858.68/180.32", lines: 4},
		{name: "rule 7: volume discount", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"5000.00"},
			{"itemType":"volume-discount","name":"Volume 5 %","vatRate":"21.00","itemPriceWithVat":"-250.00"}]`,
			total: "4918.00/4064.46/853.54", lines: 4},
		{name: "rule 7: additional e-shop discount at vatRate 0.00", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"5000.00"},
			{"itemType":"volume-discount","name":"Club discount","vatRate":"0.00","itemPriceWithVat":"-300.00"}]`,
			total: "4868.00/3971.07/896.93", lines: 4},
		{name: "rule 7: a positive volume discount is refused", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"5000.00"},
			{"itemType":"volume-discount","name":"X","vatRate":"0.00","itemPriceWithoutVat":"1.00"}]`,
			instance: "data.items[3].itemPriceWithoutVat"},
		{name: "rule 8: gift at 0.00 and 0.0000", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"gift","code":"G","vatRate":"21.00","itemPriceWithVat":"0.00","priceRatio":"0.0000"}]`,
			total: "1168.00/965.29/202.71", lines: 4},
		{name: "rule 8: gift ratio defaults to 0.0000", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"gift","code":"G","vatRate":"21.00","itemPriceWithVat":"0.00"}]`,
			total: "1168.00/965.29/202.71", lines: 4},
		{name: "rule 8: a gift with a price is refused", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"gift","code":"G","vatRate":"21.00","itemPriceWithVat":"10.00","priceRatio":"0.0000"}]`,
			instance: "data.items[3].itemPriceWithVat"},
		{name: "rule 8: a gift with a ratio is refused", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1000.00"},
			{"itemType":"gift","code":"G","vatRate":"21.00","itemPriceWithVat":"0.00","priceRatio":"1.0000"}]`,
			instance: "data.items[3].priceRatio"},
		{name: "rule 9: coupon sent twice is distributed by VAT rate", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1210.00"},
			{"itemType":"product","code":"B","vatRate":"12.00","itemPriceWithVat":"560.00"},
			{"itemType":"discount-coupon","name":"FIXED300","vatRate":"0.00","itemPriceWithVat":"-300.00"},
			{"itemType":"discount-coupon","name":"FIXED300","vatRate":"21.00","itemPriceWithVat":"-300.00"}]`,
			total: "1638.00/1384.60/253.40", lines: 5},
		{name: "rule 9: discount given only once of the pair", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1210.00"},
			{"itemType":"product","code":"B","vatRate":"12.00","itemPriceWithVat":"560.00"},
			{"itemType":"discount-coupon","name":"FIXED300","vatRate":"0.00","itemPriceWithVat":"-300.00"},
			{"itemType":"discount-coupon","name":"FIXED300","vatRate":"21.00","itemPriceWithVat":"0.00"}]`,
			total: "1638.00/1384.60/253.40", lines: 5},
		{name: "rule 9: different discounts in the pair are refused", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","itemPriceWithVat":"1210.00"},
			{"itemType":"discount-coupon","name":"X","vatRate":"0.00","itemPriceWithVat":"-300.00"},
			{"itemType":"discount-coupon","name":"X","vatRate":"21.00","itemPriceWithVat":"-200.00"}]`,
			instance: "data.items[3].itemPriceWithVat"},
		{name: "no price at all", items: `[{"itemType":"product","code":"A","vatRate":"21.00"}]`, instance: "data.items[0].itemPriceWithVat"},
		{name: "net price only is enough", items: `[` + shipping + `,` + billing + `,
			{"itemType":"service","code":"S","vatRate":"21.00","itemPriceWithoutVat":"100.00"}]`,
			total: "289.00/238.84/50.16", lines: 3},
		{name: "unit price names are accepted too", items: `[` + shipping + `,` + billing + `,
			{"itemType":"product","code":"A","vatRate":"21.00","unitPriceWithVat":"100.00","amount":"2.000"}]`,
			total: "368.00/304.13/63.87", lines: 3},
		{name: "code required for a product", items: `[{"itemType":"product","vatRate":"21.00","itemPriceWithVat":"1.00"}]`, instance: "data.items[0].code"},
		{name: "a price that is not a number", items: `[{"itemType":"billing","vatRate":"21.00","itemPriceWithVat":"ten"}]`, instance: "data.items[0].itemPriceWithVat"},
		{name: "amount 0 is refused", items: `[{"itemType":"billing","vatRate":"21.00","itemPriceWithVat":"1.00","amount":"0"}]`, instance: "data.items[0].amount"},
		{name: "a status id that is not a number", items: `[{"itemType":"billing","vatRate":"21.00","itemPriceWithVat":"1.00","statusId":"x"}]`, instance: "data.items[0].statusId"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			items, err := parseItems(t, tc.items)
			if err == nil {
				err = CheckRules(items, tc.cashDesk)
			}
			if err == nil {
				PriceAll(items)
				items, err = DistributeCoupons(items)
			}
			if tc.instance != "" {
				if err == nil {
					t.Fatal("accepted, want an error")
				}
				if e := sandbox.AsError(err); e.Kind != sandbox.KindInvalid || e.Instance != tc.instance {
					t.Fatalf("error %v (instance %q), want 400 naming %s", err, e.Instance, tc.instance)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tot := Totals(items)
			if got := Money(tot.WithVat) + "/" + Money(tot.WithoutVat) + "/" + Money(tot.Vat); got != tc.total {
				t.Errorf("total %s, want %s", got, tc.total)
			}
			if len(items) != tc.lines {
				t.Errorf("%d items, want %d", len(items), tc.lines)
			}
		})
	}
}

// TestCouponDistribution checks rule 9's breakdown part by part.
func TestCouponDistribution(t *testing.T) {
	tests := []struct {
		name   string
		amount string
		rate   string
		base   map[string]string
		want   []string
	}{
		{"two rates in proportion", "-300.00", "21.00", map[string]string{"21.00": "1210.00", "12.00": "560.00"},
			[]string{"-205.08/-169.49/-35.59@21.00", "-94.92/-84.75/-10.17@12.00"}},
		{"remainder goes to the largest base", "-100.00", "21.00", map[string]string{"21.00": "100.00", "12.00": "100.00", "0.00": "100.00"},
			[]string{"-33.34/-27.55/-5.79@21.00", "-33.33/-29.76/-3.57@12.00", "-33.33/-33.33/0.00@0.00"}},
		{"one rate only", "-50.00", "21.00", map[string]string{"21.00": "500.00"}, []string{"-50.00/-41.32/-8.68@21.00"}},
		{"no goods keeps the applicable rate", "-50.00", "15.00", map[string]string{}, []string{"-50.00/-43.48/-6.52@15.00"}},
		{"a percentage coupon documents 0.00", "0.00", "21.00", map[string]string{"21.00": "10.00", "12.00": "5.00"},
			[]string{"0.00/0.00/0.00@21.00", "0.00/0.00/0.00@12.00"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := map[string]decimal.Decimal{}
			for k, v := range tc.base {
				base[k] = d(v)
			}
			parts := Distribute(d(tc.amount), d(tc.rate), base)
			var got []string
			sum := d("0")
			for _, p := range parts {
				got = append(got, wire(p))
				sum = sum.Add(p.WithVat)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("parts\n %v\nwant\n %v", got, tc.want)
			}
			if !sum.Equal(d(tc.amount)) {
				t.Errorf("parts add up to %s, not %s", sum, tc.amount)
			}
		})
	}
}

package rules

import (
	"testing"

	"github.com/shopspring/decimal"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func dp(s string) *decimal.Decimal { v := d(s); return &v }

// wire renders a price as "withVat/withoutVat/vat@rate" for compact tables.
func wire(p Price) string {
	return Money(p.WithVat) + "/" + Money(p.WithoutVat) + "/" + Money(p.Vat) + "@" + Money(p.VatRate)
}

func TestPricingCompute(t *testing.T) {
	tests := []struct {
		name        string
		p           Pricing
		unit, total string
	}{
		{"gross price at 21 %", Pricing{VatRate: d("21.00"), WithVat: dp("8990.00"), Ratio: one, Amount: one},
			"8990.00/7429.75/1560.25@21.00", "8990.00/7429.75/1560.25@21.00"},
		{"two pieces", Pricing{VatRate: d("21.00"), WithVat: dp("2490.00"), Ratio: one, Amount: d("2")},
			"2490.00/2057.85/432.15@21.00", "4980.00/4115.70/864.30@21.00"},
		{"rule 4: 10 % off with priceRatio 0.9000", Pricing{VatRate: d("21.00"), WithVat: dp("3290.00"), Ratio: d("0.9000"), Amount: one},
			"2961.00/2447.11/513.89@21.00", "2961.00/2447.11/513.89@21.00"},
		{"rule 4: 3 % off is 0.9700", Pricing{VatRate: d("21.00"), WithVat: dp("999.00"), Ratio: d("0.9700"), Amount: d("3")},
			"969.03/800.85/168.18@21.00", "2907.09/2402.55/504.54@21.00"},
		{"net price computes the gross", Pricing{VatRate: d("21.00"), WithoutVat: dp("100.00"), Ratio: one, Amount: d("3")},
			"121.00/100.00/21.00@21.00", "363.00/300.00/63.00@21.00"},
		{"net price with a ratio", Pricing{VatRate: d("12.00"), WithoutVat: dp("99.99"), Ratio: d("0.5000"), Amount: one},
			"56.00/50.00/6.00@12.00", "56.00/50.00/6.00@12.00"}, // 99.99 x 0.5 = 49.995 -> 50.00
		{"both prices are kept as sent", Pricing{VatRate: d("21.00"), WithVat: dp("100.00"), WithoutVat: dp("82.00"), Ratio: one, Amount: d("2")},
			"100.00/82.00/18.00@21.00", "200.00/164.00/36.00@21.00"},
		{"rule 5: fixed coupon is negative", Pricing{VatRate: d("21.00"), WithVat: dp("-200.00"), Ratio: one, Amount: one},
			"-200.00/-165.29/-34.71@21.00", "-200.00/-165.29/-34.71@21.00"},
		{"rule 7: volume discount at 0.00", Pricing{VatRate: d("0.00"), WithVat: dp("-300.00"), Ratio: one, Amount: one},
			"-300.00/-300.00/0.00@0.00", "-300.00/-300.00/0.00@0.00"},
		{"rule 8: a gift costs nothing", Pricing{VatRate: d("21.00"), WithVat: dp("0.00"), Ratio: decimal.Zero, Amount: one},
			"0.00/0.00/0.00@21.00", "0.00/0.00/0.00@21.00"},
		{"half a cent rounds away from zero", Pricing{VatRate: d("60.00"), WithVat: dp("1.00"), Ratio: one, Amount: one},
			"1.00/0.63/0.37@60.00", "1.00/0.63/0.37@60.00"},
		{"negative half a cent too", Pricing{VatRate: d("60.00"), WithVat: dp("-1.00"), Ratio: one, Amount: one},
			"-1.00/-0.63/-0.37@60.00", "-1.00/-0.63/-0.37@60.00"},
		{"fractional amount", Pricing{VatRate: d("15.00"), WithVat: dp("49.90"), Ratio: one, Amount: d("1.250")},
			"49.90/43.39/6.51@15.00", "62.38/54.24/8.14@15.00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, tot := tc.p.Compute()
			if got := wire(u); got != tc.unit {
				t.Errorf("unit %s, want %s", got, tc.unit)
			}
			if got := wire(tot); got != tc.total {
				t.Errorf("total %s, want %s", got, tc.total)
			}
		})
	}
}

func TestDivRoundIsExact(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"100", "121", "0.83"},
		{"62.5", "100", "0.63"},
		{"-62.5", "100", "-0.63"},
		{"62.49999999999999999999", "100", "0.62"},
		{"1", "3", "0.33"},
		{"2", "3", "0.67"},
		{"1", "-8", "-0.13"},
	}
	for _, tc := range tests {
		if got := Money(divRound(d(tc.a), d(tc.b), 2)); got != tc.want {
			t.Errorf("%s / %s = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

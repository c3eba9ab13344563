package rules

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// DistributeCoupons applies item rule 9. A coupon applied to an order
// whose goods have different VAT rates arrives twice: one discount-coupon
// item with vatRate 0.00 and one with the applicable rate, under the same
// name. The two become one item at the applicable rate whose discount is
// split across the VAT rates of the goods in proportion to their value;
// the parts are the item's itemPriceVatBreakdown (and displayPrices) and
// its price is their sum. The rounding remainder goes to the rate with
// the largest value, so the parts add up to the discount exactly.
//
// The discount is the price of whichever of the two carries one; both
// carrying different non-zero prices is a 400. Items must be priced
// (PriceAll) first. The merged item keeps the position of the first of
// the pair.
func DistributeCoupons(items []*Item) ([]*Item, error) {
	type pair struct{ zero, rated *Item }
	groups := map[string][]*Item{}
	var order []string
	for _, it := range items {
		if it.Type != TypeDiscountCoupon {
			continue
		}
		key := strings.ToLower(it.Name)
		if _, seen := groups[key]; !seen {
			order = append(order, key)
		}
		groups[key] = append(groups[key], it)
	}
	pairs := map[string]*pair{}
	for key, g := range groups {
		if len(g) != 2 || g[0].Pricing.VatRate.IsZero() == g[1].Pricing.VatRate.IsZero() {
			continue
		}
		p := &pair{zero: g[0], rated: g[1]}
		if !p.zero.Pricing.VatRate.IsZero() {
			p.zero, p.rated = p.rated, p.zero
		}
		pairs[key] = p
	}
	drop := map[*Item]bool{}
	for _, key := range order {
		p := pairs[key]
		if p == nil || p.zero == nil || p.rated == nil {
			continue
		}
		z, r := p.zero.Total.WithVat, p.rated.Total.WithVat
		discount := r
		switch {
		case r.IsZero():
			discount = z
		case !z.IsZero() && !z.Equal(r):
			return nil, sandbox.Invalid(p.zero.Path(priceField(p.zero)),
				"Coupon %q is sent twice (vatRate 0.00 and %s) with different discounts (%s and %s); send the same discount or 0 in one of them.",
				p.rated.Name, Money(p.rated.Pricing.VatRate), Money(z), Money(r))
		}
		parts := Distribute(discount, p.rated.Pricing.VatRate, goodsByRate(items))
		merged := p.rated
		var sum Price
		for _, part := range parts {
			sum = sum.Add(part)
		}
		sum.VatRate = merged.Pricing.VatRate
		merged.Total, merged.Unit, merged.Breakdown = sum, sum, parts
		drop[p.zero] = true
		if p.zero.Index < merged.Index {
			// keep the pair at the position of its first item
			merged.Index, p.zero.Index = p.zero.Index, merged.Index
		}
	}
	out := make([]*Item, 0, len(items))
	for _, it := range items {
		if !drop[it] {
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}

// goodsByRate sums the goods' value with VAT per VAT rate.
func goodsByRate(items []*Item) map[string]decimal.Decimal {
	out := map[string]decimal.Decimal{}
	for _, it := range items {
		if IsGoods(it.Type) {
			k := Money(it.Pricing.VatRate)
			out[k] = out[k].Add(it.Total.WithVat)
		}
	}
	return out
}

// Distribute splits an amount with VAT across VAT rates in proportion to
// base (rate -> value). The parts are ordered by rate, highest first; the
// rounding remainder goes to the rate with the largest base (the higher
// rate on a tie). With no positive base the whole amount stays at
// fallback.
func Distribute(amount, fallback decimal.Decimal, base map[string]decimal.Decimal) []Price {
	var rates []decimal.Decimal
	total := decimal.Zero
	for k, v := range base {
		if v.IsPositive() {
			r, _ := decimal.NewFromString(k)
			rates = append(rates, r)
			total = total.Add(v)
		}
	}
	if len(rates) == 0 {
		return []Price{FromGross(amount, fallback)}
	}
	sort.Slice(rates, func(i, j int) bool { return rates[i].GreaterThan(rates[j]) })
	biggest := 0
	for i, r := range rates {
		if base[Money(r)].GreaterThan(base[Money(rates[biggest])]) {
			biggest = i
		}
	}
	shares := make([]decimal.Decimal, len(rates))
	rest := amount
	for i, r := range rates {
		if i == biggest {
			continue
		}
		shares[i] = divRound(amount.Mul(base[Money(r)]), total, sandbox.PricePlaces)
		rest = rest.Sub(shares[i])
	}
	shares[biggest] = rest
	out := make([]Price, len(rates))
	for i, r := range rates {
		out[i] = FromGross(shares[i], r)
	}
	return out
}

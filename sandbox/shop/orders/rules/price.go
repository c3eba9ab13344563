package rules

import "github.com/shopspring/decimal"

// Price is one price of the reference's ItemPrice / Price shapes: with
// and without VAT, the VAT and its rate. VAT is always the difference of
// the two rounded prices, so the three add up to the cent.
type Price struct {
	WithVat    decimal.Decimal
	WithoutVat decimal.Decimal
	Vat        decimal.Decimal
	VatRate    decimal.Decimal
}

// FromGross builds a price from its amount with VAT.
func FromGross(gross, rate decimal.Decimal) Price {
	net := netFromGross(gross, rate)
	return Price{WithVat: gross, WithoutVat: net, Vat: gross.Sub(net), VatRate: rate}
}

// FromNet builds a price from its amount without VAT.
func FromNet(net, rate decimal.Decimal) Price {
	gross := grossFromNet(net, rate)
	return Price{WithVat: gross, WithoutVat: net, Vat: gross.Sub(net), VatRate: rate}
}

// Both builds a price from both amounts as the caller sent them.
func Both(gross, net, rate decimal.Decimal) Price {
	return Price{WithVat: gross, WithoutVat: net, Vat: gross.Sub(net), VatRate: rate}
}

// Add sums two prices (the rate of p is kept).
func (p Price) Add(q Price) Price {
	return Price{WithVat: p.WithVat.Add(q.WithVat), WithoutVat: p.WithoutVat.Add(q.WithoutVat), Vat: p.Vat.Add(q.Vat), VatRate: p.VatRate}
}

// Wire is the reference's ItemPrice object with fixed decimals.
func (p Price) Wire() map[string]any {
	return map[string]any{"withVat": Money(p.WithVat), "withoutVat": Money(p.WithoutVat), "vat": Money(p.Vat), "vatRate": Money(p.VatRate)}
}

// Pricing is what an order item says about its price: a unit price with
// or without VAT (or both), the VAT rate, the price ratio and the amount.
type Pricing struct {
	VatRate    decimal.Decimal
	WithVat    *decimal.Decimal // unit price with VAT, before the ratio
	WithoutVat *decimal.Decimal // unit price without VAT, before the ratio
	Ratio      decimal.Decimal  // 1 = full price; 0.9700 = 3 % off
	Amount     decimal.Decimal
}

// Compute returns the unit price after the ratio and the item's total
// (unit price times amount). A price given with VAT is the base: the
// amounts without VAT are derived from the rounded amounts with VAT, as on
// the service's documents. A price given only without VAT is the base
// the other way round. Both given are kept as sent.
func (p Pricing) Compute() (unit, total Price) {
	rate := p.VatRate
	switch {
	case p.WithVat != nil && p.WithoutVat != nil:
		ug, un := round2(p.WithVat.Mul(p.Ratio)), round2(p.WithoutVat.Mul(p.Ratio))
		return Both(ug, un, rate), Both(round2(ug.Mul(p.Amount)), round2(un.Mul(p.Amount)), rate)
	case p.WithVat != nil:
		ug := round2(p.WithVat.Mul(p.Ratio))
		return FromGross(ug, rate), FromGross(round2(ug.Mul(p.Amount)), rate)
	case p.WithoutVat != nil:
		un := round2(p.WithoutVat.Mul(p.Ratio))
		return FromNet(un, rate), FromNet(round2(un.Mul(p.Amount)), rate)
	}
	zero := Price{VatRate: rate}
	return zero, zero
}

// Record keeps an item's price inputs on the item ("_pricing"), so a
// later change re-prices it from the undiscounted unit price.
func (p Pricing) Record() map[string]any {
	rec := map[string]any{"vatRate": Money(p.VatRate), "ratio": Ratio4(p.Ratio), "amount": Amount3(p.Amount), "withVat": nil, "withoutVat": nil}
	if p.WithVat != nil {
		rec["withVat"] = p.WithVat.String()
	}
	if p.WithoutVat != nil {
		rec["withoutVat"] = p.WithoutVat.String()
	}
	return rec
}

// PricingOf reads an item's price inputs back: its "_pricing", or for a
// seeded item its unit prices at ratio 1.
func PricingOf(it map[string]any) Pricing {
	var p Pricing
	pm, _ := it["_pricing"].(map[string]any)
	if pm == nil {
		up, _ := it["unitPrice"].(map[string]any)
		pm = map[string]any{"vatRate": up["vatRate"], "withVat": up["withVat"], "withoutVat": up["withoutVat"], "ratio": "1", "amount": it["amount"]}
	}
	p.VatRate, _ = decimal.NewFromString(Text(pm["vatRate"]))
	p.Ratio, _ = decimal.NewFromString(Text(pm["ratio"]))
	p.Amount, _ = decimal.NewFromString(Text(pm["amount"]))
	if d, err := decimal.NewFromString(Text(pm["withVat"])); err == nil {
		p.WithVat = &d
	}
	if d, err := decimal.NewFromString(Text(pm["withoutVat"])); err == nil {
		p.WithoutVat = &d
	}
	return p
}

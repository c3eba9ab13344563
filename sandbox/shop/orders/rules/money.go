package rules

import (
	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

var (
	hundred = decimal.NewFromInt(100)
	two     = decimal.NewFromInt(2)
	one     = decimal.NewFromInt(1)
)

// divRound divides a by b and rounds half away from zero to places
// decimals, exactly: no intermediate rounding can tip a result that sits
// on the half. It exists because decimal.Div rounds the quotient to 16
// digits first, and net prices are derived by division.
func divRound(a, b decimal.Decimal, places int32) decimal.Decimal {
	q, r := a.QuoRem(b, places)
	unit := decimal.New(1, -places)
	if r.Abs().Mul(two).Cmp(b.Abs().Mul(unit)) >= 0 {
		if a.Sign()*b.Sign() < 0 {
			return q.Sub(unit)
		}
		return q.Add(unit)
	}
	return q
}

// round2 rounds a money amount to the spec's two places, half away from
// zero (the rounding the service's documents use).
func round2(d decimal.Decimal) decimal.Decimal { return d.Round(sandbox.PricePlaces) }

// netFromGross is the price without VAT of a gross price at rate percent.
func netFromGross(gross, rate decimal.Decimal) decimal.Decimal {
	return divRound(gross.Mul(hundred), hundred.Add(rate), sandbox.PricePlaces)
}

// grossFromNet is the price with VAT of a net price at rate percent.
func grossFromNet(net, rate decimal.Decimal) decimal.Decimal {
	return round2(net.Mul(hundred.Add(rate)).Shift(-2))
}

// Money formats an amount with the spec's two places.
func Money(d decimal.Decimal) string { return sandbox.FormatDecimal(d, sandbox.PricePlaces) }

// Amount3 formats a quantity with the three places of the reference's
// amounts ("1.000").
func Amount3(d decimal.Decimal) string { return sandbox.FormatDecimal(d, 3) }

// Ratio4 formats a price ratio with the spec's four places.
func Ratio4(d decimal.Decimal) string { return sandbox.FormatDecimal(d, sandbox.RatioPlaces) }

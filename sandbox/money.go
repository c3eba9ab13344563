package sandbox

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Fixed decimal places the service uses on the wire.
const (
	PricePlaces = 2 // prices, amounts of money
	RatioPlaces = 4 // priceRatio
	VatPlaces   = 2 // vatRate
)

// ParseDecimal reads a decimal from its wire string; money and quantities
// never pass through float64.
func ParseDecimal(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, fmt.Errorf("%q is not a decimal number", s)
	}
	return d, nil
}

// FormatDecimal renders d with exactly places decimals, as the service does.
func FormatDecimal(d decimal.Decimal, places int32) string {
	return d.StringFixed(places)
}

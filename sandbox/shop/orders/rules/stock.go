package rules

import "github.com/shopspring/decimal"

// Stock events of the spec: stock:movement carries the stock id; the beta
// events carry the variant code and look at the sum over all stocks.
const (
	EventStockMovement = "stock:movement"
	EventInStock       = "stock:inStock"
	EventSoldOut       = "stock:soldOut"
	EventMinSupply     = "stock:minStockSupplyReached"
)

// StockEvents decides the beta stock events of one variant from its sum
// over all stocks before and after a movement: inStock when the sum rose
// above 0, soldOut when it reached 0 (from above), minStockSupplyReached
// when it reached the variant's minimum supply (from above), when set.
func StockEvents(before, after decimal.Decimal, min *decimal.Decimal) []string {
	var out []string
	if !before.IsPositive() && after.IsPositive() {
		out = append(out, EventInStock)
	}
	if before.IsPositive() && !after.IsPositive() {
		out = append(out, EventSoldOut)
	}
	if min != nil && before.GreaterThan(*min) && after.LessThanOrEqual(*min) {
		out = append(out, EventMinSupply)
	}
	return out
}

package logistics

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// The three row shapes of a stock change (the reference's stockRow): a
// row gives exactly one of these fields.
const (
	RowAmountChange = "amountChange" // relative: the available amount changes by it
	RowQuantity     = "quantity"     // absolute: the available amount becomes it
	RowRealStock    = "realStock"    // absolute: the physical stock becomes it, the reserved amount kept
)

var rowShapes = []string{RowAmountChange, RowQuantity, RowRealStock}

// supply is a variant's amounts in one stock: available (amount) and
// reserved (claim); the physical stock is their sum.
type supply struct {
	amount, claim decimal.Decimal
}

// stockRow is one validated row of a stock change.
type stockRow struct {
	code  string
	shape string
	value decimal.Decimal
}

// readStockRow validates row i: a productCode and exactly one of the
// three shapes, with an amount of at most 3 decimal places (not negative
// for the absolute shapes).
func readStockRow(i int, m map[string]any) (stockRow, error) {
	at := fmt.Sprintf("data[%d]", i)
	if m == nil {
		return stockRow{}, sandbox.Invalid(at, "a row is an object with productCode and one of %s.", strings.Join(rowShapes, ", "))
	}
	sr := stockRow{code: strings.TrimSpace(str(m["productCode"]))}
	var given []string
	for _, f := range rowShapes {
		if v, ok := m[f]; ok && v != nil {
			given = append(given, f)
		}
	}
	switch len(given) {
	case 0:
		return sr, sandbox.Invalid(at, "give one of amountChange (a change of the available amount), quantity (the available amount) or realStock (the physical stock, reserved amounts kept).")
	case 1:
	default:
		return sr, sandbox.Invalid(at, "give only one of amountChange, quantity or realStock, not %s.", strings.Join(given, " and "))
	}
	sr.shape = given[0]
	field := at + "." + sr.shape
	v, err := decimal.NewFromString(crud.IDString(m[sr.shape]))
	if err != nil {
		return sr, sandbox.Invalid(field, "%s must be a number.", sr.shape)
	}
	if v.Exponent() < -3 && !v.Equal(v.Round(3)) {
		return sr, sandbox.Invalid(field, "%s has more than 3 decimal places.", sr.shape)
	}
	if sr.shape != RowAmountChange && v.IsNegative() {
		return sr, sandbox.Invalid(field, "%s must not be negative.", sr.shape)
	}
	sr.value = v
	return sr, nil
}

// delta is the change of the available amount the row makes to s.
func (sr stockRow) delta(s supply) decimal.Decimal {
	switch sr.shape {
	case RowQuantity:
		return sr.value.Sub(s.amount)
	case RowRealStock:
		return sr.value.Sub(s.claim).Sub(s.amount)
	}
	return sr.value
}

// suppliesOf reads a stock record's amounts per variant code.
func suppliesOf(stock map[string]any) map[string]supply {
	out := map[string]supply{}
	list, _ := stock["_supplies"].([]any)
	for _, v := range list {
		m, _ := v.(map[string]any)
		if m == nil {
			continue
		}
		amount, _ := decimal.NewFromString(str(m["amount"]))
		claim, _ := decimal.NewFromString(str(m["claim"]))
		out[str(m["code"])] = supply{amount: amount, claim: claim}
	}
	return out
}

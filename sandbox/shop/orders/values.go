package orders

import "github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"

// The readers of decoded JSON values are the rules package's; the short
// names keep the many record reads of the handlers readable.
var (
	str         = rules.Text
	intOf       = rules.Int
	nullIfEmpty = rules.NullIfEmpty
)

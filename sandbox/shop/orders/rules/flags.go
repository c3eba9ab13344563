package rules

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// The order-creation flags of the spec. The reference's CreateOrder
// lists all seven as query parameters; the sandbox accepts each in the
// query and in the body (in data or next to it) as well.
const (
	FlagDocuments  = "suppressDocumentGeneration"
	FlagEmails     = "suppressEmailSending"
	FlagProducts   = "suppressProductChecking"
	FlagStock      = "suppressStockMovements"
	FlagMandatory  = "suppressHistoricalMandatoryFields"
	FlagPayment    = "suppressHistoricalPaymentChecking"
	FlagShipping   = "suppressHistoricalShippingChecking"
	FlagExistence  = "suppressExistenceCheck"
	FlagSMS        = "suppressSmsSending"
	FlagGUIDChecks = "suppressProductGuidCheck"
)

// FlagNames lists the creation flags in the spec's order.
var FlagNames = []string{FlagDocuments, FlagEmails, FlagProducts, FlagStock, FlagMandatory, FlagPayment, FlagShipping}

// Flags holds which flags a request set.
type Flags map[string]bool

// Take reads the named flags from a request body (data.X or X at the
// top) into f, which already holds what the query said: a flag set in
// either place is set. A value that is not a boolean answers 400 naming
// it. Body flags are removed from the body so they are not stored.
func (f Flags) Take(body map[string]any, names ...string) error {
	data, _ := body["data"].(map[string]any)
	for _, n := range names {
		for _, where := range []struct {
			m      map[string]any
			prefix string
		}{{body, ""}, {data, "data."}} {
			if where.m == nil {
				continue
			}
			v, ok := where.m[n]
			if !ok {
				continue
			}
			delete(where.m, n)
			switch t := v.(type) {
			case bool:
				f[n] = f[n] || t
			case string:
				switch strings.ToLower(t) {
				case "true", "1":
					f[n] = true
				case "false", "0", "":
				default:
					return sandbox.Invalid(where.prefix+n, "Field %s%s must be true or false.", where.prefix, n)
				}
			case nil:
			default:
				return sandbox.Invalid(where.prefix+n, "Field %s%s must be true or false.", where.prefix, n)
			}
		}
	}
	return nil
}

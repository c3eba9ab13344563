package documents

import (
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// NextCode returns the next code of a numbered collection (orders and
// each document kind: invoices, proforma invoices, credit notes,
// delivery notes, proof payments). Each collection has one number
// sequence, and every path that issues a code takes it from here: the
// order flow, the accounting actions and the generic create of the
// registry table alike, so no path hands out a code another used. The
// sequence continues after the seeded codes (the fixture loader moves
// it); an unseeded collection starts at <year>000001 like the service's
// numbering. Codes already in use (given by a client, say) are skipped.
func NextCode(tx *store.Tx, eshop int, coll string, year int) (string, error) {
	for {
		n, err := tx.Next(eshop, coll)
		if err != nil {
			return "", err
		}
		if n < 1_000_000 {
			n += int64(year) * 1_000_000
			if err := tx.SetSequence(eshop, coll, n); err != nil {
				return "", err
			}
		}
		code := strconv.FormatInt(n, 10)
		if !tx.Exists(eshop, coll, code) {
			return code, nil
		}
	}
}

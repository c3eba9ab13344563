package orders

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// ReadFlags reads the named flags of a request, name by name from the
// query and then the body (see rules.Flags.Take): a value that is not a
// boolean answers 400 naming it, and body flags are removed from the
// body so they are not stored.
func ReadFlags(r *api.Request, body map[string]any, names ...string) (rules.Flags, error) {
	f := rules.Flags{}
	for _, n := range names {
		q, err := r.BoolQuery(n)
		if err != nil {
			return nil, err
		}
		f[n] = q
		if err := f.Take(body, n); err != nil {
			return nil, err
		}
	}
	return f, nil
}

package changelog

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// ParseQuery reads the query parameters every "last changes" endpoint
// takes (from, changeType) into a Query for the page given (page counts
// from 1). The generic change logs of sandbox/core/crud and the orders' log
// share it, so every changes endpoint accepts and refuses the same
// values: an unencoded "+" before the zone offset, which a query decodes
// to a space, is read as the "+" the client meant.
func ParseQuery(get func(name string) string, page, perPage int) (Query, error) {
	q := Query{Offset: (page - 1) * perPage, Limit: perPage}
	if v := get("from"); v != "" {
		t, err := sandbox.ParseTime(registry.PlusFromSpace(v))
		if err != nil {
			return Query{}, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "from",
				"Query parameter from must be a date-time like 2024-01-31T12:00:00+0100, not %q.", v)
		}
		q.From = t
	}
	switch t := get("changeType"); t {
	case "", Add, Edit, Delete:
		q.Type = t
	default:
		return Query{}, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "changeType",
			"Query parameter changeType must be add, edit or delete, not %q.", t)
	}
	return q, nil
}

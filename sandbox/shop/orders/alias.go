package orders

import (
	"net/http"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// Aliases serve the spec's PATCH /orders/{code}/status (without /api) as
// the reference's UpdateOrderStatus: the same route under a second path,
// so it passes the very same pipeline (limits, faults, content type,
// token, rights, body schema, handler) and carries the same operation
// name in traffic rows, faults and deprecations.
func Aliases() map[string][]api.Alias {
	return map[string][]api.Alias{
		"UpdateOrderStatus": {{Method: http.MethodPatch, Path: "/orders/{code}/status"}},
	}
}

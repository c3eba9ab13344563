package orders

import (
	"net/http"
	"strings"
)

// AliasPrefix is the path of the spec's order status change without
// /api: PATCH /orders/{code}/status.
const AliasPrefix = "/orders/"

// Alias is middleware that serves the spec's PATCH /orders/{code}/status
// as the reference's PATCH /api/orders/{code}/status: the request is
// rewritten before routing, so it passes the very same chain (content
// type, token, rights of UpdateOrderStatus, body schema, handler). Every
// other request passes untouched.
func Alias(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, AliasPrefix) {
			code, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, AliasPrefix), "/status")
			if ok && code != "" && !strings.Contains(code, "/") {
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/api" + r.URL.Path
				if r.URL.RawPath != "" {
					r2.URL.RawPath = "/api" + r.URL.RawPath
				}
				r2.RequestURI = "/api" + r.RequestURI
				next.ServeHTTP(w, r2)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

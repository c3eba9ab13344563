// Package rules holds the order rules of the spec as pure functions and
// types: money and prices to the cent (money.go, price.go), coupon
// distribution (coupons.go), order items and their checks (items.go),
// addresses (address.go), mandatory fields (mandatory.go), the date
// fields (dates.go), statuses and status assignment (statuses.go), the
// creation flags (flags.go) and the stock events (stock.go). Nothing here
// reads the store or HTTP: every rule is table-tested on its own, and
// sandbox/shop/orders applies them to stored orders inside its handlers.
package rules

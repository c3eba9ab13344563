// Package orders is the order behaviour of the sandbox: the creation
// rules of the spec (items, addresses, mandatory fields, flags, status
// assignment, totals to the cent), order changes and their events, the
// documents and e-mails that follow an order, and the stock it moves.
//
// Pure rules live in small table-tested files (money.go, price.go,
// coupons.go, items.go, address.go, mandatory.go, statuses.go); the
// handlers and the store work sit on top of them. Records are kept in the
// reference's order-detail shape, so the generic list and detail handlers
// of the registry serve them unchanged.
package orders

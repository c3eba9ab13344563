// Package orders is the order behaviour of the sandbox: the handlers of
// the order endpoints, order changes and their events, the documents and
// e-mails that follow an order, and the stock it moves, all inside store
// transactions.
//
// The pure rules of the spec (items, prices, coupons, addresses,
// mandatory fields, statuses, flags) live in sandbox/shop/orders/rules; this
// package applies them to stored orders. Records are kept in the
// reference's order-detail shape, so the generic list and detail handlers
// of the registry serve them unchanged.
package orders

// Package payments is the payment-gateway side of the sandbox: payment
// methods (created inactive and hidden, activated through the control
// plane), the gateway record of each payment add-on (its address
// template), the one-time payment codes and the payment-status endpoints
// an add-on calls, the mapping of payment results to order statuses, and
// the buyer's pages at the e-shop's address (order confirmed with the
// automatic redirect to the gateway, the thank-you page at the return
// address).
package payments

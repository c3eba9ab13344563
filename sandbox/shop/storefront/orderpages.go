package storefront

import (
	"fmt"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// RedirectDelay is how long the order-confirmed page waits before it
// sends the buyer to the payment gateway (spec: 5 seconds).
const RedirectDelay = 5 * time.Second

// Confirmed is what the order-confirmed page shows.
type Confirmed struct {
	// Order is the order record (the data of GET /api/orders/{code}).
	Order map[string]any
	// EshopURL is the e-shop's address {eshop_url}, for the page's links.
	EshopURL string
	Paid     bool
	Canceled bool
	// PaymentReceived: a gateway reported the order paid and the e-shop
	// has not marked it paid yet (the add-on's status call is due).
	PaymentReceived bool
	// GatewayURL is the payment gateway address with the placeholders
	// filled in; set when the order waits for an online payment.
	GatewayURL string
	// Notice explains why an online order cannot be paid now (no gateway
	// address registered for its add-on, ...); the buyer sees a general
	// sentence in the e-shop's language, the notice is in its title.
	Notice string
}

type confirmedView struct {
	Confirmed
	Order   orderView
	Summary summary
	Seconds int
}

// ConfirmedPage is the buyer's order-confirmed page: the order (items,
// shipping and payment, addresses, totals with VAT, status), the online
// payment button and, when the order waits for an online payment, an
// automatic redirect to the gateway after RedirectDelay. The e-shop's
// order-confirmed template insert is placed on it.
func ConfirmedPage(c Confirmed) Page {
	seconds := int(RedirectDelay / time.Second)
	p := Page{kind: "confirmed", eshopURL: c.EshopURL, orderConfirmed: true,
		data: func(s *shop, t *locale.Messages) any {
			o := viewOrder(s, c.Order)
			return confirmedView{Confirmed: c, Order: o, Summary: summary{T: t, Order: o}, Seconds: seconds}
		}}
	if c.GatewayURL != "" && !c.Paid && !c.Canceled && !c.PaymentReceived {
		p.refresh = &refresh{Seconds: seconds, URL: c.GatewayURL}
	}
	return p
}

// ThankYou is what the page at the payment's return address shows.
type ThankYou struct {
	// Order is the order record (the data of GET /api/orders/{code}).
	Order map[string]any
	// EshopURL is the e-shop's address {eshop_url}, for the page's links.
	EshopURL string
	// PaymentStatus is the result the gateway stored on the payment
	// (paid, pending, failed, canceled or a result of the e-shop's own);
	// "" when the return address names no payment: the order's latest
	// transaction tells.
	PaymentStatus string
	Paid          bool   // the order's paid flag
	RetryURL      string // where to try paying again, when the payment did not go through
}

type thankYouView struct {
	ThankYou
	Order                                      orderView
	Summary                                    summary
	Status, StatusName, Tone, Heading, Message string
	ShowPaid                                   bool
	PaidNote                                   string
}

// ThankYouPage is the page the gateway returns the buyer to (spec: payment
// flow step 8). It follows the payment's status — paid, pending, failed,
// canceled — and shows the order; whether the order is marked paid is
// said apart, since that follows from the add-on's status call.
func ThankYouPage(ty ThankYou) Page {
	return Page{kind: "thankyou", eshopURL: ty.EshopURL, data: func(s *shop, t *locale.Messages) any {
		o := viewOrder(s, ty.Order)
		v := thankYouView{ThankYou: ty, Order: o, Summary: summary{T: t, Order: o}, Status: paymentStatus(ty)}
		v.StatusName = t.StatusName(v.Status)
		switch v.Status {
		case "paid":
			v.Tone, v.Heading, v.Message = "ok", t.PaymentThanks, fmt.Sprintf(t.PaymentDone, o.Code)
			v.RetryURL = ""
		case "pending":
			v.Tone, v.Heading, v.Message = "wait", t.PaymentWaiting, fmt.Sprintf(t.PaymentPending, o.Code)
			v.RetryURL = ""
		case "canceled":
			v.Tone, v.Heading, v.Message = "bad", t.PaymentCanceled, fmt.Sprintf(t.PaymentEnded, o.Code, v.StatusName)
		default:
			v.Tone, v.Heading, v.Message = "bad", t.PaymentFailed, fmt.Sprintf(t.PaymentEnded, o.Code, v.StatusName)
		}
		if v.Status == "paid" || ty.Paid {
			v.ShowPaid, v.PaidNote = true, t.OrderMarkedPaid
			if !ty.Paid {
				v.PaidNote = fmt.Sprintf(t.OrderNotYetPaid, s.Name)
			}
		}
		return v
	}}
}

// paymentStatus is the status the thank-you page follows: the payment's
// own, else the order's latest transaction's, else paid or pending by the
// order's paid flag.
func paymentStatus(ty ThankYou) string {
	if ty.PaymentStatus != "" {
		return ty.PaymentStatus
	}
	txs, _ := ty.Order["paymentTransactions"].([]any)
	for i := len(txs) - 1; i >= 0; i-- {
		if m, ok := txs[i].(map[string]any); ok && str(m["status"]) != "" {
			return str(m["status"])
		}
	}
	if ty.Paid {
		return "paid"
	}
	return "pending"
}

// Redirect is a page that sends the browser on at once (the payment link
// of e-mails and of the order detail leads through it to the gateway).
func Redirect(url string) Page {
	return Page{kind: "redirect", refresh: &refresh{Seconds: 0, URL: url},
		data: func(*shop, *locale.Messages) any { return struct{ URL string }{url} }}
}

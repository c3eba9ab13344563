package storefront

import (
	"bytes"
	"html/template"
	"time"
)

// RedirectDelay is how long the order-confirmed page waits before it
// sends the buyer to the payment gateway (spec: 5 seconds).
const RedirectDelay = 5 * time.Second

// Confirmed is what the order-confirmed page shows.
type Confirmed struct {
	EshopName string
	OrderCode string
	Total     string // amount to pay with its currency
	Status    string // the order status name
	Paid      bool
	Canceled  bool
	// PaymentReceived: a gateway reported the order paid and the e-shop
	// has not marked it paid yet (the add-on's status call is due).
	PaymentReceived bool
	// GatewayURL is the payment gateway address with the placeholders
	// filled in; set when the order waits for an online payment.
	GatewayURL string
	// Notice explains why an online order cannot be paid now (no gateway
	// address registered for its add-on, ...).
	Notice string
}

var confirmedHead = template.Must(template.New("head").Parse(
	`{{if .GatewayURL}}<meta http-equiv="refresh" content="{{.Seconds}};url={{.GatewayURL}}">{{end}}`))

var confirmedBody = template.Must(template.New("body").Parse(`<main id="order-confirmed" data-order="{{.OrderCode}}">
<h1>Thank you for your order {{.OrderCode}}</h1>
<p>{{.EshopName}} has received your order. Total: <strong id="order-total">{{.Total}}</strong>. Status: <span id="order-status">{{.Status}}</span>.</p>
{{if .Paid}}<p id="payment-state" data-status="paid">This order is paid.</p>
{{else if .Canceled}}<p id="payment-state" data-status="canceled">This order is canceled; it cannot be paid.</p>
{{else if .PaymentReceived}}<p id="payment-state" data-status="received">Your payment was received; {{.EshopName}} is confirming the order.</p>
{{else if .GatewayURL}}<p id="payment-state" data-status="pending">Pay online now: <a id="pay-online" class="button" href="{{.GatewayURL}}">Pay online</a></p>
<p id="redirect-note">You will be taken to the payment gateway automatically in <span id="countdown">{{.Seconds}}</span> seconds.</p>
<script>(function(){var n={{.Seconds}},e=document.getElementById("countdown");var t=setInterval(function(){n--;if(n<0){clearInterval(t);return}e.textContent=n},1000)})();</script>
{{else if .Notice}}<p id="payment-state" data-status="unavailable">{{.Notice}}</p>
{{end}}</main>`))

// ConfirmedPage is the buyer's order-confirmed page: the online payment
// button and, when the order waits for an online payment, an automatic
// redirect to the gateway after RedirectDelay. The e-shop's
// order-confirmed template insert is placed on it.
func ConfirmedPage(c Confirmed) Page {
	data := struct {
		Confirmed
		Seconds int
	}{c, int(RedirectDelay / time.Second)}
	return Page{Title: "Order " + c.OrderCode + " confirmed – " + c.EshopName, Head: exec(confirmedHead, data),
		Body: exec(confirmedBody, data), OrderConfirmed: true}
}

// ThankYou is what the page at the payment's return address shows.
type ThankYou struct {
	EshopName     string
	OrderCode     string
	PaymentStatus string // the result the gateway reported: paid, pending, canceled, ...
	Paid          bool   // the order's paid flag
	RetryURL      string // where to try paying again, when the payment did not go through
}

// The thank-you page follows the payment's status (spec: payment flow
// step 8). The order's paid flag follows only from the add-on's status
// call, so a paid payment of an order not marked paid yet says so.
var thankYouBody = template.Must(template.New("body").Parse(`<main id="thank-you" data-order="{{.OrderCode}}">
{{if .Paid}}<h1>Thank you for your payment</h1>
<p id="payment-status" data-status="paid">The payment for order {{.OrderCode}} was received. {{.EshopName}} will take care of the rest.</p>
<p id="order-paid" data-paid="true">The order is paid.</p>
{{else if eq .PaymentStatus "paid"}}<h1>Thank you for your payment</h1>
<p id="payment-status" data-status="paid">The payment for order {{.OrderCode}} was received.</p>
<p id="order-paid" data-paid="false">{{.EshopName}} is confirming the order; it is not marked paid yet.</p>
{{else if eq .PaymentStatus "pending" ""}}<h1>Thank you</h1>
<p id="payment-status" data-status="pending">We are waiting for the payment gateway to confirm the payment for order {{.OrderCode}}.</p>
{{else}}<h1>The payment did not go through</h1>
<p id="payment-status" data-status="{{.PaymentStatus}}">The payment for order {{.OrderCode}} ended as {{.PaymentStatus}}.</p>
{{if .RetryURL}}<p><a id="pay-again" href="{{.RetryURL}}">Try paying again</a></p>{{end}}
{{end}}</main>`))

// ThankYouPage is the page the gateway returns the buyer to; it reflects
// the payment status.
func ThankYouPage(t ThankYou) Page {
	return Page{Title: "Order " + t.OrderCode + " – " + t.EshopName, Body: exec(thankYouBody, t)}
}

// Redirect is a page that sends the browser on at once (the payment link
// of e-mails and of the order detail leads through it to the gateway).
func Redirect(url string) Page {
	data := struct{ URL string }{url}
	return Page{Title: "Redirecting", Head: exec(redirectHead, data), Body: exec(redirectBody, data)}
}

var redirectHead = template.Must(template.New("head").Parse(`<meta http-equiv="refresh" content="0;url={{.URL}}">`))
var redirectBody = template.Must(template.New("body").Parse(`<p>Continue to <a id="continue" href="{{.URL}}">{{.URL}}</a>.</p>`))

func exec(t *template.Template, data any) template.HTML {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return template.HTML("<p>page error: " + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	return template.HTML(buf.String())
}

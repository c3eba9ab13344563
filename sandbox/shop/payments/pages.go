package payments

import (
	"net/http"
	"net/url"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
)

// EshopRoutes are the buyer's pages at the e-shop's own address
// {eshop_url}: the order-confirmed page, the payment link and the
// thank-you page at the gateway's return address.
func (s *Service) EshopRoutes() []api.Route {
	return []api.Route{
		{Operation: "eshop.orderConfirmed", Method: http.MethodGet, Path: "/order/{code}/confirmed", Handler: s.confirmedPage},
		{Operation: "eshop.orderPay", Method: http.MethodGet, Path: "/order/{code}/pay", Handler: s.payLink},
		{Operation: "eshop.onlinePayment", Method: http.MethodGet, Path: "/action/OnlinePayment/pay/", Handler: s.payLink},
		{Operation: "eshop.thankYou", Method: http.MethodGet, Path: "/order/{code}/thank-you", Handler: s.thankYouPage},
	}
}

func html(body []byte) *api.Raw {
	return &api.Raw{ContentType: "text/html; charset=utf-8", Body: body}
}

// orderCode is the order of a page request: the path's code, or the
// orderCode parameter of the service-style payment link.
func orderCode(r *api.Request) string {
	if c := r.Var("code"); c != "" {
		return c
	}
	return r.Query("orderCode")
}

// gatewayFor starts (or continues) the order's payment attempt and
// returns the filled gateway address; "" with a notice when the order
// cannot be paid online now. The caller's transaction is writable.
func (s *Service) gatewayFor(sh *orders.Shop, o map[string]any) (string, string, error) {
	if !sh.NeedsPayment(o) {
		return "", "", nil
	}
	method := sh.OnlineMethod(o)
	tpl := Gateway(sh.Tx, sh.ID, str(method["_addon"]))
	if tpl == "" {
		return "", "Online payment is not available yet: the payment add-on has no gateway address registered.", nil
	}
	open := str(o["_paymentCode"])
	pc, err := sh.CurrentPaymentCode(o, func() string { return s.IDs.Token(32) })
	if err != nil {
		return "", "", err
	}
	if pc.Code != open {
		// A new attempt: a pending transaction on the order, an edit its
		// change log lists, as a payment result's is.
		if err := sh.Touch(o); err != nil {
			return "", "", err
		}
	}
	lang := str(o["language"])
	if lang == "" {
		lang = sh.Meta.DefaultLanguage
	}
	return Fill(tpl, lang, sh.ID, sh.EshopURL, pc.Code), "", nil
}

// confirmedPage serves {eshop_url}/order/{code}/confirmed: the order
// summary; for an order waiting for an online payment, the online
// payment button and the automatic redirect to the gateway address after
// 5 seconds (placeholders replaced, a one-time payment code issued).
func (s *Service) confirmedPage(r *api.Request) (any, error) {
	var page []byte
	err := s.Orders.Update(atoi(r.Var("eshopId")), func(sh *orders.Shop) error {
		o, err := orders.LoadOrder(sh.Tx, sh.ID, orderCode(r))
		if err != nil {
			return err
		}
		gw, notice, err := s.gatewayFor(sh, o)
		if err != nil {
			return err
		}
		page = storefront.Render(sh.Tx, sh.ID, storefront.ConfirmedPage(storefront.Confirmed{Order: o, EshopURL: sh.EshopURL,
			Paid: o["paid"] == true, Canceled: sh.OrderCanceled(o), PaymentReceived: orders.HasPaidResult(o),
			GatewayURL: gw, Notice: notice}))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return html(page), nil
}

// payLink serves {eshop_url}/order/{code}/pay (the order's
// onlinePaymentLink) and the service-style
// {eshop_url}/action/OnlinePayment/pay/?orderCode=...: straight on to the
// gateway, or back to the confirmed page when there is nothing to pay.
func (s *Service) payLink(r *api.Request) (any, error) {
	var page []byte
	err := s.Orders.Update(atoi(r.Var("eshopId")), func(sh *orders.Shop) error {
		o, err := orders.LoadOrder(sh.Tx, sh.ID, orderCode(r))
		if err != nil {
			return err
		}
		gw, _, err := s.gatewayFor(sh, o)
		if err != nil {
			return err
		}
		if gw == "" {
			gw = sh.EshopURL + "/order/" + url.PathEscape(str(o["code"])) + "/confirmed"
		}
		page = storefront.Render(sh.Tx, sh.ID, storefront.Redirect(gw))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return html(page), nil
}

// thankYouPage serves the return address: a page that reflects the
// status of the payment record the address names, whether the order is
// marked paid yet, and the order; another try is offered only while the
// order still waits for a payment.
func (s *Service) thankYouPage(r *api.Request) (any, error) {
	var page []byte
	err := s.Orders.View(atoi(r.Var("eshopId")), func(sh *orders.Shop) error {
		o, err := orders.LoadOrder(sh.Tx, sh.ID, orderCode(r))
		if err != nil {
			return err
		}
		status := ""
		if c := r.Query("paymentCode"); c != "" {
			pc, err := sh.LoadPaymentCode(c)
			if err != nil || pc.OrderCode != str(o["code"]) {
				return sandbox.NotFound(c, "Order %s has no payment %q.", str(o["code"]), c)
			}
			status = pc.Status
		}
		retry := ""
		if sh.NeedsPayment(o) {
			retry = sh.EshopURL + "/order/" + url.PathEscape(str(o["code"])) + "/pay"
		}
		page = storefront.Render(sh.Tx, sh.ID, storefront.ThankYouPage(storefront.ThankYou{Order: o, EshopURL: sh.EshopURL,
			PaymentStatus: status, Paid: o["paid"] == true, RetryURL: retry}))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return html(page), nil
}

package exampleaddon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Payment results the add-on reports with PATCH
// /api/payment-status/{paymentCode}.
const (
	ResultPaid     = "paid"
	ResultFailed   = "failed"
	ResultCanceled = "canceled"
	ResultPending  = "pending"
)

// CanceledStatus is the basic order status Canceled, the same in every
// e-shop (basic statuses are; custom ones are the e-shop's own).
const CanceledStatus = -4

// GatewayPath is where the buyer arrives from the e-shop's
// order-confirmed page.
const GatewayPath = "/pay"

// GatewayURL is the gateway address template the add-on registers: the
// e-shop replaces #PAYMENT_CODE#, #ESHOP_ID# and #LANGUAGE# before it
// sends the buyer here.
func (c Config) GatewayURL() string {
	return strings.TrimRight(c.PublicURL, "/") + GatewayPath + "?code=#PAYMENT_CODE#&eshop=#ESHOP_ID#&lang=#LANGUAGE#"
}

// Payment is one payment the gateway settled, as GET /status lists it.
type Payment struct {
	EshopID     int    `json:"eshopId"`
	PaymentCode string `json:"paymentCode"`
	OrderCode   string `json:"orderCode"`
	Result      string `json:"result,omitempty"`   // the result reported; "" when escalated
	StatusID    *int   `json:"statusId,omitempty"` // the order status set; nil when none was due
	Escalated   string `json:"escalated,omitempty"`
	ReturnURL   string `json:"returnUrl"`
}

// handlePay is the payment gateway (spec: payment flow steps 3-8). The
// buyer's browser comes from the e-shop's order-confirmed page with the
// placeholders filled in; the add-on settles the payment through the API
// and sends the buyer back to the e-shop's return address.
func (a *Addon) handlePay(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	code := q.Get("code")
	eshopID, err := strconv.Atoi(q.Get("eshop"))
	if code == "" || err != nil {
		http.Error(w, "the payment link lacks code or eshop", http.StatusBadRequest)
		return
	}
	if a.installation(eshopID) == nil {
		http.Error(w, fmt.Sprintf("this gateway is not installed in e-shop %d", eshopID), http.StatusNotFound)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	p, err := a.Pay(ctx, eshopID, code)
	if err != nil {
		a.log.Error("payment", "eshop", eshopID, "code", code, "err", err)
		http.Error(w, "the payment could not be completed: "+err.Error(), http.StatusBadGateway)
		return
	}
	http.Redirect(w, r, p.ReturnURL, http.StatusSeeOther) // step 8
}

// Pay settles one payment, as a payment add-on must:
//
//  4. GET /api/payment-status/{paymentCode}: the order being paid (its code
//     is a string) and the return address.
//  5. GET /api/orders/{code}: an order that is already paid or canceled is
//     an inconsistency; it is escalated to the e-shop owner (here: logged
//     and listed) and nothing is changed.
//  6. Both calls: PATCH /api/payment-status/{paymentCode} stores the
//     result, and PATCH /api/orders/{code}/status (the spec writes it
//     /orders/{code}/status) sets the order status the e-shop maps that
//     result to. The result alone changes no order: without the status
//     call a paid order stays unpaid.
//  7. Nothing more: the paid flag, documents and e-mails follow from the
//     status in the e-shop.
//
// The card is not really charged: the gateway reports Config.PaymentResult
// (paid unless set otherwise).
func (a *Addon) Pay(ctx context.Context, eshopID int, code string) (*Payment, error) {
	in := a.installation(eshopID)
	if in == nil {
		return nil, fmt.Errorf("not installed in e-shop %d", eshopID)
	}
	var info struct {
		OrderCode string `json:"orderCode"`
		ReturnURL string `json:"returnUrl"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/payment-status/"+url.PathEscape(code), nil, &info); err != nil {
		return nil, fmt.Errorf("read the payment: %w", err)
	}
	p := &Payment{EshopID: eshopID, PaymentCode: code, OrderCode: info.OrderCode, ReturnURL: info.ReturnURL}
	var order struct {
		Order struct {
			Paid   bool `json:"paid"`
			Status struct {
				ID int `json:"id"`
			} `json:"status"`
		} `json:"order"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/orders/"+url.PathEscape(info.OrderCode), nil, &order); err != nil {
		return nil, fmt.Errorf("read order %s: %w", info.OrderCode, err)
	}
	canceled := a.statusOf(ResultCanceled, CanceledStatus)
	switch {
	case order.Order.Paid:
		p.Escalated = "the order is already paid"
	case order.Order.Status.ID == canceled:
		p.Escalated = "the order is canceled"
	}
	if p.Escalated != "" {
		a.log.Warn("payment escalated to the e-shop owner", "eshop", eshopID, "order", info.OrderCode, "code", code, "why", p.Escalated)
		a.addPayment(*p)
		return p, nil
	}
	result := a.cfg.PaymentResult
	if result == "" {
		result = ResultPaid
	}
	body := map[string]any{"data": map[string]any{"status": result, "message": "example-addon test gateway"}}
	if err := a.call(ctx, in, http.MethodPatch, "/api/payment-status/"+url.PathEscape(code), body, nil); err != nil {
		return nil, fmt.Errorf("store the payment result: %w", err)
	}
	p.Result = result
	statusID, err := a.statusFor(ctx, in, result)
	if err != nil {
		return nil, err
	}
	if statusID != nil {
		body := map[string]any{"data": map[string]any{"statusId": *statusID}}
		if err := a.call(ctx, in, http.MethodPatch, "/api/orders/"+url.PathEscape(info.OrderCode)+"/status", body, nil); err != nil {
			return nil, fmt.Errorf("set the order status after the result %s: %w", result, err)
		}
		p.StatusID = statusID
	}
	a.log.Info("payment", "eshop", eshopID, "order", info.OrderCode, "code", code, "result", result, "status", p.StatusID)
	a.addPayment(*p)
	return p, nil
}

// statusOf is the status configured for a result, or def.
func (a *Addon) statusOf(result string, def int) int {
	if id, ok := a.cfg.ResultStatuses[result]; ok {
		return id
	}
	return def
}

// statusFor is the order status that goes with a payment result: the one
// configured (Config.ResultStatuses, the e-shop owner's choice in a real
// add-on's settings), else for paid the e-shop's first status that marks
// orders paid (GET /api/eshop?include=orderStatuses), for canceled the
// basic status Canceled; nil for the others (failed, pending: the order
// keeps its status and the buyer may try again).
func (a *Addon) statusFor(ctx context.Context, in *installation, result string) (*int, error) {
	if id, ok := a.cfg.ResultStatuses[result]; ok {
		return &id, nil
	}
	switch result {
	case ResultCanceled:
		id := CanceledStatus
		return &id, nil
	case ResultPaid:
	default:
		return nil, nil
	}
	var info struct {
		OrderStatuses struct {
			Statuses []struct {
				ID         int  `json:"id"`
				MarkAsPaid bool `json:"markAsPaid"`
				Order      int  `json:"order"`
			} `json:"statuses"`
		} `json:"orderStatuses"`
	}
	if err := a.call(ctx, in, http.MethodGet, "/api/eshop?include=orderStatuses", nil, &info); err != nil {
		return nil, fmt.Errorf("read the order statuses: %w", err)
	}
	list := info.OrderStatuses.Statuses
	sort.SliceStable(list, func(i, j int) bool { return list[i].Order < list[j].Order })
	for _, st := range list {
		if st.MarkAsPaid {
			id := st.ID
			return &id, nil
		}
	}
	return nil, errors.New("the e-shop has no order status that marks orders paid; configure one with --result-status paid=ID")
}

// ParseResultStatuses reads RESULT=STATUS pairs, comma-separated
// ("paid=-5,failed=-1").
func ParseResultStatuses(s string) (map[string]int, error) {
	out := map[string]int{}
	for _, pair := range strings.Split(s, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, "=")
		id, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q: write RESULT=STATUS_ID, e.g. paid=-5", pair)
		}
		out[strings.TrimSpace(k)] = id
	}
	return out, nil
}

func (a *Addon) addPayment(p Payment) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.payments = append(a.payments, p)
	if len(a.payments) > 100 {
		a.payments = a.payments[len(a.payments)-100:]
	}
}

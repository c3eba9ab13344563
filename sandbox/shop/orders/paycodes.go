package orders

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Payment transaction states: the result statuses a gateway reports are
// stored as they come; these are the ones the sandbox itself sets.
const (
	TxPending = "pending"
)

// PaymentCode is the one-time transaction code of one online payment
// attempt (spec: payment flow step 3), kept in the payment-codes
// collection.
type PaymentCode struct {
	Code      string `json:"code"`
	OrderCode string `json:"orderCode"`
	Addon     string `json:"addon"`  // the gateway add-on of the payment method
	Status    string `json:"status"` // pending until the gateway reports a result
	Message   any    `json:"message"`
	Created   string `json:"creationTime"`
	Changed   string `json:"changeTime"`
}

// Final reports whether the attempt has a final result (paid or
// canceled); a final code cannot be given another result.
func (p *PaymentCode) Final() bool {
	return p.Status == rules.ResultPaid || p.Status == rules.ResultCanceled
}

// OnlineMethod returns the order's payment method record when it is an
// online (gateway) payment, nil otherwise.
func (s *Shop) OnlineMethod(o map[string]any) map[string]any {
	pm, _ := o["paymentMethod"].(map[string]any)
	guid := str(pm["guid"])
	if guid == "" {
		return nil
	}
	m, err := Get(s.Tx, s.ID, PaymentMethods, guid, "Payment method")
	if err != nil || m["_online"] != true {
		return nil
	}
	return m
}

// NeedsPayment reports whether an order still waits for an online
// payment: an online method, not paid, not canceled, and no gateway
// reported it paid (a paid result waits for the add-on's status call; the
// buyer is not asked to pay twice meanwhile).
func (s *Shop) NeedsPayment(o map[string]any) bool {
	if o["paid"] == true || s.OrderCanceled(o) || HasPaidResult(o) {
		return false
	}
	return s.online(o)
}

// online reports whether the order's payment method is an online one, as
// OnlineMethod finds it, reading only the method's flag: every new order
// asks, inside the write transaction.
func (s *Shop) online(o map[string]any) bool {
	pm, _ := o["paymentMethod"].(map[string]any)
	guid := str(pm["guid"])
	if guid == "" {
		return false
	}
	raw, err := s.Tx.GetShared(s.ID, PaymentMethods, guid)
	return err == nil && sharedGet(raw, "_online").Type == gjson.True
}

// OrderCanceled reports whether the order's status is the canceling one.
func (s *Shop) OrderCanceled(o map[string]any) bool {
	st, _ := o["status"].(map[string]any)
	id, ok := intOf(st["id"])
	if !ok {
		return false
	}
	cur, found := s.Statuses.Find(int(id))
	return found && cur.Canceled()
}

// PaymentLink is the buyer's link to (re)start the online payment.
func PaymentLink(code string) string {
	return "{eshop_url}/order/" + code + "/pay"
}

// CurrentPaymentCode returns the order's open payment attempt, starting
// a new one (a new one-time code and a pending transaction on the order)
// when there is none or the last one failed. The caller saves the order.
func (s *Shop) CurrentPaymentCode(o map[string]any, newCode func() string) (*PaymentCode, error) {
	if cur := str(o["_paymentCode"]); cur != "" {
		if pc, err := s.LoadPaymentCode(cur); err == nil && pc.Status == TxPending {
			return pc, nil
		}
	}
	method := s.OnlineMethod(o)
	if method == nil {
		return nil, sandbox.Conflict(str(o["code"]), "Order %s is not paid online.", str(o["code"]))
	}
	pc := &PaymentCode{Code: newCode(), OrderCode: str(o["code"]), Addon: str(method["_addon"]), Status: TxPending, Created: s.Time(), Changed: s.Time()}
	if err := s.SavePaymentCode(pc); err != nil {
		return nil, err
	}
	price, _ := o["price"].(map[string]any)
	txs, _ := o["paymentTransactions"].([]any)
	o["paymentTransactions"] = append(txs, map[string]any{"transactionId": pc.Code, "status": TxPending, "price": price["toPay"],
		"creationTime": s.Time(), "changeTime": s.Time()})
	o["_paymentCode"] = pc.Code
	return pc, nil
}

// LoadPaymentCode reads a payment code (404 when unknown).
func (s *Shop) LoadPaymentCode(code string) (*PaymentCode, error) {
	m, err := Get(s.Tx, s.ID, PaymentCodes, code, "Payment code")
	if err != nil {
		return nil, err
	}
	return &PaymentCode{Code: str(m["code"]), OrderCode: str(m["orderCode"]), Addon: str(m["addon"]), Status: str(m["status"]),
		Message: m["message"], Created: str(m["creationTime"]), Changed: str(m["changeTime"])}, nil
}

// SavePaymentCode stores a payment code.
func (s *Shop) SavePaymentCode(pc *PaymentCode) error {
	return putOwn(s.Tx, s.ID, PaymentCodes, pc.Code, map[string]any{"code": pc.Code, "orderCode": pc.OrderCode, "addon": pc.Addon,
		"status": pc.Status, "message": pc.Message, "creationTime": pc.Created, "changeTime": pc.Changed})
}

// SetTransaction updates the order's transaction of a payment code.
func SetTransaction(o map[string]any, code, status, now string) {
	txs, _ := o["paymentTransactions"].([]any)
	for _, t := range txs {
		if m, ok := t.(map[string]any); ok && strings.EqualFold(str(m["transactionId"]), code) {
			m["status"], m["changeTime"] = status, now
		}
	}
}

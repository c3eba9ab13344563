package orders

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/orders/rules"
)

// Mail is one e-mail the e-shop would have sent, kept in the outbox the
// control plane lists (GET /_sandbox/outbox) instead of being delivered.
type Mail struct {
	ID        int64  `json:"id"`
	EshopID   int    `json:"eshopId"`
	Kind      string `json:"kind"` // order-confirmation, order-status
	To        string `json:"to"`
	Subject   string `json:"subject"`
	Body      string `json:"body"`
	OrderCode string `json:"orderCode"`
	StatusID  *int   `json:"statusId"`
	Created   string `json:"creationTime"`
}

// Mail kinds.
const (
	MailConfirmation = "order-confirmation"
	MailStatus       = "order-status"
)

// SendMail records an e-mail about an order to its customer. An order
// without an e-mail address gets none.
func (s *Shop) SendMail(kind string, o map[string]any, st *rules.Status) error {
	to := strings.TrimSpace(str(o["email"]))
	if to == "" {
		return nil
	}
	id, err := s.Tx.Next(s.ID, OutboxCollection)
	if err != nil {
		return err
	}
	name := s.Meta.Name
	code := str(o["code"])
	m := Mail{ID: id, EshopID: s.ID, Kind: kind, To: to, OrderCode: code, Created: s.Time()}
	price, _ := o["price"].(map[string]any)
	switch kind {
	case MailConfirmation:
		m.Subject = fmt.Sprintf("%s: order %s received", name, code)
		m.Body = fmt.Sprintf("Thank you for your order %s. Total %s %s.", code, str(price["toPay"]), str(price["currencyCode"]))
		if link := str(o["onlinePaymentLink"]); link != "" {
			m.Body += " Pay online: " + link
		}
	default:
		m.Subject = fmt.Sprintf("%s: order %s is now %s", name, code, st.Name)
		m.Body = fmt.Sprintf("The status of your order %s changed to %s.", code, st.Name)
	}
	if st != nil {
		m.StatusID = &st.ID
	}
	rec := map[string]any{"id": m.ID, "eshopId": m.EshopID, "kind": m.Kind, "to": m.To, "subject": m.Subject, "body": m.Body,
		"orderCode": m.OrderCode, "statusId": m.StatusID, "creationTime": m.Created}
	return Put(s.Tx, s.ID, OutboxCollection, strconv.FormatInt(id, 10), rec)
}

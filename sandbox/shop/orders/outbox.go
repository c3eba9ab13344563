package orders

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
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
	m := Mail{ID: id, EshopID: s.ID, Kind: kind, To: to, OrderCode: str(o["code"]), Created: s.Time()}
	m.Subject, m.Body = s.mailText(kind, o, st)
	if st != nil {
		m.StatusID = &st.ID
	}
	rec := map[string]any{"id": m.ID, "eshopId": m.EshopID, "kind": m.Kind, "to": m.To, "subject": m.Subject, "body": m.Body,
		"orderCode": m.OrderCode, "statusId": m.StatusID, "creationTime": m.Created}
	return putOwn(s.Tx, s.ID, OutboxCollection, strconv.FormatInt(id, 10), rec)
}

// mailText writes an e-mail in the e-shop's default language, every text
// from that language's table (status names are the e-shop's own, written
// in that language too), amounts the way the e-shop writes its currency,
// and links with the e-shop's real address.
func (s *Shop) mailText(kind string, o map[string]any, st *rules.Status) (subject, body string) {
	t := locale.For(s.Meta.DefaultLanguage)
	name, code := s.Meta.Name, str(o["code"])
	var lines []string
	switch kind {
	case MailConfirmation:
		price, _ := o["price"].(map[string]any)
		total := locale.CurrencyIn(s.InfoField("currencies"), str(price["currencyCode"])).Amount(str(price["toPay"]))
		subject = fmt.Sprintf(t.MailConfirmationSubject, name, code)
		lines = append(lines, fmt.Sprintf(t.MailConfirmationBody, code, total))
		if link := str(o["onlinePaymentLink"]); link != "" {
			lines = append(lines, fmt.Sprintf(t.MailPayOnline, s.fillURL(link)))
		}
	default:
		subject = fmt.Sprintf(t.MailStatusSubject, name, code, st.Name)
		lines = append(lines, fmt.Sprintf(t.MailStatusBody, code, st.Name))
	}
	lines = append(lines, "", fmt.Sprintf(t.MailSignature, name), s.EshopURL+"/")
	return subject, strings.Join(lines, "\n")
}

// fillURL replaces the address placeholders of a stored link.
func (s *Shop) fillURL(link string) string {
	return strings.NewReplacer("{eshop_url}", s.EshopURL, "{base_url}", s.BaseURL).Replace(link)
}

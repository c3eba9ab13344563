package tui

import (
	"encoding/json"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// outboxView lists the e-mails the e-shops would have sent
// (GET /_sandbox/outbox), oldest first.
var outboxView = &dataView{
	path:    "/_sandbox/outbox",
	columns: []column{{title: "TIME", width: 8}, {title: "SHOP", width: 5}, {title: "KIND", width: 18}, {title: "TO", width: 24}, {title: "SUBJECT"}},
	toneCol: -1,
	empty:   "No e-mail yet: creating an order or changing its status sends one.",
	load:    loadOutbox,
}

func loadOutbox(raw json.RawMessage, st Styles) (viewData, error) {
	var v struct {
		Emails []orders.Mail `json:"emails"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return viewData{}, fmt.Errorf("the outbox: %v", err)
	}
	var d viewData
	for _, m := range v.Emails {
		s := sheet{st: st}
		s.field("to", m.To)
		s.field("subject", m.Subject)
		s.field("kind", m.Kind)
		s.field("order", m.OrderCode)
		s.field("sent", m.Created)
		s.field("e-shop", eshopCell(m.EshopID))
		s.section("Body")
		s.text(m.Body)
		d.rows = append(d.rows, viewRow{key: fmt.Sprint(m.EshopID, "|", m.ID), eshop: m.EshopID,
			cells: []string{shortTime(m.Created), eshopCell(m.EshopID), m.Kind, m.To, m.Subject},
			title: fmt.Sprintf("E-mail · %s", m.Subject), detail: s.String()})
	}
	d.summary = fmt.Sprintf("%d e-mails (kept, never sent)", len(v.Emails))
	return d, nil
}

package orders

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Order events of the spec.
const (
	EventCreate         = "order:create"
	EventUpdate         = "order:update"
	EventCancel         = "order:cancel"
	EventPaid           = "order:paid"
	EventDelete         = "order:delete"
	EventHistoryRemarks = "orderHistoryRemarks:change"
	EventStatusesList   = "orderStatusesList:change"
)

// ChangeOptions are the extras of a status change: the request's flags
// and the fields of PATCH /api/orders/{code}/status besides statusId.
type ChangeOptions struct {
	SuppressDocuments bool
	SuppressEmails    bool
	Paid              *bool
	BillingMethod     map[string]any // {id, name}; nil keeps the order's
}

// ApplyStatus sets an order's status with everything that follows from
// the status definition: items without a status of their own follow when
// the status has changeOrderItems; markAsPaid marks the order paid; the
// status's documents are issued and its e-mail recorded (unless
// suppressed); order:update is emitted for any change, order:cancel when
// the canceling status is set (the stock the order took goes back), and
// order:paid only when the order turns from unpaid to paid. It reports
// whether the order changed; the caller saves it.
func (s *Shop) ApplyStatus(o map[string]any, st rules.Status, opt ChangeOptions) (bool, error) {
	cur, _ := o["status"].(map[string]any)
	oldID, _ := intOf(cur["id"])
	wasPaid := o["paid"] == true
	wasCanceled := s.OrderCanceled(o)
	statusChanged := cur == nil || int(oldID) != st.ID
	changed := statusChanged

	if statusChanged {
		oldName := str(cur["name"])
		o["status"] = st.Ref()
		if st.ChangeOrderItems {
			for _, it := range items(o) {
				if it["_ownStatus"] != true {
					it["status"] = st.Ref()
				}
			}
		}
		text := fmt.Sprintf("Status changed from %s to %s.", oldName, st.Name)
		if _, err := s.AddHistory(o, HistoryStatus, text, true); err != nil {
			return false, err
		}
	}
	paid := wasPaid
	if statusChanged && st.MarkAsPaid {
		paid = true
	}
	if opt.Paid != nil {
		paid = *opt.Paid
	}
	if paid != wasPaid {
		o["paid"] = paid
		changed = true
	}
	if opt.BillingMethod != nil {
		old, _ := o["billingMethod"].(map[string]any)
		oid, _ := intOf(old["id"])
		nid, _ := intOf(opt.BillingMethod["id"])
		if old == nil || oid != nid {
			o["billingMethod"] = opt.BillingMethod
			changed = true
		}
	}
	if !changed {
		return false, nil
	}
	code := str(o["code"])
	o["changeTime"] = s.Time()
	// order:update and the edit entry now; the caller stores the order.
	if err := s.W.Changing(Collection, code, crud.Edited); err != nil {
		return false, err
	}
	if statusChanged && st.Canceled() && !wasCanceled {
		s.Emit(EventCancel, code)
		if err := s.ReturnStock(o); err != nil {
			return false, err
		}
	}
	if paid && !wasPaid {
		s.Emit(EventPaid, code)
		o["onlinePaymentLink"] = nil
	}
	if statusChanged && !opt.SuppressDocuments {
		if err := s.statusDocuments(o, st.Documents); err != nil {
			return false, err
		}
	}
	if statusChanged && !opt.SuppressEmails && st.SendEmail {
		if err := s.SendMail(MailStatus, o, &st); err != nil {
			return false, err
		}
	}
	return true, nil
}

// statusDocuments issues the documents a status generates, each kind
// once per order.
func (s *Shop) statusDocuments(o map[string]any, d rules.Documents) error {
	for _, k := range []struct {
		on   bool
		kind DocKind
	}{{d.ProformaInvoice, KindProforma}, {d.Invoice, KindInvoice}, {d.DeliveryNote, KindDeliveryNote}, {d.ProofPayment, KindProofPayment}} {
		if !k.on {
			continue
		}
		if c := str(o[k.kind.OrderField]); c != "" && s.Tx.Exists(s.ID, k.kind.Collection, c) {
			continue
		}
		if _, err := s.CreateDocument(k.kind, o, DocOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// stockField remembers on an order what it took from which stock, so
// canceling or deleting it puts the goods back.
const stockField = "_stock"

// TakeStock decreases the stock by the order's goods and remembers it.
func (s *Shop) TakeStock(o map[string]any, stockID int64) error {
	var lines []StockLine
	var kept []any
	for _, it := range items(o) {
		if !rules.MovesStock(str(it["itemType"])) || str(it["code"]) == "" || it["_known"] != true {
			continue
		}
		a, err := decimal.NewFromString(str(it["amount"]))
		if err != nil {
			continue
		}
		lines = append(lines, StockLine{Code: str(it["code"]), ProductGUID: str(it["productGuid"]), Delta: a.Neg()})
		kept = append(kept, map[string]any{"code": str(it["code"]), "productGuid": str(it["productGuid"]), "amount": rules.Amount3(a), "itemId": it["itemId"]})
	}
	if len(lines) == 0 {
		return nil
	}
	if err := s.MoveStock(stockID, str(o["code"]), lines); err != nil {
		return err
	}
	o[stockField] = map[string]any{"stockId": stockID, "lines": kept}
	return nil
}

// ReturnStock puts back what the order took (once).
func (s *Shop) ReturnStock(o map[string]any) error {
	taken, _ := o[stockField].(map[string]any)
	if taken == nil {
		return nil
	}
	stockID, _ := intOf(taken["stockId"])
	list, _ := taken["lines"].([]any)
	var lines []StockLine
	for _, l := range list {
		m, _ := l.(map[string]any)
		a, err := decimal.NewFromString(str(m["amount"]))
		if err != nil {
			continue
		}
		lines = append(lines, StockLine{Code: str(m["code"]), ProductGUID: str(m["productGuid"]), Delta: a})
	}
	delete(o, stockField)
	return s.MoveStock(stockID, str(o["code"]), lines)
}

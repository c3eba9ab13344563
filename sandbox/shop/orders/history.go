package orders

import (
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// History entry types: the sandbox's own entries are system entries; the
// remarks added through the API carry the type the caller gave
// ("remark" when none).
const (
	HistoryRemark  = "remark"
	HistoryCreated = "order-created"
	HistoryStatus  = "status-change"
	HistoryPayment = "payment"
)

// HistoryCollection holds every order's history entries in the
// reference's OrderHistorySnapshot shape (an OrderHistory entry plus its
// orderCode), so the remarks snapshot reads them directly.
const HistoryCollection = "order-history"

// AddHistory appends an entry to an order's history.
func (s *Shop) AddHistory(o map[string]any, typ, text string, system bool) (int64, error) {
	id, err := s.Tx.Next(s.ID, HistoryCollection)
	if err != nil {
		return 0, err
	}
	var user any
	if !system {
		user = map[string]any{"id": "api", "name": "API"}
	}
	rec := map[string]any{"id": id, "orderCode": str(o["code"]), "creationTime": s.Time(), "system": system, "text": text, "type": typ, "user": user}
	return id, s.W.Save(HistoryCollection, strconv.FormatInt(id, 10), rec, crud.Added)
}

// History returns an order's history entries, oldest first.
func (s *Shop) History(code string) ([]map[string]any, error) {
	var out []map[string]any
	var ferr error
	err := s.Tx.Scan(s.ID, HistoryCollection, func(_ string, doc []byte) bool {
		if gjsonGet(doc, "orderCode").String() != code {
			return true
		}
		m, err := decodeRecord(doc)
		if err != nil {
			ferr = err
			return false
		}
		out = append(out, m)
		return true
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// DeleteHistory removes an order's history entry; entries the e-shop
// wrote itself (system) cannot be removed (409).
func (s *Shop) DeleteHistory(code string, id string) error {
	m, err := Get(s.Tx, s.ID, HistoryCollection, id, "History entry")
	if err != nil || str(m["orderCode"]) != code {
		return sandbox.NotFound(id, "Order %s has no history entry %s.", code, id)
	}
	if m["system"] == true {
		return sandbox.Conflict(id, "History entry %s was written by the e-shop itself and cannot be deleted.", id)
	}
	return s.W.Delete(HistoryCollection, id)
}

// deleteOrderHistory removes every entry of a deleted order.
func (s *Shop) deleteOrderHistory(code string) error {
	var ids []string
	_ = s.Tx.Scan(s.ID, HistoryCollection, func(id string, doc []byte) bool {
		if gjsonGet(doc, "orderCode").String() == code {
			ids = append(ids, id)
		}
		return true
	})
	for _, id := range ids {
		if err := s.W.Delete(HistoryCollection, id); err != nil {
			return err
		}
	}
	return nil
}

package orders

import (
	"context"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// New binds the order behaviour to crud's write path and its store.
func New(e *crud.Engine, ids *sandbox.IDs) *Service {
	return &Service{Engine: e, Store: e.Store(), Site: e.Site(), IDs: ids, codes: NewCodeIndex(), settings: newSettingsCache(), stocks: newSupplyCache()}
}

// Start and AfterReset have nothing to prepare for orders: the item-id
// sequence is moved past the seeded item ids on its first use (see
// NextID), not at start, where it would read every seeded order.
func (s *Service) Start(context.Context) error { return nil }

// Prime is what a reset needs; see Start.
func (s *Service) Prime() error { return nil }

// primeItems moves the item-id sequence of an e-shop past the item ids of
// its orders, once: new items never collide with seeded ones.
func primeItems(tx *store.Tx, eshop int) error {
	key := "order-items-primed:" + strconv.Itoa(eshop)
	if _, ok := tx.GetValue(key); ok {
		return nil
	}
	var maxID int64
	err := tx.Scan(eshop, Collection, func(_ string, doc []byte) bool {
		for _, id := range gjsonGet(doc, "items.#.itemId").Array() {
			maxID = max(maxID, id.Int())
		}
		return true
	})
	if err != nil {
		return err
	}
	if err := tx.SetSequence(eshop, itemSeq, maxID); err != nil {
		return err
	}
	return tx.SetValue(key, "1")
}

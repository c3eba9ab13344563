package orders

import (
	"context"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// New binds the order behaviour to a store.
func New(st *store.Store, site *eshop.Site, ids *sandbox.IDs, sch *schemas.Set) *Service {
	return &Service{Store: st, Site: site, IDs: ids, Schemas: sch}
}

// Start primes the sequences after seeding (see Prime).
func (s *Service) Start(context.Context) error { return s.Prime() }

// Prime moves the item-id sequence of every e-shop past the item ids the
// fixtures use, so new items never collide with seeded ones. It runs at
// start and after every reset.
func (s *Service) Prime() error {
	return s.Store.Update(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			var maxID int64
			err := tx.Scan(m.ID, Collection, func(_ string, doc []byte) bool {
				for _, id := range gjsonGet(doc, "items.#.itemId").Array() {
					maxID = max(maxID, id.Int())
				}
				return true
			})
			if err != nil {
				return err
			}
			if err := tx.SetSequence(m.ID, itemSeq, maxID); err != nil {
				return err
			}
		}
		return nil
	})
}

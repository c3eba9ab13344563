package store

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Reserved is the capability to write the collections a store reserves:
// the registry's tables, whose every write must go through the one write
// path (sandbox/core/crud: store write, change log and event together).
// Tx.Put and Tx.Delete refuse a reserved collection; only the holder of
// the store's Reserved writes it. The sandbox hands it to crud and to the
// seed loader (fixtures are the records' first state, before any change
// log), and a source test keeps every other package from asking for it.
type Reserved struct {
	mu    sync.Mutex
	colls atomic.Pointer[map[string]bool]
}

// ErrReserved is wrapped by the error of a raw write to a reserved
// collection: a programming error, answered as an internal error.
var ErrReserved = fmt.Errorf("store: a registry collection is written only through crud")

// Reserve reserves the named collections (in every e-shop) and returns
// the store's one capability to write them; later calls add names and
// return the same capability.
func (s *Store) Reserve(colls ...string) *Reserved {
	r := &s.reserved
	r.mu.Lock()
	defer r.mu.Unlock()
	next := map[string]bool{}
	if cur := r.colls.Load(); cur != nil {
		for c := range *cur {
			next[c] = true
		}
	}
	for _, c := range colls {
		next[c] = true
	}
	r.colls.Store(&next)
	return r
}

// reservedColl reports whether coll is reserved.
func (r *Reserved) reservedColl(coll string) bool {
	m := r.colls.Load()
	return m != nil && (*m)[coll]
}

// Put stores doc in a reserved (or any) collection, as Tx.Put does.
func (r *Reserved) Put(t *Tx, eshop int, coll, id string, doc []byte) (bool, error) {
	if t.s.reserve() != r {
		return false, fmt.Errorf("store: a capability of another store for %s/%s", coll, id)
	}
	return t.put(eshop, coll, id, doc, zeroTime, true, false)
}

// PutOwned is Put of a doc the caller hands over: it must never change
// a byte of it afterwards, since the store may keep doc itself.
func (r *Reserved) PutOwned(t *Tx, eshop int, coll, id string, doc []byte) (bool, error) {
	if t.s.reserve() != r {
		return false, fmt.Errorf("store: a capability of another store for %s/%s", coll, id)
	}
	return t.put(eshop, coll, id, doc, zeroTime, true, true)
}

// Delete removes a record of a reserved (or any) collection, as
// Tx.Delete does.
func (r *Reserved) Delete(t *Tx, eshop int, coll, id string) error {
	if t.s.reserve() != r {
		return fmt.Errorf("store: a capability of another store for %s/%s", coll, id)
	}
	return t.delete(eshop, coll, id, true)
}

func (s *Store) reserve() *Reserved { return &s.reserved }

// guard refuses a write of a reserved collection without the capability.
func (t *Tx) guard(coll, id string, privileged bool) error {
	if privileged || !t.s.reserved.reservedColl(coll) {
		return nil
	}
	return fmt.Errorf("%w: raw write of %s/%s", ErrReserved, coll, id)
}

package store

import (
	"errors"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestReservedCollections: once a collection is reserved, Tx.Put and
// Tx.Delete refuse it with ErrReserved and change nothing; the store's
// capability writes and deletes it; other collections are untouched by
// the reservation; a later Reserve returns the same capability, and
// another store's capability is refused.
func TestReservedCollections(t *testing.T) {
	s := openMem(t, sandbox.NewClock())
	if err := s.Update(func(tx *Tx) error {
		_, err := tx.Put(1, "orders", "1", []byte(`{"a":1}`))
		return err
	}); err != nil {
		t.Fatalf("before the reservation: %v", err)
	}
	rw := s.Reserve("orders")
	if s.Reserve() != rw {
		t.Fatal("a second Reserve gave another capability")
	}
	err := s.Update(func(tx *Tx) error {
		if _, err := tx.Put(1, "orders", "2", []byte(`{"a":2}`)); !errors.Is(err, ErrReserved) {
			t.Errorf("raw Put: %v, want ErrReserved", err)
		}
		if err := tx.Delete(1, "orders", "1"); !errors.Is(err, ErrReserved) {
			t.Errorf("raw Delete: %v, want ErrReserved", err)
		}
		if _, err := tx.Put(1, "outbox", "1", []byte(`{}`)); err != nil {
			t.Errorf("a collection not reserved: %v", err)
		}
		if _, err := rw.Put(tx, 1, "orders", "3", []byte(`{"a":3}`)); err != nil {
			t.Errorf("capability Put: %v", err)
		}
		return rw.Delete(tx, 1, "orders", "1")
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		if tx.Exists(1, "orders", "2") || tx.Exists(1, "orders", "1") || !tx.Exists(1, "orders", "3") {
			t.Error("the refused writes changed the collection, or the capability's did not")
		}
		return nil
	})
	other := openMem(t, sandbox.NewClock())
	_ = s.Update(func(tx *Tx) error {
		if _, err := other.Reserve().Put(tx, 1, "orders", "4", []byte(`{}`)); err == nil {
			t.Error("another store's capability wrote")
		}
		return nil
	})
}

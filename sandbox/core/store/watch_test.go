package store

import (
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestWatchCountsItsCollections: a Watch moves with every write and
// delete of its collections, in any e-shop, and with a reset; writes of
// other collections leave it.
func TestWatchCountsItsCollections(t *testing.T) {
	st, err := Open(Options{Clock: sandbox.NewFrozenClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := st.Watch("keys", "plugins")
	other := st.Watch("orders")
	steps := []struct {
		name  string
		write func(tx *Tx) error
		moves bool
	}{
		{"a key stored", func(tx *Tx) error { _, err := tx.Put(Global, "keys", "t1", []byte(`{"a":1}`)); return err }, true},
		{"a plugin of an e-shop", func(tx *Tx) error { _, err := tx.Put(7, "plugins", "a1", []byte(`{"a":1}`)); return err }, true},
		{"an order", func(tx *Tx) error { _, err := tx.Put(7, "orders", "o1", []byte(`{"a":1}`)); return err }, false},
		{"a value", func(tx *Tx) error { return tx.SetValue("x", "1") }, false},
		{"a key deleted", func(tx *Tx) error { return tx.Delete(Global, "keys", "t1") }, true},
	}
	for _, s := range steps {
		before, beforeOther := w.Generation(), other.Generation()
		if err := st.Update(s.write); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if moved := w.Generation() != before; moved != s.moves {
			t.Errorf("%s: moved = %v, want %v", s.name, moved, s.moves)
		}
		if s.name == "an order" && other.Generation() == beforeOther {
			t.Errorf("%s: the orders' watch did not move", s.name)
		}
	}
	before := w.Generation()
	if err := st.Reset(); err != nil {
		t.Fatal(err)
	}
	if w.Generation() == before {
		t.Error("a reset did not move the watch")
	}
}

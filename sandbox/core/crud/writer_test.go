package crud

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// published keeps the committed events of a store.
type published struct {
	mu  sync.Mutex
	evs []string
}

func (p *published) Publish(evs ...sandbox.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range evs {
		p.evs = append(p.evs, e.Kind+" "+e.Instance)
	}
}

func (p *published) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.evs
	p.evs = nil
	return out
}

// TestWriter: the one write path stores, logs and announces. A Save logs
// its change and emits the row's event; Changing announces a change where
// it happens and the later Save of the record adds no second entry or
// event; Synced logs without the row's event; Delete logs and announces
// the delete; Annotate writes metadata without an entry and refuses a
// public change; a row without a log gets no entry.
func TestWriter(t *testing.T) {
	pub := &published{}
	st, err := store.Open(store.Options{Clock: sandbox.NewClock(), Publisher: pub})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(reg, Deps{Store: st, Hooks: stubHooks(reg)})
	if err != nil {
		t.Fatal(err)
	}
	const shop = 7
	entries := func() []string {
		var out []string
		_ = st.View(func(tx *store.Tx) error {
			for _, coll := range []string{"orders", "products", "stock-movements"} {
				_ = tx.Scan(shop, changelog.Collection(coll), func(_ string, doc []byte) bool {
					m, _ := api.DecodeObject(doc)
					out = append(out, coll+" "+m["id"].(string)+" "+m["changeType"].(string))
					return true
				})
			}
			return nil
		})
		return out
	}
	write := func(fn func(w *Writer) error) {
		t.Helper()
		if err := e.Write(shop, fn); err != nil {
			t.Fatal(err)
		}
	}
	write(func(w *Writer) error {
		if err := w.Changing("orders", "A1", Added); err != nil {
			return err
		}
		if err := w.Save("stock-movements", "1", map[string]any{"id": 1}, Added); err != nil {
			return err
		}
		if err := w.Save("products", "P1", []byte(`{"guid":"P1","stock":"1.000"}`), Synced); err != nil {
			return err
		}
		if err := w.Save("products", "P1", []byte(`{"guid":"P1","stock":"0.000"}`), Synced); err != nil {
			return err
		}
		return w.Save("orders", "A1", map[string]any{"code": "A1", "n": 1}, Added)
	})
	got, want := strings.Join(entries(), ","), "orders A1 add,products P1 edit"
	if got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
	if evs := strings.Join(pub.take(), ","); evs != "order:create A1" {
		t.Errorf("events %s, want order:create A1 only", evs)
	}
	write(func(w *Writer) error {
		return w.Annotate("orders", "A1", map[string]any{"code": "A1", "n": 1, "_invoiceCode": "9"})
	})
	err = e.Write(shop, func(w *Writer) error {
		return w.Annotate("orders", "A1", map[string]any{"code": "A1", "n": 2})
	})
	if err == nil || !strings.Contains(err.Error(), "public fields") {
		t.Errorf("a public change as metadata: %v", err)
	}
	write(func(w *Writer) error { return w.Save("orders", "A1", map[string]any{"code": "A1", "n": 3}, Edited) })
	write(func(w *Writer) error { return w.Delete("orders", "A1") })
	got, want = strings.Join(entries(), ","), "orders A1 add,orders A1 edit,orders A1 delete,products P1 edit"
	if got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
	if evs := strings.Join(pub.take(), ","); evs != "order:update A1,order:delete A1" {
		t.Errorf("events %s", evs)
	}
	err = e.Write(shop, func(w *Writer) error { return w.Delete("orders", "A1") })
	if !errors.Is(err, sandbox.ErrNotFound) {
		t.Errorf("deleting a deleted order: %v", err)
	}
}

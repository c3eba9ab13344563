package crud

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Change is what a write does to a record, as its change log entry and
// its event tell it.
type Change struct {
	Type string // changelog.Add, changelog.Edit or changelog.Delete
	// quiet leaves the row's event out: the change follows from another
	// record's, whose own events announce it.
	quiet bool
}

// The changes a behaviour package writes.
var (
	// Added is a new record: an add entry and the row's create event.
	Added = Change{Type: changelog.Add}
	// Edited is a changed record: an edit entry and the row's update event.
	Edited = Change{Type: changelog.Edit}
	// Synced is a record kept in step with another record's change (a
	// product's stock after a stock movement): an edit entry, and no
	// update event of its own, since the cause's events (stock:movement,
	// the stock level events) announce it.
	Synced = Change{Type: changelog.Edit, quiet: true}
)

// Writer is the one write path of the registry's records inside one
// store transaction of one e-shop: every write of a registry table,
// generic (Ctx) or behaviour (orders, documents, payments, stock,
// accounting), stores the record, logs its change when the row keeps a
// log and emits the row's event here. The store refuses a registry
// collection's write from anywhere else (store.Reserved).
type Writer struct {
	e     *Engine
	tx    *store.Tx
	eshop int
	// logged are the records (row, id) whose change this request has
	// logged: a record stored several times in one request (an order
	// whose documents and stock follow its creation) has one entry.
	logged map[[2]string]bool
}

// Writer opens the write path of an e-shop inside a write transaction.
func (e *Engine) Writer(tx *store.Tx, eshop int) *Writer {
	return &Writer{e: e, tx: tx, eshop: eshop}
}

// Write runs fn with the write path of an e-shop in a write transaction.
func (e *Engine) Write(eshop int, fn func(w *Writer) error) error {
	return e.d.Store.Update(func(tx *store.Tx) error { return fn(e.Writer(tx, eshop)) })
}

// Store is the store the engine writes.
func (e *Engine) Store() *store.Store { return e.d.Store }

// Tx is the writer's transaction, for reads.
func (w *Writer) Tx() *store.Tx { return w.tx }

// Eshop is the e-shop the writer writes.
func (w *Writer) Eshop() int { return w.eshop }

// row is a top-level registry row by name; anything else is a
// programming error.
func (w *Writer) row(name string) *registry.Resource {
	row, ok := w.e.reg.Resource(name)
	if !ok || row.Parent != nil {
		panic("crud: " + name + " is not a top-level registry row")
	}
	return row
}

// Save stores a record of a registry row under id (rec is a map, or the
// JSON object's bytes when the caller edited the stored bytes in place),
// and, unless this request already logged the record's change (Changing,
// or an earlier Save), logs ch and emits the row's event for it.
func (w *Writer) Save(row, id string, rec any, ch Change) error {
	r := w.row(row)
	if err := w.put(r.Name, id, rec); err != nil {
		return err
	}
	if w.logged[[2]string{r.Name, id}] {
		return nil
	}
	return w.changed(r, id, ch)
}

// Changing logs a record's change and emits the row's event now, where
// the change happens among the request's other events; the Save that
// stores the record later in the same request adds no second entry.
func (w *Writer) Changing(row, id string, ch Change) error {
	return w.changed(w.row(row), id, ch)
}

// Delete removes a record of a registry row (sandbox.ErrNotFound when
// there is none), logs the delete and emits the row's delete event.
func (w *Writer) Delete(row, id string) error {
	r := w.row(row)
	if err := w.e.writes.Delete(w.tx, w.eshop, r.Name, id); err != nil {
		return err
	}
	return w.changed(r, id, Change{Type: changelog.Delete})
}

// Annotate stores a record whose only change is sandbox metadata (keys
// starting with "_", which no client sees: the codes of an order's
// documents, its open payment code): no change entry, no event. A record
// whose public fields differ from the stored ones is refused, so a real
// change cannot pass as metadata.
func (w *Writer) Annotate(row, id string, rec map[string]any) error {
	r := w.row(row)
	old, err := w.tx.Get(w.eshop, r.Name, id)
	if err != nil {
		return err
	}
	was, err := api.DecodeObject(old)
	if err != nil {
		return err
	}
	a, _ := json.Marshal(publicPart(was))
	b, _ := json.Marshal(publicPart(rec))
	if !bytes.Equal(a, b) {
		return fmt.Errorf("crud: %s %s: a change of public fields written as metadata", r.Name, id)
	}
	return w.put(r.Name, id, rec)
}

// publicPart is a record without its sandbox metadata, at any depth.
func publicPart(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			if len(k) == 0 || k[0] != '_' {
				m[k] = publicPart(x)
			}
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = publicPart(x)
		}
		return l
	}
	return v
}

// changed logs a change of a top-level record and emits the row's event
// for it.
func (w *Writer) changed(r *registry.Resource, id string, ch Change) error {
	if err := w.log(r, r.Name, id, ch.Type); err != nil {
		return err
	}
	if w.logged == nil {
		w.logged = map[[2]string]bool{}
	}
	w.logged[[2]string{r.Name, id}] = true
	if !ch.quiet {
		w.emit(rowEvent(r, ch.Type), id)
	}
	return nil
}

// log appends a change to a log (the row's, or an embedded record's
// under its parent) when the row keeps one.
func (w *Writer) log(r *registry.Resource, logName, id, changeType string) error {
	if r.ChangeKey == "" {
		return nil
	}
	return changelog.Record(w.tx, w.eshop, logName, id, changeType)
}

// emit queues an event for after the commit ("" emits nothing).
func (w *Writer) emit(kind, instance string) {
	if kind == "" {
		return
	}
	w.tx.Emit(sandbox.Event{EshopID: w.eshop, Kind: kind, Instance: instance})
}

// rowEvent is the row's event for a change type.
func rowEvent(r *registry.Resource, changeType string) string {
	switch changeType {
	case changelog.Add:
		return r.Events.Create
	case changelog.Edit:
		return r.Events.Update
	case changelog.Delete:
		return r.Events.Delete
	}
	return ""
}

// put is the store write of a record of a registry collection: encoded
// by Encode (or given as bytes) and written with the store's capability.
func (w *Writer) put(coll, id string, rec any) error {
	var raw []byte
	switch t := rec.(type) {
	case Owned:
		_, err := w.e.writes.PutOwned(w.tx, w.eshop, coll, id, t)
		return err
	case []byte:
		raw = t
	case json.RawMessage:
		raw = t
	default:
		// The store keeps a copy of what it is given (BuntDB holds
		// strings), so the encoding is only needed until Put returns:
		// it goes into a reused buffer.
		buf := encodeBuffers.Get().(*[]byte)
		defer func() {
			if cap(*buf) <= 1<<20 {
				encodeBuffers.Put(buf)
			}
		}()
		var err error
		if raw, err = appendJSON((*buf)[:0], rec); err != nil {
			return err
		}
		*buf = raw
	}
	_, err := w.e.writes.Put(w.tx, w.eshop, coll, id, raw)
	return err
}

// Owned is an encoded record its writer hands over to the store with
// Save: the writer never changes it afterwards, so the store may keep
// these very bytes instead of a copy.
type Owned []byte

// encodeBuffers are the buffers records are encoded into for the store.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// remove is the store delete of a record of a registry collection.
func (w *Writer) remove(coll, id string) error {
	return w.e.writes.Delete(w.tx, w.eshop, coll, id)
}

package store

import (
	"bytes"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// The base layer holds seeded records that were never written since:
// an in-memory store attaches a fixture collection as it is (the record
// bytes, in list order) instead of copying every record into BuntDB, so
// a sandbox with hundreds of thousands of seeded records starts at once.
// BuntDB stays the store of every write: a written base record is put in
// BuntDB under its own key (which then hides the base copy), a deleted one
// leaves a tombstone key, and both roll back with their transaction. The
// base itself never changes after it is attached.
type baseColl struct {
	ids   []string
	docs  [][]byte // JSON objects without the store's metadata fields, or packed (see pack.go)
	index map[string]int32
	pack  *packing           // nil: docs are the records as read
	dict  int                // bytes of the packing's dictionary
	marks map[string][]int32 // see Packed.Marks
	// kept are the records of a small collection as read, metadata
	// included, made on first read (nil for a large or packed one): the
	// e-shop's settings, methods and stocks are read by every order, and
	// adding the metadata to each one every time was a twentieth of an
	// order's time inside the write transaction.
	kept []atomic.Pointer[string]
}

// maxKept is the size up to which a seeded collection keeps its records
// as read (a large one would hold each read record twice).
const maxKept = 1024

// keptRecord is the i-th record with its metadata, kept after the first
// read; ok is false when the collection keeps none.
func (b *baseColl) keptRecord(i int, seq int64) (string, bool) {
	if b.kept == nil {
		return "", false
	}
	if p := b.kept[i].Load(); p != nil {
		return *p, true
	}
	rec := string(withMeta(b.docs[i], seq, time.Time{}))
	b.kept[i].Store(&rec)
	return rec, true
}

// position finds a base record; its list-order number is its position,
// from 1.
func (b *baseColl) position(id string) (int, bool) {
	i, ok := b.index[id]
	return int(i), ok
}

// doc is the i-th record, appended to dst when it is packed (the record
// as read is returned itself, and must not be changed).
func (b *baseColl) doc(dst []byte, i int) ([]byte, error) {
	if b.pack == nil {
		return b.docs[i], nil
	}
	return b.pack.unpack(dst, b.docs[i])
}

func tombKey(key string) string { return "x:" + key }

// Attach makes ids/docs (in list order, docs being JSON objects without
// "_seq" or "_expiresAt") the records of an empty collection, without
// copying them: docs must not change afterwards. Only an in-memory store
// takes a base layer (a data file must hold every record itself); see
// Store.Persistent.
func (t *Tx) Attach(eshop int, coll string, ids []string, docs [][]byte) error {
	if len(ids) != len(docs) {
		return fmt.Errorf("store: attach %s: %d ids for %d documents", coll, len(ids), len(docs))
	}
	return t.attach(eshop, coll, &baseColl{ids: ids, docs: docs})
}

// attach makes b the base layer of an empty collection.
func (t *Tx) attach(eshop int, coll string, b *baseColl) error {
	if t.s.Persistent() {
		return fmt.Errorf("store: attach %s: a data file holds its records itself", coll)
	}
	prefix := collPrefix(eshop, coll)
	if t.Count(eshop, coll) > 0 || t.s.baseColl(prefix) != nil {
		return fmt.Errorf("store: attach %s: the collection is not empty", coll)
	}
	ids := b.ids
	b.index = make(map[string]int32, len(ids))
	if b.pack == nil && len(ids) <= maxKept {
		b.kept = make([]atomic.Pointer[string], len(ids))
	}
	for i, id := range ids {
		if !validID(id) {
			return sandbox.Invalid(id, "identifier %q contains a character the sandbox cannot store (':', '*', '?')", id)
		}
		if _, dup := b.index[id]; dup {
			return fmt.Errorf("store: attach %s: duplicate id %q", coll, id)
		}
		b.index[id] = int32(i)
	}
	t.s.known(prefix)
	if _, _, err := t.tx.Set(counterKey(eshop, coll), strconv.Itoa(len(ids)), nil); err != nil {
		return err
	}
	if _, _, err := t.tx.Set(seqKey(eshop, coll), strconv.Itoa(len(ids)), nil); err != nil {
		return err
	}
	t.s.setBase(prefix, b)
	t.attached = append(t.attached, prefix)
	seqs := make([]int64, len(ids))
	for i := range seqs {
		seqs[i] = int64(i) + 1
	}
	t.s.pos.set(prefix, append([]string(nil), ids...), seqs)
	return nil
}

// Persistent reports whether the store writes to a data file.
func (s *Store) Persistent() bool { return s.persistent }

func (s *Store) baseColl(prefix string) *baseColl {
	m := s.base.Load()
	if m == nil {
		return nil
	}
	return (*m)[prefix]
}

// setBase adds (b != nil) or removes a base collection; the map is
// replaced, never changed, so readers need no lock.
func (s *Store) setBase(prefix string, b *baseColl) {
	s.touchedAll()
	s.baseMu.Lock()
	defer s.baseMu.Unlock()
	next := map[string]*baseColl{}
	if m := s.base.Load(); m != nil {
		for k, v := range *m {
			next[k] = v
		}
	}
	if b == nil {
		delete(next, prefix)
	} else {
		next[prefix] = b
	}
	s.base.Store(&next)
}

// baseSeq finds a live base record under key (not tombstoned): its
// collection, position and list-order number.
func (t *Tx) baseSeq(prefix, key, id string) (*baseColl, int, int64, bool) {
	b := t.s.baseColl(prefix)
	if b == nil {
		return nil, 0, 0, false
	}
	i, ok := b.position(id)
	if !ok {
		return nil, 0, 0, false
	}
	if _, err := t.tx.Get(tombKey(key)); err == nil {
		return nil, 0, 0, false
	}
	return b, i, int64(i) + 1, true
}

// baseDoc is the i-th record of b with the store's metadata, as a new
// slice (key names it in errors).
func (t *Tx) baseDoc(b *baseColl, i int, seq int64, key string) ([]byte, error) {
	if b.pack == nil {
		return withMeta(b.docs[i], seq, time.Time{}), nil
	}
	// Decoded right after the metadata, whose comma then takes the place
	// of the record's opening brace: one copy of the record, not two.
	head := append(make([]byte, 0, 8*len(b.docs[i])+32), seqPrefix...)
	head = strconv.AppendInt(head, seq, 10)
	out, err := b.doc(head, i)
	if err != nil {
		return nil, fmt.Errorf("store: unpack %s: %w", key, err)
	}
	rec := out[len(head):]
	switch {
	case len(rec) < 2 || rec[0] != '{':
		return nil, fmt.Errorf("store: unpack %s: not a JSON object", key)
	case rec[1] == '}':
		out = append(out[:len(head)], '}')
	case rec[1] == '"':
		out[len(head)] = ','
	default: // space after the brace: as withMeta writes it
		out = withMeta(rec, seq, time.Time{})
	}
	return out, nil
}

// bury hides the base copy of a record, if there is one.
func (t *Tx) bury(prefix, key, id string) error {
	b := t.s.baseColl(prefix)
	if b == nil {
		return nil
	}
	if _, ok := b.index[id]; !ok {
		return nil
	}
	_, _, err := t.tx.Set(tombKey(key), "", nil)
	return err
}

// Persistent reports whether the transaction's store writes to a data
// file (then Attach is refused).
func (t *Tx) Persistent() bool { return t.s.persistent }

// StripMeta removes the store's own fields ("_seq", "_expiresAt") from a
// JSON object.
func StripMeta(doc []byte) []byte { return stripMeta(doc) }

// HasBase reports whether a collection has a base layer.
func (t *Tx) HasBase(eshop int, coll string) bool {
	return t.s.baseColl(collPrefix(eshop, coll)) != nil
}

// ScanSeededContaining is ScanSeeded for the records that contain the
// bytes of needle only. A packed collection marked for needle when it was
// packed (see Packed.Marks) decodes those records alone.
func (t *Tx) ScanSeededContaining(eshop int, coll, needle string, fn func(id string, doc []byte) bool) error {
	b := t.s.baseColl(collPrefix(eshop, coll))
	if b == nil {
		return nil
	}
	at, marked := b.marks[needle]
	if !marked {
		return t.ScanSeeded(eshop, coll, func(id string, doc []byte) bool {
			return !bytes.Contains(doc, []byte(needle)) || fn(id, doc)
		})
	}
	var buf []byte
	for _, i := range at {
		doc, err := b.doc(buf[:0], int(i))
		if err != nil {
			return fmt.Errorf("store: unpack %s/%s: %w", coll, b.ids[i], err)
		}
		buf = doc
		if !fn(b.ids[i], doc) {
			return nil
		}
	}
	return nil
}

// ScanSeeded calls fn for each record of a collection's base layer as it
// was attached, written and deleted ones included, in list order; doc
// carries no metadata fields, must not be changed and is valid only until
// fn returns.
func (t *Tx) ScanSeeded(eshop int, coll string, fn func(id string, doc []byte) bool) error {
	b := t.s.baseColl(collPrefix(eshop, coll))
	if b == nil {
		return nil
	}
	var buf []byte
	for i, id := range b.ids {
		doc, err := b.doc(buf[:0], i)
		if err != nil {
			return fmt.Errorf("store: unpack %s/%s: %w", coll, id, err)
		}
		if b.pack != nil {
			buf = doc
		}
		if !fn(id, doc) {
			return nil
		}
	}
	return nil
}

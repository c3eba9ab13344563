package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/tidwall/buntdb"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Tx is one store transaction. Documents are JSON objects; the store adds
// the fields "_seq" (insertion order, the default list order) and, for
// expiring records, "_expiresAt" (unix seconds on the sandbox clock).
// Fields starting with "_" are sandbox metadata and never reach a client.
type Tx struct {
	s        *Store
	tx       *buntdb.Tx
	writable bool
	events   []sandbox.Event
	posOps   []posOp
	attached []string // base collections attached in this transaction
	// volatile is set when what the transaction read can change without
	// a write: it read the clock or a record that expires.
	volatile bool
}

func (t *Tx) posInsert(prefix, id string, seq int64) {
	t.s.pos.insert(prefix, id, seq)
	t.posOps = append(t.posOps, posOp{prefix: prefix, insert: true, id: id, seq: seq})
}

func (t *Tx) posRemove(prefix, id string, seq int64) {
	t.s.pos.remove(prefix, seq)
	t.posOps = append(t.posOps, posOp{prefix: prefix, insert: false, id: id, seq: seq})
}

// Now is the sandbox clock's current time. Reading it marks the
// transaction volatile (see Cacheable).
func (t *Tx) Now() time.Time {
	t.volatile = true
	return t.s.clock.Now()
}

// Clock is the sandbox clock without marking the transaction volatile:
// for callers that track their own use of the time (the shape generator
// of crud reports whether it filled a value from it).
func (t *Tx) Clock() *sandbox.Clock { return t.s.clock }

// Generation is the store's write generation as this transaction sees
// it; see Store.Generation.
func (t *Tx) Generation() uint64 { return t.s.gen.Load() }

// Cacheable reports whether what this transaction read so far is fully
// determined by the write generation: it read neither the clock nor a
// record that expires (expiry follows the clock, not writes). Render
// caches store an answer only when it is.
func (t *Tx) Cacheable() bool { return !t.volatile }

// expired tells whether a stored document has expired on the sandbox
// clock; any document with an expiry makes the transaction volatile.
func (t *Tx) expired(doc string) bool {
	at, ok := expiryOf(doc)
	if !ok {
		return false
	}
	t.volatile = true
	return at <= t.s.clock.Now().Unix()
}

// expiryOf reads a stored document's expiry (unix seconds), from the
// front where the store writes it (see frontMeta).
func expiryOf[D string | []byte](doc D) (int64, bool) {
	if m, ok := frontMeta(doc); ok {
		return m.expiresAt, m.expires
	}
	v := gjson.Get(string(doc), "_expiresAt")
	return v.Int(), v.Exists()
}

// seqOf reads a stored document's list-order number (see frontMeta).
func seqOf[D string | []byte](doc D) int64 {
	if m, ok := frontMeta(doc); ok {
		return m.seq
	}
	return gjson.Get(string(doc), "_seq").Int()
}

// Emit queues events to publish once this transaction commits.
func (t *Tx) Emit(events ...sandbox.Event) {
	for i := range events {
		if events[i].Time.IsZero() {
			events[i].Time = t.Now()
		}
	}
	t.events = append(t.events, events...)
}

// Get returns the document stored under (eshop, coll, id), or
// sandbox.ErrNotFound when it is absent or expired.
func (t *Tx) Get(eshop int, coll, id string) ([]byte, error) {
	v, doc, err := t.read(eshop, coll, id)
	if v != "" {
		return []byte(v), nil
	}
	return doc, err
}

// GetShared is Get without the copy: doc is the stored value itself, for a
// caller that only reads it (gjson, a decoder) and never changes a byte.
// BuntDB never changes a stored value (a write stores a new one), so doc
// stays what it was after later writes.
func (t *Tx) GetShared(eshop int, coll, id string) ([]byte, error) {
	v, doc, err := t.read(eshop, coll, id)
	if v != "" {
		return unsafe.Slice(unsafe.StringData(v), len(v)), nil
	}
	return doc, err
}

// read finds a live record: v is BuntDB's value or a seeded record kept
// with its metadata (both never changed), or doc a seeded record with its
// metadata (a new slice).
func (t *Tx) read(eshop int, coll, id string) (v string, doc []byte, err error) {
	if !validID(id) {
		return "", nil, sandbox.ErrNotFound
	}
	prefix := collPrefix(eshop, coll)
	key := prefix + ":" + id
	v, err = t.tx.Get(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		b, i, seq, ok := t.baseSeq(prefix, key, id)
		if !ok {
			return "", nil, sandbox.ErrNotFound
		}
		if rec, ok := b.keptRecord(i, seq); ok {
			return rec, nil, nil
		}
		doc, err := t.baseDoc(b, i, seq, key)
		if err != nil {
			return "", nil, err
		}
		return "", doc, nil
	}
	if err != nil {
		return "", nil, err
	}
	if t.expired(v) {
		return "", nil, sandbox.ErrNotFound
	}
	return v, nil, nil
}

// Exists reports whether a live record is stored under the id.
func (t *Tx) Exists(eshop int, coll, id string) bool {
	_, err := t.Get(eshop, coll, id)
	return err == nil
}

// Put stores doc (a JSON object) under the id, inserting or replacing. A
// replaced record keeps its position in the list order. It reports whether
// the record was new.
func (t *Tx) Put(eshop int, coll, id string, doc []byte) (created bool, err error) {
	return t.put(eshop, coll, id, doc, time.Time{}, false, false)
}

// PutExpiring stores doc like Put; the record disappears once the sandbox
// clock reaches expiresAt.
func (t *Tx) PutExpiring(eshop int, coll, id string, doc []byte, expiresAt time.Time) (bool, error) {
	return t.put(eshop, coll, id, doc, expiresAt, false, false)
}

// zeroTime is a record that does not expire.
var zeroTime time.Time

// put stores doc; privileged is a write through the Reserved capability;
// owned is a doc the caller hands over and never changes again, stored as
// it is when it already is the stored form (see ownedRecord).
func (t *Tx) put(eshop int, coll, id string, doc []byte, expiresAt time.Time, privileged, owned bool) (bool, error) {
	if err := t.guard(coll, id, privileged); err != nil {
		return false, err
	}
	if !validID(id) {
		return false, sandbox.Invalid(id, "identifier %q contains a character the sandbox cannot store (':', '*', '?')", id)
	}
	doc = bytes.TrimSpace(doc)
	if len(doc) < 2 || doc[0] != '{' {
		return false, fmt.Errorf("store: document for %s/%s is not a JSON object", coll, id)
	}
	prefix := collPrefix(eshop, coll)
	t.s.known(prefix)
	t.s.touched(coll)
	key := prefix + ":" + id
	var seq int64
	created := true
	old, err := t.tx.Get(key)
	switch {
	case err == nil && !expired(old, t.Now().Unix()):
		seq, created = seqOf(old), false
	case err == nil:
		// An expired record is replaced by a new one; it is already counted.
		t.posRemove(prefix, id, seqOf(old))
		if seq, err = t.next(seqKey(eshop, coll)); err != nil {
			return false, err
		}
		t.posInsert(prefix, id, seq)
	case errors.Is(err, buntdb.ErrNotFound):
		if _, _, bseq, ok := t.baseSeq(prefix, key, id); ok {
			seq, created = bseq, false // a seeded record's first write
			break
		}
		if seq, err = t.next(seqKey(eshop, coll)); err != nil {
			return false, err
		}
		if _, err := t.add(counterKey(eshop, coll), 1); err != nil {
			return false, err
		}
		t.posInsert(prefix, id, seq)
	default:
		return false, err
	}
	rec, ok := "", false
	if owned && expiresAt.IsZero() {
		rec, ok = ownedRecord(doc, seq)
	}
	if !ok {
		rec = storedRecord(doc, seq, expiresAt)
	}
	if _, _, err := t.tx.Set(key, rec, nil); err != nil {
		return false, err
	}
	return created, nil
}

// ownedRecord is doc itself as the stored value, without a copy, when it
// is byte for byte what storedRecord would make of it for seq: its
// metadata is exactly {"_seq":seq, at the front and nowhere else. A
// record read from the store and edited in place (the stock and product
// records an order changes, tens of kilobytes) is written back this way.
func ownedRecord(doc []byte, seq int64) (string, bool) {
	m, ok := frontMeta(doc)
	if !ok || m.expires || m.seq != seq || m.body == len(doc) || doc[m.body-1] != ',' {
		return "", false
	}
	if m.body != len(seqPrefix)+len(strconv.FormatInt(seq, 10))+1 || mayHoldMeta(doc[m.body:]) {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(doc), len(doc)), true
}

// Delete removes a record; sandbox.ErrNotFound when there is none.
func (t *Tx) Delete(eshop int, coll, id string) error { return t.delete(eshop, coll, id, false) }

// delete removes a record; privileged is a write through the Reserved
// capability.
func (t *Tx) delete(eshop int, coll, id string, privileged bool) error {
	if err := t.guard(coll, id, privileged); err != nil {
		return err
	}
	if !validID(id) {
		return sandbox.ErrNotFound
	}
	prefix := collPrefix(eshop, coll)
	key := prefix + ":" + id
	t.s.touched(coll)
	old, err := t.tx.Delete(key)
	if errors.Is(err, buntdb.ErrNotFound) {
		_, _, seq, ok := t.baseSeq(prefix, key, id)
		if !ok {
			return sandbox.ErrNotFound
		}
		old = `{"_seq":` + strconv.FormatInt(seq, 10) + `}`
	} else if err != nil {
		return err
	}
	if err := t.bury(prefix, key, id); err != nil {
		return err
	}
	t.posRemove(prefix, id, seqOf(old))
	if _, err := t.add(counterKey(eshop, coll), -1); err != nil {
		return err
	}
	if expired(old, t.Now().Unix()) {
		return sandbox.ErrNotFound
	}
	return nil
}

// DeleteCollection removes every record of a collection.
func (t *Tx) DeleteCollection(eshop int, coll string) error {
	var ids []string
	if err := t.Scan(eshop, coll, func(id string, _ []byte) bool { ids = append(ids, id); return true }); err != nil {
		return err
	}
	for _, id := range ids {
		if err := t.Delete(eshop, coll, id); err != nil && !errors.Is(err, sandbox.ErrNotFound) {
			return err
		}
	}
	return nil
}

// Count is the number of records stored in a collection (expired ones that
// were not swept yet included).
func (t *Tx) Count(eshop int, coll string) int {
	v, err := t.tx.Get(counterKey(eshop, coll))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(v)
	return n
}

// Scan calls fn for each live record in list order until fn returns false.
// A read-write transaction walks a copy of the order, so fn may write.
func (t *Tx) Scan(eshop int, coll string, fn func(id string, doc []byte) bool) error {
	return t.scan(eshop, coll, t.Get, fn)
}

// ScanShared is Scan with the documents of GetShared: fn only reads them.
func (t *Tx) ScanShared(eshop int, coll string, fn func(id string, doc []byte) bool) error {
	return t.scan(eshop, coll, t.GetShared, fn)
}

func (t *Tx) scan(eshop int, coll string, get func(int, string, string) ([]byte, error), fn func(id string, doc []byte) bool) error {
	for _, id := range t.s.pos.all(collPrefix(eshop, coll), t.writable) {
		doc, err := get(eshop, coll, id)
		if errors.Is(err, sandbox.ErrNotFound) {
			continue // expired
		}
		if err != nil {
			return err
		}
		if !fn(id, doc) {
			return nil
		}
	}
	return nil
}

// Page returns the records of a collection that pass keep (nil keeps all)
// in list order: limit of them after skipping offset, plus the total
// number that passed.
func (t *Tx) Page(eshop int, coll string, offset, limit int, keep func(doc []byte) bool) (docs [][]byte, total int, err error) {
	if keep == nil {
		// Unfiltered: find the page by position, not by scanning.
		ids, n := t.s.pos.window(collPrefix(eshop, coll), max(0, offset), limit)
		for _, id := range ids {
			doc, err := t.Get(eshop, coll, id)
			if errors.Is(err, sandbox.ErrNotFound) {
				continue // expired since it was written
			}
			if err != nil {
				return nil, 0, err
			}
			docs = append(docs, doc)
		}
		return docs, n, nil
	}
	i := 0
	err = t.Scan(eshop, coll, func(_ string, doc []byte) bool {
		if keep != nil && !keep(doc) {
			return true
		}
		if i >= offset && len(docs) < limit {
			docs = append(docs, doc)
		}
		i++
		// Without a filter the total is known; stop once the page is full.
		return keep != nil || len(docs) < limit
	})
	if keep != nil {
		total = i
	}
	return docs, total, err
}

// Collections lists the collections that hold at least one key for an
// e-shop, for the control plane and reset.
func (t *Tx) Collections(eshop int) []string {
	prefix := "e:" + strconv.Itoa(eshop) + ":"
	t.s.mu.RLock()
	defer t.s.mu.RUnlock()
	var out []string
	for p := range t.s.colls {
		if len(p) > len(prefix) && p[:len(prefix)] == prefix {
			out = append(out, p[len(prefix):])
		}
	}
	return out
}

// Next returns the next value of a named sequence (1, 2, 3, ...), for
// ids and codes the sandbox assigns. Named sequences are independent of
// the collections' internal list-order counters, even when they share a
// name.
func (t *Tx) Next(eshop int, name string) (int64, error) {
	return t.next("s:" + strconv.Itoa(eshop) + ":" + name)
}

// SetSequence moves a named sequence so the next value is after v; the
// fixture loader uses it so new ids follow the seeded ones.
func (t *Tx) SetSequence(eshop int, name string, v int64) error {
	key := "s:" + strconv.Itoa(eshop) + ":" + name
	cur, _ := t.tx.Get(key)
	n, _ := strconv.ParseInt(cur, 10, 64)
	if v > n {
		_, _, err := t.tx.Set(key, strconv.FormatInt(v, 10), nil)
		return err
	}
	return nil
}

// NextAfter is Next for a sequence that continues numbers already in
// the stored records (seeded ones included): the first time it is asked
// in an e-shop, highest reads the largest number there, and the sequence
// starts after it; later calls only count on.
func (t *Tx) NextAfter(eshop int, name string, highest func() (int64, error)) (int64, error) {
	flag := "seq-init/" + strconv.Itoa(eshop) + "/" + name
	if _, ok := t.GetValue(flag); !ok {
		n, err := highest()
		if err != nil {
			return 0, err
		}
		if err := t.SetSequence(eshop, name, n); err != nil {
			return 0, err
		}
		if err := t.SetValue(flag, "1"); err != nil {
			return 0, err
		}
	}
	return t.Next(eshop, name)
}

func (t *Tx) next(key string) (int64, error) { return t.add(key, 1) }

func (t *Tx) add(key string, delta int64) (int64, error) {
	cur, err := t.tx.Get(key)
	if err != nil && !errors.Is(err, buntdb.ErrNotFound) {
		return 0, err
	}
	n, _ := strconv.ParseInt(cur, 10, 64)
	n += delta
	_, _, err = t.tx.Set(key, strconv.FormatInt(n, 10), nil)
	return n, err
}

// GetValue and SetValue keep small sandbox-wide values (flags, settings)
// outside the record collections.
func (t *Tx) GetValue(name string) (string, bool) {
	v, err := t.tx.Get("v:" + name)
	return v, err == nil
}

// SetValue stores a small named value.
func (t *Tx) SetValue(name, value string) error {
	_, _, err := t.tx.Set("v:"+name, value, nil)
	return err
}

// withMeta prepends the store's metadata fields to a JSON object.
func withMeta(doc []byte, seq int64, expiresAt time.Time) []byte {
	var b bytes.Buffer
	writeRecord(&b, bytes.TrimSpace(doc[1:]), seq, expiresAt)
	return b.Bytes()
}

// storedRecord is what put hands BuntDB for doc: the metadata first, then
// doc's own fields, built in one allocation (a record read from the store
// and written back is not copied to strip its old metadata first).
func storedRecord(doc []byte, seq int64, expiresAt time.Time) string {
	var b strings.Builder
	writeRecord(&b, ownFields(doc), seq, expiresAt)
	return b.String()
}

// recordWriter is a bytes.Buffer or a strings.Builder.
type recordWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
	Grow(n int)
}

// writeRecord writes {"_seq":N[,"_expiresAt":M][,fields]}, fields being
// the inside of a JSON object (after its opening brace, closing brace
// included).
func writeRecord(b recordWriter, fields []byte, seq int64, expiresAt time.Time) {
	b.Grow(len(fields) + 48)
	b.WriteString(seqPrefix)
	b.WriteString(strconv.FormatInt(seq, 10))
	if !expiresAt.IsZero() {
		b.WriteString(expPrefix)
		b.WriteString(strconv.FormatInt(expiresAt.Unix(), 10))
	}
	if len(fields) > 0 && fields[0] != '}' {
		b.WriteByte(',')
	}
	b.Write(fields)
}

// ownFields is the inside of the JSON object doc (after its opening
// brace) without the store's metadata fields: a part of doc itself unless
// the metadata lies elsewhere than at the front.
func ownFields(doc []byte) []byte {
	rest := doc[1:]
	if m, ok := frontMeta(doc); ok {
		rest = doc[m.body:]
	}
	if mayHoldMeta(rest) {
		rest = stripMeta(doc)[1:]
	}
	return bytes.TrimSpace(rest)
}

// stripMeta removes the store's own metadata fields from a document that
// is being written back, so they are not duplicated.
func stripMeta(doc []byte) []byte {
	if m, ok := frontMeta(doc); ok {
		doc = append([]byte{'{'}, doc[m.body:]...)
	}
	if !mayHoldMeta(doc) {
		return doc
	}
	for _, f := range []string{"_seq", "_expiresAt"} {
		if !gjson.GetBytes(doc, f).Exists() {
			continue
		}
		doc = removeTopField(doc, f)
	}
	return doc
}

// removeTopField drops one top-level field from a JSON object.
func removeTopField(doc []byte, field string) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return doc
	}
	delete(m, field)
	out, err := json.Marshal(m)
	if err != nil {
		return doc
	}
	return out
}

// ExpiresAt reads when a stored document expires (ok false for a record
// that never does), for owners of expiring records who keep the expiry
// when they write a record back.
func ExpiresAt(doc []byte) (at time.Time, ok bool) {
	sec, ok := expiryOf(doc)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

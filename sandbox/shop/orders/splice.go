package orders

import (
	"bytes"
	"errors"
	"sort"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// An order moves the stock of large records: a product is tens of
// kilobytes of texts, images and prices around the few numbers an order
// changes. Decoding and encoding the whole record for those numbers was
// most of an order's time, so the stock code splices the new values into
// the stored bytes instead: gjson finds where a value lies, the value is
// encoded alone, and the rest of the record is carried over byte for
// byte.

// splice is one edit of a JSON document: the bytes [at, at+n) become
// with.
type splice struct {
	at, n int
	with  []byte
}

// spliced applies non-overlapping edits to doc and returns the new
// document (doc itself is not changed). The result is never changed
// either (it goes to the store as it is, crud.Owned): it is built without
// first zeroing its tens of kilobytes.
func spliced(doc []byte, edits []splice) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	size := len(doc)
	for _, e := range edits {
		size += len(e.with) - e.n
	}
	var out strings.Builder
	out.Grow(size)
	last := 0
	for _, e := range edits {
		out.Write(doc[last:e.at])
		out.Write(e.with)
		last = e.at + e.n
	}
	out.Write(doc[last:])
	rec := out.String()
	return unsafe.Slice(unsafe.StringData(rec), len(rec))
}

// storedAs is the record the transaction now holds under id when it is
// the bytes rec just written (an index of rec then applies to it); ok is
// false when the store holds anything else.
func storedAs(tx *store.Tx, eshop int, coll, id string, rec []byte) ([]byte, bool) {
	stored, err := tx.GetShared(eshop, coll, id)
	return stored, err == nil && bytes.Equal(stored, rec)
}

// errNotLocated stops a splice whose place gjson could not tell; it
// means a record that is not the JSON object the store keeps.
var errNotLocated = errors.New("orders: a stored record could not be edited in place")

// located reports whether r (a gjson result read from doc) knows where
// it lies in doc: gjson's Index is checked against the bytes, since 0
// also means "unknown" to gjson.
func located(doc []byte, r gjson.Result) bool {
	return r.Exists() && r.Index >= 0 && r.Index+len(r.Raw) <= len(doc) && string(doc[r.Index:r.Index+len(r.Raw)]) == r.Raw
}

// empty reports whether a JSON object or array ({...} or [...]) has no
// members.
func empty(raw string) bool {
	return strings.TrimSpace(raw[1:len(raw)-1]) == ""
}

// edits collects the splices of one stored document. Places are gjson
// results read from the document itself (gjson.GetBytes, or Get, Array
// and ForEach on such a result), which carry their position.
type edits struct {
	doc  []byte
	list []splice
}

// root is the whole document as a place.
func (e *edits) root() gjson.Result { return gjson.Result{Type: gjson.JSON, Raw: string(e.doc)} }

// set sets key (a plain name) of the object obj to value, encoded: the
// old value is replaced, or the key is added at the end of the object.
func (e *edits) set(obj gjson.Result, key string, value any) error {
	if !located(e.doc, obj) || !obj.IsObject() {
		return errNotLocated
	}
	if old := obj.Get(key); old.Exists() {
		return e.replace(old, value)
	}
	enc, err := crud.Encode(value)
	if err != nil {
		return err
	}
	member := append([]byte(`"`+key+`":`), enc...)
	if !empty(obj.Raw) {
		member = append([]byte{','}, member...)
	}
	e.list = append(e.list, splice{at: obj.Index + len(obj.Raw) - 1, with: member}) // before the closing brace
	return nil
}

// replace replaces the value at r with value, encoded.
func (e *edits) replace(r gjson.Result, value any) error {
	if !located(e.doc, r) {
		return errNotLocated
	}
	enc, err := crud.Encode(value)
	if err != nil {
		return err
	}
	e.list = append(e.list, splice{at: r.Index, n: len(r.Raw), with: enc})
	return nil
}

// append appends values, encoded, to the array arr.
func (e *edits) append(arr gjson.Result, values []any) error {
	if !located(e.doc, arr) || !arr.IsArray() {
		return errNotLocated
	}
	var b []byte
	for i, v := range values {
		enc, err := crud.Encode(v)
		if err != nil {
			return err
		}
		if i > 0 || !empty(arr.Raw) {
			b = append(b, ',')
		}
		b = append(b, enc...)
	}
	e.list = append(e.list, splice{at: arr.Index + len(arr.Raw) - 1, with: b}) // before the closing bracket
	return nil
}

// result is the document with every edit applied.
func (e *edits) result() []byte { return spliced(e.doc, e.list) }

// rebasedFields moves the index of a document's top-level fields (top,
// read from old) to doc, which is old with the splices list applied (see
// rebasedResults); ok is false unless every edit lies inside a field.
func rebasedFields(old, doc []byte, top map[string]gjson.Result, list []splice) (map[string]gjson.Result, bool) {
	if len(list) == 0 {
		return nil, false
	}
	keys := make([]string, 0, len(top))
	rs := make([]gjson.Result, 0, len(top))
	for k, r := range top {
		keys = append(keys, k)
		rs = append(rs, r)
	}
	moved, ok := rebasedResults(old, doc, rs, list)
	if !ok {
		return nil, false
	}
	out := make(map[string]gjson.Result, len(top))
	for i, k := range keys {
		out[k] = moved[i]
	}
	return out, true
}

// rebasedResults moves values read from old (each with its place in old,
// none inside another) to doc, which is old with the splices list
// applied: a value that holds edits grows by them, the others move by the
// edits before them. ok is false when an edit does not lie inside one of
// the values (it would add or remove one), when a string value changed
// (its decoded text would be stale), or when doc is not old's length
// changed by the edits.
func rebasedResults(old, doc []byte, rs []gjson.Result, list []splice) ([]gjson.Result, bool) {
	grow := 0
	for _, e := range list {
		grow += len(e.with) - e.n
	}
	if len(doc) != len(old)+grow {
		return nil, false
	}
	type span struct{ a, b, grow, shift int }
	spans := make([]span, len(rs))
	for i, r := range rs {
		if !located(old, r) {
			return nil, false
		}
		spans[i] = span{a: r.Index, b: r.Index + len(r.Raw)}
	}
	for _, e := range list {
		inside := false
		for i := range spans {
			sp := &spans[i]
			switch {
			case e.at >= sp.a && e.at+e.n <= sp.b && (e.at > sp.a || e.n > 0) && (e.at < sp.b || e.n > 0):
				if inside {
					return nil, false
				}
				inside = true
				sp.grow += len(e.with) - e.n
			case e.at+e.n <= sp.a:
				sp.shift += len(e.with) - e.n
			}
		}
		if !inside {
			return nil, false
		}
	}
	text := sharedString(doc)
	out := make([]gjson.Result, len(rs))
	for i, r := range rs {
		sp := spans[i]
		a, b := sp.a+sp.shift, sp.b+sp.shift+sp.grow
		out[i] = gjson.Result{Type: r.Type, Raw: text[a:b], Index: a, Str: r.Str, Num: r.Num}
		if r.Type == gjson.String && out[i].Raw != r.Raw {
			return nil, false
		}
	}
	return out, true
}

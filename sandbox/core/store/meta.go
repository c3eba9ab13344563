package store

import (
	"bytes"
	"strconv"
)

// The store's metadata fields ("_seq", "_expiresAt") are written by
// withMeta, and only there, at the front of every record it stores:
// {"_seq":N,"_expiresAt":M,<the record's own fields>}. Reading them from
// the front costs a few bytes; looking them up with gjson costs a pass
// over the whole record when a field is absent (most records never
// expire), which for a record of tens of kilobytes read and written
// several times per request was a measurable part of a write. frontMeta
// reads them from the front; a document that does not start that way
// (one built by a caller, not read from the store) takes the full
// look-up.

const (
	seqPrefix = `{"_seq":`
	expPrefix = `,"_expiresAt":`
)

// meta is the store's metadata of a record as withMeta wrote it.
type meta struct {
	seq       int64
	expiresAt int64 // unix seconds on the sandbox clock
	expires   bool
	body      int // index of the record's first own field (or of its closing brace)
}

// frontMeta reads the metadata at the front of doc; ok is false when doc
// does not start the way withMeta writes.
func frontMeta[D string | []byte](doc D) (m meta, ok bool) {
	if !hasPrefix(doc, 0, seqPrefix) {
		return m, false
	}
	i := len(seqPrefix)
	if m.seq, i, ok = number(doc, i); !ok {
		return m, false
	}
	if hasPrefix(doc, i, expPrefix) {
		if m.expiresAt, i, ok = number(doc, i+len(expPrefix)); !ok {
			return m, false
		}
		m.expires = true
	}
	switch {
	case i < len(doc) && doc[i] == ',':
		m.body = i + 1
	case i < len(doc) && doc[i] == '}':
		m.body = i
	default:
		return m, false
	}
	return m, true
}

// hasPrefix reports whether doc[i:] starts with p (without copying doc,
// which may be a stored record of many kilobytes).
func hasPrefix[D string | []byte](doc D, i int, p string) bool {
	return len(doc)-i >= len(p) && string(doc[i:i+len(p)]) == p
}

// number reads an integer at doc[i:], returning it and the index after it.
func number[D string | []byte](doc D, i int) (int64, int, bool) {
	j := i
	if j < len(doc) && doc[j] == '-' {
		j++
	}
	for j < len(doc) && doc[j] >= '0' && doc[j] <= '9' {
		j++
	}
	n, err := strconv.ParseInt(string(doc[i:j]), 10, 64)
	return n, j, err == nil
}

// mayHoldMeta reports whether doc can hold a metadata field at all: keys
// are written literally by every writer of records (Go's encoder and the
// fixture files escape no ASCII letter), so a document in which neither
// name occurs holds neither field, and no pass over it is needed.
func mayHoldMeta(doc []byte) bool {
	return bytes.Contains(doc, []byte(`_seq"`)) || bytes.Contains(doc, []byte(`_expiresAt"`))
}

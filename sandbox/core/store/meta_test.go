package store

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/tidwall/gjson"
)

// TestFrontMeta reads the metadata withMeta writes from the front of a
// record, and refuses anything else, so callers fall back to a full
// look-up for documents the store did not write.
func TestFrontMeta(t *testing.T) {
	tests := []struct {
		doc  string
		ok   bool
		want meta
	}{
		{`{"_seq":12,"a":1}`, true, meta{seq: 12, body: 11}},
		{`{"_seq":12}`, true, meta{seq: 12, body: 10}},
		{`{"_seq":7,"_expiresAt":1767225600,"code":"x"}`, true, meta{seq: 7, expiresAt: 1767225600, expires: true, body: 34}},
		{`{"_seq":7,"_expiresAt":-5}`, true, meta{seq: 7, expiresAt: -5, expires: true, body: 25}},
		{`{"a":1,"_seq":3}`, false, meta{}},
		{`{ "_seq":3}`, false, meta{}},
		{`{"_seq":}`, false, meta{}},
		{`{"_seq":3`, false, meta{}},
		{`{"_seq":3 ,"a":1}`, false, meta{}},
		{`{"_seq":"3"}`, false, meta{}},
		{`{"_seq":3,"_expiresAt":"x"}`, false, meta{}},
		{``, false, meta{}},
	}
	for _, tc := range tests {
		got, ok := frontMeta(tc.doc)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("frontMeta(%s) = %+v, %v; want %+v, %v", tc.doc, got, ok, tc.want, tc.ok)
		}
		if gotB, okB := frontMeta([]byte(tc.doc)); gotB != got || okB != ok {
			t.Errorf("frontMeta of the bytes of %s differs from the string's", tc.doc)
		}
	}
}

// TestWithMetaReadsBack: whatever withMeta writes, the front reading
// finds, and it agrees with a full look-up.
func TestWithMetaReadsBack(t *testing.T) {
	exp := time.Unix(1767225600, 0)
	for _, body := range []string{`{}`, `{"a":1}`, `{ "b" : [1,2] }`, `{"text":"_seq inside a value"}`} {
		for _, at := range []time.Time{{}, exp} {
			doc := withMeta([]byte(body), 42, at)
			m, ok := frontMeta(doc)
			if !ok {
				t.Fatalf("withMeta(%s) = %s is not read from the front", body, doc)
			}
			if m.seq != gjson.GetBytes(doc, "_seq").Int() || m.expires != gjson.GetBytes(doc, "_expiresAt").Exists() ||
				m.expiresAt != gjson.GetBytes(doc, "_expiresAt").Int() {
				t.Errorf("%s: front %+v disagrees with gjson", doc, m)
			}
			if got, want := decode(t, stripMeta(doc)), decode(t, []byte(body)); !reflect.DeepEqual(got, want) {
				t.Errorf("stripMeta(%s) = %v, want %v", doc, got, want)
			}
		}
	}
}

// TestStripMeta removes the metadata wherever a caller's document holds
// it, and leaves other documents as they are.
func TestStripMeta(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{"_seq":3,"a":1}`, `{"a":1}`},
		{`{"_seq":3,"_expiresAt":9,"a":1}`, `{"a":1}`},
		{`{"_seq":3}`, `{}`},
		{`{"a":1,"_seq":3}`, `{"a":1}`},
		{`{"Z":1,"_expiresAt":9,"a":2}`, `{"Z":1,"a":2}`},
		{`{"a":"_seq and _expiresAt are words here"}`, `{"a":"_seq and _expiresAt are words here"}`},
		{`{"a":{"_seq":1}}`, `{"a":{"_seq":1}}`},
		{`{"name":"\u010cesk\u00fd"}`, `{"name":"\u010cesk\u00fd"}`},
	}
	for _, tc := range tests {
		got := stripMeta([]byte(tc.doc))
		if !reflect.DeepEqual(decode(t, got), decode(t, []byte(tc.want))) {
			t.Errorf("stripMeta(%s) = %s, want %s", tc.doc, got, tc.want)
		}
	}
	doc := []byte(`{"_seq":3,"a":1}`)
	stripMeta(doc)
	if string(doc) != `{"_seq":3,"a":1}` {
		t.Errorf("stripMeta changed its argument: %s", doc)
	}
}

// TestRecordWrittenBackAsRead: a record read with its
// metadata and written back keeps its list position and loses nothing.
func TestRecordWrittenBackAsRead(t *testing.T) {
	s := openMem(t, nil)
	put(t, s, 1, "things", "a", `{"n":1}`)
	put(t, s, 1, "things", "b", `{"n":2}`)
	err := s.Update(func(tx *Tx) error {
		doc, err := tx.Get(1, "things", "a")
		if err != nil {
			return err
		}
		_, err = tx.Put(1, "things", "a", doc)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		var ids []string
		_ = tx.Scan(1, "things", func(id string, doc []byte) bool {
			ids = append(ids, id+"="+string(doc))
			return true
		})
		if want := []string{`a={"_seq":1,"n":1}`, `b={"_seq":2,"n":2}`}; !reflect.DeepEqual(ids, want) {
			t.Errorf("after writing a back: %v, want %v", ids, want)
		}
		return nil
	})
}

func decode(t *testing.T, doc []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	return m
}

// TestStoredRecordIsWithMetaOfStripMeta: put's one-allocation form gives
// the bytes of the two steps it replaces, for records read back from the
// store and for callers' documents.
func TestStoredRecordIsWithMetaOfStripMeta(t *testing.T) {
	exp := time.Unix(1767225600, 0)
	for _, doc := range []string{`{}`, `{ }`, `{"a":1}`, `{ "a" : 1 }`, `{"_seq":4,"a":1}`, `{"_seq":4,"_expiresAt":5}`,
		`{"_seq":4,"_expiresAt":5,"b":[{"_seq":1}]}`, `{"a":1,"_seq":9}`, `{"x":"_seq\""}`} {
		for _, at := range []time.Time{{}, exp} {
			want := string(withMeta(stripMeta([]byte(doc)), 12, at))
			if got := storedRecord([]byte(doc), 12, at); got != want {
				t.Errorf("storedRecord(%s) = %s, want %s", doc, got, want)
			}
		}
	}
}

// TestOwnedRecord: a record handed over is kept as it is exactly when it
// is what storedRecord makes of it; anything else is stored as a copy in
// the stored form.
func TestOwnedRecord(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		seq  int64
		kept bool
	}{
		{"the stored form", `{"_seq":12,"a":1,"b":[2]}`, 12, true},
		{"another seq", `{"_seq":11,"a":1}`, 12, false},
		{"no metadata", `{"a":1}`, 12, false},
		{"an expiry", `{"_seq":12,"_expiresAt":99,"a":1}`, 12, false},
		{"metadata further on", `{"_seq":12,"a":1,"_seq":4}`, 12, false},
		{"a leading zero", `{"_seq":012,"a":1}`, 12, false},
		{"only metadata", `{"_seq":12}`, 12, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte(tt.doc)
			got, kept := ownedRecord(doc, tt.seq)
			if kept != tt.kept {
				t.Fatalf("kept = %v, want %v", kept, tt.kept)
			}
			if !kept {
				return
			}
			if want := storedRecord(doc, tt.seq, time.Time{}); got != want {
				t.Fatalf("kept %s, the stored form is %s", got, want)
			}
			if unsafe.StringData(got) != unsafe.SliceData(doc) {
				t.Fatal("the record was copied")
			}
		})
	}
}

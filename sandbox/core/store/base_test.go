package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// seedBoth seeds the same records into two stores: attached as a base
// layer in one, put record by record in the other. Every operation must
// then answer alike in both.
func seedBoth(t *testing.T, n int) (based, plain *Store) {
	t.Helper()
	based, plain = openMem(t, nil), openMem(t, nil)
	var ids []string
	var docs [][]byte
	for i := 1; i <= n; i++ {
		ids = append(ids, fmt.Sprintf("id%d", i))
		docs = append(docs, []byte(fmt.Sprintf(`{"name":"n%d","n":%d}`, i, i)))
	}
	if err := based.Update(func(tx *Tx) error { return tx.Attach(1, "things", ids, docs) }); err != nil {
		t.Fatal(err)
	}
	for i := range ids {
		put(t, plain, 1, "things", ids[i], string(docs[i]))
	}
	return based, plain
}

// listing is what a store shows of the collection: count, ids in list
// order with their names and _seq, and the second page of two.
func listing(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	_ = s.View(func(tx *Tx) error {
		fmt.Fprintf(&b, "count=%d;", tx.Count(1, "things"))
		_ = tx.Scan(1, "things", func(id string, doc []byte) bool {
			fmt.Fprintf(&b, "%s=%s/%d,", id, gjson.GetBytes(doc, "name"), gjson.GetBytes(doc, "_seq").Int())
			return true
		})
		docs, total, err := tx.Page(1, "things", 2, 2, nil)
		fmt.Fprintf(&b, ";page total=%d err=%v:", total, err)
		for _, d := range docs {
			b.WriteString(gjson.GetBytes(d, "name").String() + ",")
		}
		docs, total, _ = tx.Page(1, "things", 0, 10, func(doc []byte) bool { return gjson.GetBytes(doc, "n").Int()%2 == 1 })
		fmt.Fprintf(&b, ";odd total=%d:", total)
		for _, d := range docs {
			b.WriteString(gjson.GetBytes(d, "name").String() + ",")
		}
		return nil
	})
	return b.String()
}

func TestBaseLayerAnswersLikeStoredRecords(t *testing.T) {
	tests := []struct {
		name string
		ops  func(tx *Tx) error
	}{
		{"untouched", func(tx *Tx) error { return nil }},
		{"update a seeded record", func(tx *Tx) error {
			created, err := tx.Put(1, "things", "id2", []byte(`{"name":"changed","n":2}`))
			if err == nil && created {
				err = errors.New("updating a seeded record reported a creation")
			}
			return err
		}},
		{"delete a seeded record", func(tx *Tx) error { return tx.Delete(1, "things", "id3") }},
		{"update then delete", func(tx *Tx) error {
			if _, err := tx.Put(1, "things", "id1", []byte(`{"name":"x","n":1}`)); err != nil {
				return err
			}
			return tx.Delete(1, "things", "id1")
		}},
		{"delete then create again", func(tx *Tx) error {
			if err := tx.Delete(1, "things", "id4"); err != nil {
				return err
			}
			created, err := tx.Put(1, "things", "id4", []byte(`{"name":"again","n":4}`))
			if err == nil && !created {
				err = errors.New("re-creating a deleted record did not report a creation")
			}
			return err
		}},
		{"create new records", func(tx *Tx) error {
			for _, id := range []string{"new1", "new2"} {
				if _, err := tx.Put(1, "things", id, []byte(`{"name":"`+id+`","n":7}`)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"delete the whole collection", func(tx *Tx) error { return tx.DeleteCollection(1, "things") }},
	}
	for _, form := range []baseForm{asRead, packedAfter, attachedPacked} {
		for _, tc := range tests {
			t.Run(tc.name+", "+string(form), func(t *testing.T) { compareBaseAndStored(t, form, tc.ops) })
		}
	}
}

// baseForm is how the base layer holds its records in a test.
type baseForm string

const (
	asRead         baseForm = "as read"
	packedAfter    baseForm = "packed by Compact"
	attachedPacked baseForm = "attached packed" // PackRecords, then AttachPacked (a fixture folder's packs)
)

// compareBaseAndStored runs ops on a store with a base layer (packed, or
// as attached) and on one with the same records put one by one, and
// compares what both answer.
func compareBaseAndStored(t *testing.T, form baseForm, ops func(tx *Tx) error) {
	t.Helper()
	based, plain := seedBoth(t, 5)
	switch form {
	case attachedPacked:
		based = openMem(t, nil)
		var ids []string
		var docs [][]byte
		_ = plain.View(func(tx *Tx) error {
			return tx.Scan(1, "things", func(id string, doc []byte) bool {
				ids, docs = append(ids, id), append(docs, StripMeta(append([]byte(nil), doc...)))
				return true
			})
		})
		p, err := PackRecords(ids, docs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := based.Update(func(tx *Tx) error { return tx.AttachPacked(1, "things", p) }); err != nil {
			t.Fatal(err)
		}
		if b := based.baseColl(collPrefix(1, "things")); b == nil || b.pack == nil {
			t.Fatal("the base layer is not packed after AttachPacked")
		}
	case packedAfter:
		st, err := based.Compact(0)
		if err != nil || st.Collections != 1 || st.Records != 5 {
			t.Fatalf("Compact = %+v, %v; want one collection of 5 records packed", st, err)
		}
		if b := based.baseColl(collPrefix(1, "things")); b == nil || b.pack == nil {
			t.Fatal("the base layer is not packed after Compact")
		}
	}
	for _, s := range []*Store{based, plain} {
		if err := s.Update(ops); err != nil {
			t.Fatal(err)
		}
	}
	got, want := listing(t, based), listing(t, plain)
	if got != want {
		t.Fatalf("base layer:\n %s\nstored records:\n %s", got, want)
	}
	for _, id := range []string{"id1", "id2", "id3", "id4", "id5", "new1", "missing"} {
		var a, b []byte
		var ea, eb error
		_ = based.View(func(tx *Tx) error { a, ea = tx.Get(1, "things", id); return nil })
		_ = plain.View(func(tx *Tx) error { b, eb = tx.Get(1, "things", id); return nil })
		if string(a) != string(b) || !errors.Is(ea, eb) && !errors.Is(eb, ea) {
			t.Errorf("Get(%s): base layer %s %v, stored %s %v", id, a, ea, b, eb)
		}
	}
}

func TestBaseLayerRollsBack(t *testing.T) {
	based, _ := seedBoth(t, 3)
	before := listing(t, based)
	boom := errors.New("boom")
	err := based.Update(func(tx *Tx) error {
		if err := tx.Delete(1, "things", "id1"); err != nil {
			return err
		}
		if _, err := tx.Put(1, "things", "id2", []byte(`{"name":"changed"}`)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if after := listing(t, based); after != before {
		t.Fatalf("after a rolled-back write:\n %s\nwant\n %s", after, before)
	}
	// An attach that rolls back leaves no collection behind.
	s := openMem(t, nil)
	_ = s.Update(func(tx *Tx) error {
		if err := tx.Attach(1, "things", []string{"a"}, [][]byte{[]byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		return boom
	})
	_ = s.View(func(tx *Tx) error {
		if _, err := tx.Get(1, "things", "a"); !errors.Is(err, sandbox.ErrNotFound) {
			t.Errorf("record of a rolled-back attach: %v", err)
		}
		if ids, n := s.pos.window("e:1:things", 0, 10); n != 0 {
			t.Errorf("positions of a rolled-back attach: %v", ids)
		}
		return nil
	})
}

func TestAttachRefusals(t *testing.T) {
	file, err := Open(Options{Path: filepath.Join(t.TempDir(), "data.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	mem := openMem(t, nil)
	put(t, mem, 1, "full", "a", `{}`)
	tests := []struct {
		name string
		s    *Store
		coll string
		ids  []string
		want string
	}{
		{"data file", file, "things", []string{"a"}, "data file"},
		{"not empty", mem, "full", []string{"b"}, "not empty"},
		{"duplicate", mem, "things", []string{"a", "a"}, "duplicate"},
		{"bad id", mem, "things", []string{"a:b"}, "cannot store"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs := make([][]byte, len(tc.ids))
			for i := range docs {
				docs[i] = []byte(`{}`)
			}
			err := tc.s.Update(func(tx *Tx) error { return tx.Attach(1, tc.coll, tc.ids, docs) })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestResetDropsTheBaseLayer(t *testing.T) {
	based, _ := seedBoth(t, 3)
	if err := based.Reset(); err != nil {
		t.Fatal(err)
	}
	if got := listing(t, based); !strings.HasPrefix(got, "count=0;;") {
		t.Fatalf("after reset: %s", got)
	}
	// The same collection can be attached again.
	if err := based.Update(func(tx *Tx) error {
		return tx.Attach(1, "things", []string{"z"}, [][]byte{[]byte(`{"name":"z"}`)})
	}); err != nil {
		t.Fatal(err)
	}
}

// TestSmallSeededCollectionsKeepTheirRecords: a record of a small seeded
// collection is made with its metadata once and handed out shared by
// GetShared, while Get still hands out a copy its caller may change; a
// large collection keeps nothing, and a record written over is read from
// its write.
func TestSmallSeededCollectionsKeepTheirRecords(t *testing.T) {
	s, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	large := make([]string, maxKept+1)
	largeDocs := make([][]byte, maxKept+1)
	for i := range large {
		large[i] = "r" + strconv.Itoa(i)
		largeDocs[i] = []byte(`{"n":` + strconv.Itoa(i) + `}`)
	}
	err = s.Update(func(tx *Tx) error {
		if err := tx.Attach(1, "small", []string{"a", "b"}, [][]byte{[]byte(`{"x":1}`), []byte(`{"x":2}`)}); err != nil {
			return err
		}
		return tx.Attach(1, "large", large, largeDocs)
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		first, _ := tx.GetShared(1, "small", "b")
		again, _ := tx.GetShared(1, "small", "b")
		if string(first) != `{"_seq":2,"x":2}` || unsafe.SliceData(first) != unsafe.SliceData(again) {
			t.Errorf("kept record %s (%p), again %s (%p)", first, unsafe.SliceData(first), again, unsafe.SliceData(again))
		}
		cp, _ := tx.Get(1, "small", "b")
		cp[len(cp)-2] = '9'
		if after, _ := tx.GetShared(1, "small", "b"); string(after) != `{"_seq":2,"x":2}` {
			t.Errorf("a change of Get's copy reached the kept record: %s", after)
		}
		l1, _ := tx.GetShared(1, "large", "r5")
		l2, _ := tx.GetShared(1, "large", "r5")
		if string(l1) != `{"_seq":6,"n":5}` || unsafe.SliceData(l1) == unsafe.SliceData(l2) {
			t.Errorf("large collection: %s, shared %v", l1, unsafe.SliceData(l1) == unsafe.SliceData(l2))
		}
		return nil
	})
	if err := s.Update(func(tx *Tx) error { _, err := tx.Put(1, "small", "b", []byte(`{"x":3}`)); return err }); err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		if got, _ := tx.GetShared(1, "small", "b"); string(got) != `{"_seq":2,"x":3}` {
			t.Errorf("after a write: %s", got)
		}
		return nil
	})
}

package changelog

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

func TestRecordAndPage(t *testing.T) {
	t0 := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	clock := sandbox.NewFrozenClock(t0)
	st, err := store.Open(store.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Update(func(tx *store.Tx) error {
		for _, doc := range []string{
			`{"guid":"a","creationTime":"2025-01-01T10:00:00+0100","changeTime":"2025-02-01T10:00:00+0100"}`,
			`{"guid":"b","creationTime":"2025-01-15T10:00:00+0100","changeTime":"2025-01-15T10:00:00+0100"}`,
			`{"guid":"c"}`,
		} {
			id := doc[9:10]
			if _, err := tx.Put(7, "things", id, []byte(doc)); err != nil {
				return err
			}
		}
		// The first change recorded writes the seeded history first; a
		// second one does not write it again.
		if err := Record(tx, 7, "things", "b", Delete); err != nil {
			return err
		}
		return backfillOnce(tx, 7, "things")
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    Query
		want string
	}{
		{Query{Limit: 10}, "a:add b:add a:edit b:delete"},
		{Query{Limit: 2, Offset: 1}, "b:add a:edit"},
		{Query{Limit: 10, Type: Add}, "a:add b:add"},
		{Query{Limit: 10, From: time.Date(2025, 1, 20, 0, 0, 0, 0, time.UTC)}, "a:edit b:delete"},
	}
	for _, tc := range tests {
		var got string
		var total int
		_ = st.View(func(tx *store.Tx) error {
			es, n, err := Page(tx, 7, "things", tc.q)
			if err != nil {
				t.Fatal(err)
			}
			total = n
			for i, e := range es {
				if i > 0 {
					got += " "
				}
				got += e.ID + ":" + e.Type
			}
			return nil
		})
		if got != tc.want {
			t.Errorf("%+v: %q (total %d), want %q", tc.q, got, total, tc.want)
		}
	}
}

// TestSeededHistoryIsDeferred: over a base layer the seeded history is
// written on first need, told by the records as seeded even when the
// write that needs it changed or deleted them, and read before that from
// the records themselves.
func TestSeededHistoryIsDeferred(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC))
	st, err := store.Open(store.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	seeded := [][]byte{
		[]byte(`{"guid":"a","creationTime":"2025-01-01T10:00:00+0100","changeTime":"2025-02-01T10:00:00+0100"}`),
		[]byte(`{"guid":"b","creationTime":"2025-01-15T10:00:00+0100","changeTime":"2025-01-15T10:00:00+0100"}`),
	}
	if err := st.Update(func(tx *store.Tx) error {
		if err := tx.Attach(7, "things", []string{"a", "b"}, seeded); err != nil {
			return err
		}
		return Seed(tx, 7, "things")
	}); err != nil {
		t.Fatal(err)
	}
	page := func() string {
		var got string
		_ = st.View(func(tx *store.Tx) error {
			es, n, err := Page(tx, 7, "things", Query{Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			got = fmt.Sprintf("%d:", n)
			for _, e := range es {
				got += " " + e.ID + ":" + e.Type + "@" + e.At[:10]
			}
			return nil
		})
		return got
	}
	const history = "a:add@2025-01-01 b:add@2025-01-15 a:edit@2025-02-01"
	if got := page(); got != "3: "+history {
		t.Fatalf("before any write: %q", got)
	}
	_ = st.View(func(tx *store.Tx) error {
		if tx.Count(7, Collection("things")) != 0 {
			t.Error("the seeded history was written at seeding")
		}
		return nil
	})
	// A write changes a and deletes b before recording: the history still
	// tells them as seeded.
	if err := st.Update(func(tx *store.Tx) error {
		if _, err := tx.Put(7, "things", "a", []byte(`{"guid":"a","creationTime":"2025-01-01T10:00:00+0100","changeTime":"2025-05-01T14:00:00+0200"}`)); err != nil {
			return err
		}
		if err := Record(tx, 7, "things", "a", Edit); err != nil {
			return err
		}
		if err := tx.Delete(7, "things", "b"); err != nil {
			return err
		}
		return Record(tx, 7, "things", "b", Delete)
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := page(), "5: "+history+" a:edit@2025-05-01 b:delete@2025-05-01"; got != want {
		t.Fatalf("after writes: %q, want %q", got, want)
	}
	// Ensure is a no-op once written.
	if err := Ensure(st, 7, "things"); err != nil {
		t.Fatal(err)
	}
	if got := page(); !strings.HasPrefix(got, "5:") {
		t.Fatalf("after Ensure: %q", got)
	}
}

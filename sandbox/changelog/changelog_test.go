package changelog

import (
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
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
		if err := Backfill(tx, 7, "things", "guid", []string{"creationTime"}, []string{"changeTime"}); err != nil {
			return err
		}
		// A second backfill does nothing: the log is not empty.
		if err := Backfill(tx, 7, "things", "guid", []string{"creationTime"}, []string{"changeTime"}); err != nil {
			return err
		}
		return Record(tx, 7, "things", "b", Delete)
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

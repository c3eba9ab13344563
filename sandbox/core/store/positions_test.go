package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

func pageIDs(t *testing.T, s *Store, eshop int, coll string, offset, limit int) ([]string, int) {
	t.Helper()
	var ids []string
	var total int
	_ = s.View(func(tx *Tx) error {
		docs, n, err := tx.Page(eshop, coll, offset, limit, nil)
		if err != nil {
			t.Fatal(err)
		}
		total = n
		for _, d := range docs {
			ids = append(ids, gjson.GetBytes(d, "id").String())
		}
		return nil
	})
	return ids, total
}

func TestPagesByPosition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	s, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		put(t, s, 1, "orders", fmt.Sprint(i), fmt.Sprintf(`{"id":"%d"}`, i))
	}
	_ = s.Update(func(tx *Tx) error { return tx.Delete(1, "orders", "3") })
	// A rolled-back insert and delete leave the order untouched.
	_ = s.Update(func(tx *Tx) error {
		_, _ = tx.Put(1, "orders", "new", []byte(`{"id":"new"}`))
		_ = tx.Delete(1, "orders", "5")
		return errors.New("roll back")
	})
	tests := []struct {
		offset, limit int
		want          string
	}{
		{0, 3, "[0 1 2]"},
		{3, 3, "[4 5 6]"},
		{6, 10, "[7 8 9]"},
		{9, 3, "[]"},
	}
	check := func(s *Store) {
		for _, tc := range tests {
			ids, total := pageIDs(t, s, 1, "orders", tc.offset, tc.limit)
			if got := fmt.Sprint(ids); (got != tc.want && !(tc.want == "[]" && ids == nil)) || total != 9 {
				t.Fatalf("page(%d,%d) = %s total %d, want %s total 9", tc.offset, tc.limit, got, total, tc.want)
			}
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(s) // rebuilt from the file
	put(t, s, 1, "orders", "10", `{"id":"10"}`)
	if ids, total := pageIDs(t, s, 1, "orders", 8, 5); fmt.Sprint(ids) != "[9 10]" || total != 10 {
		t.Fatalf("after append: %v %d", ids, total)
	}
}

// BenchmarkPage compares page 1 with page 1,000 (20 per page) of 100,000
// records; position lookup keeps them the same.
func BenchmarkPage(b *testing.B) {
	s, err := Open(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const n = 100_000
	for start := 0; start < n; start += 5000 {
		_ = s.Update(func(tx *Tx) error {
			for i := start; i < start+5000; i++ {
				if _, err := tx.Put(1, "orders", fmt.Sprintf("%010d", i), []byte(fmt.Sprintf(`{"id":"%d","price":"10.00"}`, i))); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for _, page := range []int{1, 1000, 5000} {
		b.Run(fmt.Sprintf("page=%d", page), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = s.View(func(tx *Tx) error {
					docs, _, err := tx.Page(1, "orders", (page-1)*20, 20, nil)
					if err != nil || len(docs) != 20 {
						b.Fatalf("%d docs, %v", len(docs), err)
					}
					return nil
				})
			}
		})
	}
}

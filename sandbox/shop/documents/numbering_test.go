package documents_test

import (
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
)

// TestNextCode: a seeded sequence continues by one, an unseeded one
// starts at <year>000001, and a code already in use is skipped.
func TestNextCode(t *testing.T) {
	cases := []struct {
		name   string
		seeded int64    // the sequence as the fixture loader left it (0: none)
		used   []string // codes stored before
		want   []string
	}{
		{"continues after the seeded codes", 2025500013, nil, []string{"2025500014", "2025500015"}},
		{"starts at the year", 0, nil, []string{"2026000001", "2026000002"}},
		{"skips codes in use", 2025500013, []string{"2025500014", "2025500015"}, []string{"2025500016", "2025500017"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := store.Open(store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var got []string
			err = st.Update(func(tx *store.Tx) error {
				if c.seeded != 0 {
					if err := tx.SetSequence(1, "proof-payments", c.seeded); err != nil {
						return err
					}
				}
				for _, u := range c.used {
					if _, err := tx.Put(1, "proof-payments", u, []byte(`{"code":"`+u+`"}`)); err != nil {
						return err
					}
				}
				for range c.want {
					code, err := documents.NextCode(tx, 1, "proof-payments", 2026)
					if err != nil {
						return err
					}
					got = append(got, code)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				if got[i] != c.want[i] {
					t.Fatalf("codes %v, want %v", got, c.want)
				}
			}
		})
	}
}

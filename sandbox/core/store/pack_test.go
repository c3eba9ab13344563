package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestCompactPacksAndReadsBack packs collections of the shapes a seeded
// set has (many similar records; a few very large ones, which the
// dictionary trainer cannot learn from) and reads every record back
// exactly, with its list order, after the packing.
func TestCompactPacksAndReadsBack(t *testing.T) {
	similar := func(i int) string {
		return fmt.Sprintf(`{"guid":"g-%05d","name":"Tent %d","description":"%s","price":"%d.00","variants":[{"code":"C%05d","stock":"3.000"}]}`,
			i, i, strings.Repeat("Lightweight three-season tent for two. ", 20), 100+i%50, i)
	}
	huge := func(i int) string {
		var b strings.Builder
		b.WriteString(fmt.Sprintf(`{"id":%d,"_supplies":[`, i))
		for j := range 20000 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"code":"C%05d","amount":"%d.000","location":"A-%02d"}`, j, (i*j)%97, j%60)
		}
		b.WriteString("]}")
		return b.String()
	}
	tests := []struct {
		name    string
		n       int
		doc     func(int) string
		maxPart float64 // packed size at most this part of the original
	}{
		{"many similar records", 600, similar, 0.25},
		{"a few huge records", 3, huge, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openMem(t, nil)
			ids := make([]string, tc.n)
			docs := make([][]byte, tc.n)
			for i := range ids {
				ids[i], docs[i] = fmt.Sprintf("r%d", i), []byte(tc.doc(i))
			}
			want := map[string]string{}
			if err := s.Update(func(tx *Tx) error { return tx.Attach(1, "things", ids, docs) }); err != nil {
				t.Fatal(err)
			}
			_ = s.View(func(tx *Tx) error {
				for _, id := range ids {
					d, _ := tx.Get(1, "things", id)
					want[id] = string(d)
				}
				return nil
			})
			st, err := s.Compact(0)
			if err != nil {
				t.Fatal(err)
			}
			if st.Records != tc.n || float64(st.After) > tc.maxPart*float64(st.Before) {
				t.Fatalf("Compact = %+v: want %d records in at most %.2f of %d bytes", st, tc.n, tc.maxPart, st.Before)
			}
			i := 0
			_ = s.View(func(tx *Tx) error {
				return tx.Scan(1, "things", func(id string, doc []byte) bool {
					if id != ids[i] || string(doc) != want[id] {
						t.Errorf("record %d after packing: %s %.80s, want %s %.80s", i, id, doc, ids[i], want[ids[i]])
					}
					i++
					return true
				})
			})
			if i != tc.n {
				t.Fatalf("Scan saw %d records, want %d", i, tc.n)
			}
			seeded := 0
			_ = s.View(func(tx *Tx) error {
				return tx.ScanSeeded(1, "things", func(id string, doc []byte) bool {
					if string(doc) != string(docs[seeded]) {
						t.Errorf("ScanSeeded %s: %.80s, want %.80s", id, doc, docs[seeded])
					}
					seeded++
					return true
				})
			})
			if seeded != tc.n {
				t.Fatalf("ScanSeeded saw %d records, want %d", seeded, tc.n)
			}
		})
	}
}

// BenchmarkGetSeeded reads seeded records as attached and packed: the
// cost packing adds to a read that misses the render caches.
func BenchmarkGetSeeded(b *testing.B) {
	for _, packed := range []bool{false, true} {
		b.Run(fmt.Sprintf("packed=%v", packed), func(b *testing.B) {
			s, err := Open(Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			const n = 2000
			ids := make([]string, n)
			docs := make([][]byte, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("r%d", i)
				docs[i] = []byte(fmt.Sprintf(`{"code":"%08d","status":{"id":%d,"name":"Vyřizuje se"},"items":[%s],"notes":"%s"}`,
					i, i%5, strings.Repeat(fmt.Sprintf(`{"code":"C%05d","amount":"1.000","price":{"withVat":"%d.00","vatRate":"21.00"}},`, i, i%300), 30)+`{}`,
					strings.Repeat("Deliver to the back door. ", 40)))
			}
			if err := s.Update(func(tx *Tx) error { return tx.Attach(1, "orders", ids, docs) }); err != nil {
				b.Fatal(err)
			}
			if packed {
				if _, err := s.Compact(0); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(docs[0])))
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				_ = s.View(func(tx *Tx) error {
					_, err := tx.Get(1, "orders", ids[i%n])
					return err
				})
				i++
			}
		})
	}
}

// TestCompactBesideWrites packs a collection while another goroutine
// writes and reads its records: every write survives the swap, and every
// read sees either the seeded or the written record, never another.
func TestCompactBesideWrites(t *testing.T) {
	s := openMem(t, nil)
	const n = 400
	ids := make([]string, n)
	docs := make([][]byte, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%d", i)
		docs[i] = []byte(fmt.Sprintf(`{"n":%d,"text":"%s"}`, i, strings.Repeat("seeded record ", 30)))
	}
	if err := s.Update(func(tx *Tx) error { return tx.Attach(1, "things", ids, docs) }); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.Compact(0)
		done <- err
	}()
	written := map[string]string{}
	packing := true
	for i := 0; packing || i < n; i++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			packing = false
		default:
		}
		id := ids[(i*7)%n]
		if i%3 == 0 {
			doc := fmt.Sprintf(`{"n":%d,"written":%d}`, (i*7)%n, i)
			if err := s.Update(func(tx *Tx) error { _, err := tx.Put(1, "things", id, []byte(doc)); return err }); err != nil {
				t.Fatal(err)
			}
			written[id] = doc
			continue
		}
		_ = s.View(func(tx *Tx) error {
			got, err := tx.Get(1, "things", id)
			if err != nil {
				t.Errorf("Get %s during packing: %v", id, err)
				return nil
			}
			own := string(StripMeta(got))
			if want, ok := written[id]; ok && own != want || !ok && own != string(docs[(i*7)%n]) {
				t.Errorf("Get %s during packing: %.60s", id, own)
			}
			return nil
		})
	}
	if !s.HasPacked() {
		t.Fatal("the collection is not packed")
	}
	_ = s.View(func(tx *Tx) error {
		for i, id := range ids {
			got, err := tx.Get(1, "things", id)
			want, ok := written[id]
			if !ok {
				want = string(docs[i])
			}
			if err != nil || string(StripMeta(got)) != want {
				t.Errorf("after packing, %s = %.60s %v, want %.60s", id, StripMeta(got), err, want)
			}
		}
		return nil
	})
}

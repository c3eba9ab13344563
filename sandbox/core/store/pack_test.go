package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
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

// packedThings packs n records of the shape the base-layer tests use,
// every third holding "pending", marked for it when mark is set.
func packedThings(t *testing.T, n int, mark bool) (*Packed, []string, [][]byte) {
	t.Helper()
	var ids []string
	var docs [][]byte
	for i := 1; i <= n; i++ {
		state := "paid"
		if i%3 == 0 {
			state = "pending"
		}
		ids = append(ids, fmt.Sprintf("id%d", i))
		docs = append(docs, []byte(fmt.Sprintf(`{"name":"n%d","state":"%s","text":"%s"}`, i, state, strings.Repeat("same words again ", 10))))
	}
	var marks []string
	if mark {
		marks = []string{"pending", "nowhere"}
	}
	p, err := PackRecords(ids, docs, marks)
	if err != nil {
		t.Fatal(err)
	}
	return p, ids, docs
}

// TestAttachPackedReadsBackEveryRecord: records packed by PackRecords
// and attached as they are read back exactly, in their order, with and
// without a dictionary (a collection too small to train one).
func TestAttachPackedReadsBackEveryRecord(t *testing.T) {
	for _, n := range []int{5, 200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p, ids, docs := packedThings(t, n, false)
			if (p.Dict != nil) != (n >= 32) {
				t.Fatalf("%d records: dictionary of %d bytes", n, len(p.Dict))
			}
			s := openMem(t, nil)
			if err := s.Update(func(tx *Tx) error { return tx.AttachPacked(1, "things", p) }); err != nil {
				t.Fatal(err)
			}
			i := 0
			_ = s.View(func(tx *Tx) error {
				return tx.ScanSeeded(1, "things", func(id string, doc []byte) bool {
					if id != ids[i] || string(doc) != string(docs[i]) {
						t.Errorf("record %d: %s %s, want %s %s", i, id, doc, ids[i], docs[i])
					}
					i++
					return true
				})
			})
			if i != n {
				t.Fatalf("scanned %d records, want %d", i, n)
			}
		})
	}
}

// TestScanSeededContaining: the records holding a byte string are the
// same whether the collection is as read, packed without marks or packed
// with them; with marks only the marked records are decoded.
func TestScanSeededContaining(t *testing.T) {
	scan := func(s *Store, needle string) string {
		var b strings.Builder
		_ = s.View(func(tx *Tx) error {
			return tx.ScanSeededContaining(1, "things", needle, func(id string, doc []byte) bool {
				fmt.Fprintf(&b, "%s=%s,", id, doc[:20])
				return true
			})
		})
		return b.String()
	}
	stores := map[string]*Store{}
	for _, form := range []string{"as read", "packed", "packed and marked"} {
		p, ids, docs := packedThings(t, 60, form == "packed and marked")
		s := openMem(t, nil)
		err := s.Update(func(tx *Tx) error {
			if form == "as read" {
				return tx.Attach(1, "things", ids, docs)
			}
			return tx.AttachPacked(1, "things", p)
		})
		if err != nil {
			t.Fatal(err)
		}
		stores[form] = s
	}
	for _, needle := range []string{"pending", "nowhere", "paid"} {
		want := scan(stores["as read"], needle)
		if needle == "pending" && strings.Count(want, "=") != 20 {
			t.Fatalf("as read, %q: %s; want 20 records", needle, want)
		}
		for form, s := range stores {
			if got := scan(s, needle); got != want {
				t.Errorf("%s, %q:\n %s\nwant\n %s", form, needle, got, want)
			}
		}
	}
	// The marks are what is decoded: marks naming one record (as no
	// packer would write them) show that the others are not looked at.
	p, _, _ := packedThings(t, 60, true)
	p.Marks["pending"] = []int32{5}
	s := openMem(t, nil)
	if err := s.Update(func(tx *Tx) error { return tx.AttachPacked(1, "things", p) }); err != nil {
		t.Fatal(err)
	}
	if got := scan(s, "pending"); got != `id6={"name":"n6","state",` {
		t.Fatalf("marked scan visited %s", got)
	}
}

// TestAttachPackedRefusals: frames that are not the collection's (another
// dictionary, no frame at all), marks that are not positions in order and
// mismatched lengths are refused before anything is attached.
func TestAttachPackedRefusals(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *Packed)
		want   string
	}{
		{"a frame of no dictionary", func(p *Packed) { p.Dict = nil }, "not a frame of the collection's packing"},
		{"garbage for a frame", func(p *Packed) { p.Docs[3] = []byte(`{"name":"plain JSON"}`) }, "not a frame"},
		{"a frame packed without the dictionary", func(p *Packed) {
			enc, err := zstd.NewWriter(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer enc.Close()
			p.Docs[0] = enc.EncodeAll([]byte(`{"name":"n1"}`), nil)
		}, "not a frame"},
		{"marks out of range", func(p *Packed) { p.Marks["pending"] = []int32{2, 500} }, "not positions in order"},
		{"marks out of order", func(p *Packed) { p.Marks["pending"] = []int32{8, 2} }, "not positions in order"},
		{"fewer ids than records", func(p *Packed) { p.IDs = p.IDs[1:] }, "ids for"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _, _ := packedThings(t, 100, true)
			tc.change(p)
			s := openMem(t, nil)
			err := s.Update(func(tx *Tx) error { return tx.AttachPacked(1, "things", p) })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("AttachPacked = %v; want an error saying %q", err, tc.want)
			}
			_ = s.View(func(tx *Tx) error {
				if tx.HasBase(1, "things") || tx.Count(1, "things") != 0 {
					t.Fatal("a refused attach left records")
				}
				return nil
			})
		})
	}
}

package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

func openMem(t *testing.T, clock *sandbox.Clock) *Store {
	t.Helper()
	s, err := Open(Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func put(t *testing.T, s *Store, eshop int, coll, id, doc string) {
	t.Helper()
	if err := s.Update(func(tx *Tx) error { _, err := tx.Put(eshop, coll, id, []byte(doc)); return err }); err != nil {
		t.Fatal(err)
	}
}

func TestPutGetIsolatedPerEshop(t *testing.T) {
	s := openMem(t, nil)
	put(t, s, 1, "products", "a", `{"name":"one"}`)
	put(t, s, 2, "products", "a", `{"name":"two"}`)
	tests := []struct {
		eshop int
		id    string
		want  string
		err   error
	}{
		{1, "a", "one", nil},
		{2, "a", "two", nil},
		{3, "a", "", sandbox.ErrNotFound},
		{1, "b", "", sandbox.ErrNotFound},
		{1, "a:b", "", sandbox.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/%s", tc.eshop, tc.id), func(t *testing.T) {
			_ = s.View(func(tx *Tx) error {
				doc, err := tx.Get(tc.eshop, "products", tc.id)
				if !errors.Is(err, tc.err) {
					t.Fatalf("err = %v, want %v", err, tc.err)
				}
				if got := gjson.GetBytes(doc, "name").String(); got != tc.want {
					t.Fatalf("name = %q, want %q", got, tc.want)
				}
				return nil
			})
		})
	}
}

func TestOrderCountAndPaging(t *testing.T) {
	s := openMem(t, nil)
	for i := 0; i < 25; i++ {
		put(t, s, 1, "orders", fmt.Sprintf("o%02d", 24-i), fmt.Sprintf(`{"n":%d}`, i))
	}
	// Replacing keeps the position and the count.
	put(t, s, 1, "orders", "o24", `{"n":0,"changed":true}`)
	_ = s.View(func(tx *Tx) error {
		if n := tx.Count(1, "orders"); n != 25 {
			t.Fatalf("count = %d", n)
		}
		docs, total, err := tx.Page(1, "orders", 20, 10, nil)
		if err != nil || total != 25 || len(docs) != 5 {
			t.Fatalf("page: %d docs total %d err %v", len(docs), total, err)
		}
		if n := gjson.GetBytes(docs[0], "n").Int(); n != 20 {
			t.Fatalf("first of page 3 has n=%d, want 20 (insertion order)", n)
		}
		odd := func(doc []byte) bool { return gjson.GetBytes(doc, "n").Int()%2 == 1 }
		docs, total, _ = tx.Page(1, "orders", 0, 5, odd)
		if total != 12 || len(docs) != 5 || gjson.GetBytes(docs[0], "n").Int() != 1 {
			t.Fatalf("filtered page: %d docs total %d", len(docs), total)
		}
		return nil
	})
	if err := s.Update(func(tx *Tx) error { return tx.Delete(1, "orders", "o00") }); err != nil {
		t.Fatal(err)
	}
	_ = s.View(func(tx *Tx) error {
		if n := tx.Count(1, "orders"); n != 24 {
			t.Fatalf("count after delete = %d", n)
		}
		return nil
	})
}

func TestExpiryFollowsClock(t *testing.T) {
	clock := sandbox.NewFrozenClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := openMem(t, clock)
	if err := s.Update(func(tx *Tx) error {
		_, err := tx.PutExpiring(1, "codes", "c1", []byte(`{}`), clock.Now().Add(5*time.Minute))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	check := func(want bool) {
		t.Helper()
		_ = s.View(func(tx *Tx) error {
			if got := tx.Exists(1, "codes", "c1"); got != want {
				t.Fatalf("exists = %v, want %v at %v", got, want, clock.Now())
			}
			return nil
		})
	}
	check(true)
	clock.Advance(4 * time.Minute)
	check(true)
	clock.Advance(time.Minute)
	check(false)
}

func TestEventsPublishedOnlyAfterCommit(t *testing.T) {
	var got []sandbox.Event
	s := openMem(t, nil)
	s.SetPublisher(sandbox.PublisherFunc(func(ev ...sandbox.Event) { got = append(got, ev...) }))
	_ = s.Update(func(tx *Tx) error {
		tx.Emit(sandbox.Event{EshopID: 1, Kind: "order:create", Instance: "1"})
		return errors.New("rolled back")
	})
	if len(got) != 0 {
		t.Fatalf("rolled-back events published: %v", got)
	}
	_ = s.Update(func(tx *Tx) error {
		if _, err := tx.Put(1, "orders", "1", []byte(`{}`)); err != nil {
			return err
		}
		tx.Emit(sandbox.Event{EshopID: 1, Kind: "order:create", Instance: "1"})
		return nil
	})
	if len(got) != 1 || got[0].Kind != "order:create" || got[0].Time.IsZero() {
		t.Fatalf("events = %v", got)
	}
}

func TestPersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(Options{Path: path, Sync: SyncAlways})
	if err != nil {
		t.Fatal(err)
	}
	put(t, s, 7, "customers", "g1", `{"email":"a@example.com"}`)
	put(t, s, 7, "customers", "g2", `{"email":"b@example.com"}`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_ = s.View(func(tx *Tx) error {
		docs, total, _ := tx.Page(7, "customers", 0, 10, nil)
		if total != 2 || len(docs) != 2 || gjson.GetBytes(docs[1], "email").String() != "b@example.com" {
			t.Fatalf("after reopen: %d docs total %d", len(docs), total)
		}
		return nil
	})
}

func TestConcurrentWritersKeepCounts(t *testing.T) {
	s := openMem(t, nil)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				_ = s.Update(func(tx *Tx) error {
					n, err := tx.Next(1, "order-code")
					if err != nil {
						return err
					}
					_, err = tx.Put(1, "orders", fmt.Sprint(n), []byte(`{}`))
					return err
				})
			}
		}(w)
	}
	wg.Wait()
	_ = s.View(func(tx *Tx) error {
		if n := tx.Count(1, "orders"); n != 400 {
			t.Fatalf("count = %d, want 400", n)
		}
		return nil
	})
}

func TestResetEmptiesEverything(t *testing.T) {
	s := openMem(t, nil)
	put(t, s, 1, "products", "a", `{}`)
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	put(t, s, 1, "products", "b", `{}`)
	_ = s.View(func(tx *Tx) error {
		if n := tx.Count(1, "products"); n != 1 {
			t.Fatalf("count after reset = %d", n)
		}
		return nil
	})
}

func TestNamedSequencesAreIndependentOfListOrder(t *testing.T) {
	s := openMem(t, nil)
	put(t, s, 1, "installs", "a", `{}`)
	put(t, s, 1, "installs", "b", `{}`)
	_ = s.Update(func(tx *Tx) error {
		if n, _ := tx.Next(1, "installs"); n != 1 {
			t.Fatalf("named sequence starts at %d, want 1", n)
		}
		if err := tx.SetSequence(1, "installs", 40); err != nil {
			return err
		}
		if n, _ := tx.Next(1, "installs"); n != 41 {
			t.Fatalf("after SetSequence(40): %d", n)
		}
		return nil
	})
	put(t, s, 1, "installs", "c", `{}`)
	_ = s.View(func(tx *Tx) error {
		docs, _, _ := tx.Page(1, "installs", 0, 10, nil)
		if len(docs) != 3 || gjson.GetBytes(docs[2], "_seq").Int() != 3 {
			t.Fatalf("list order disturbed: %d docs, last seq %d", len(docs), gjson.GetBytes(docs[2], "_seq").Int())
		}
		return nil
	})
}

// TestEventsPublishedInCommitOrder: concurrent writers' events reach the
// publisher in the order the writes committed (each write takes the next
// number inside its transaction, so commit order is number order).
func TestEventsPublishedInCommitOrder(t *testing.T) {
	s, err := Open(Options{Clock: sandbox.NewClock()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var mu sync.Mutex
	var got []string
	s.SetPublisher(sandbox.PublisherFunc(func(ev ...sandbox.Event) {
		runtime.Gosched() // a publisher that takes a moment, as a real one does
		mu.Lock()
		got = append(got, ev[0].Instance)
		mu.Unlock()
	}))
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				err := s.Update(func(tx *Tx) error {
					n, err := tx.Next(1, "things")
					if err != nil {
						return err
					}
					tx.Emit(sandbox.Event{EshopID: 1, Kind: "thing:create", Instance: strconv.FormatInt(n, 10)})
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(got) != writers*each {
		t.Fatalf("%d events, want %d", len(got), writers*each)
	}
	for i := 1; i < len(got); i++ {
		a, _ := strconv.Atoi(got[i-1])
		b, _ := strconv.Atoi(got[i])
		if b != a+1 {
			t.Fatalf("event %d published after event %d: not commit order", b, a)
		}
	}
}

// TestResetBesideReaders: resets racing readers that scan collections
// (the jobs runner does, every second) finish; Reset once took its own
// lock before BuntDB's, which a scanning reader takes the other way round.
func TestResetBesideReaders(t *testing.T) {
	s, err := Open(Options{Clock: sandbox.NewClock()})
	if err != nil {
		t.Fatal(err)
	}
	seed := func() {
		_ = s.Update(func(tx *Tx) error {
			for i := 0; i < 20; i++ {
				if _, err := tx.Put(1, "things", strconv.Itoa(i), []byte(`{"n":1}`)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	seed()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for r := 0; r < 4; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 300; i++ {
					_ = s.View(func(tx *Tx) error {
						return tx.Scan(1, "things", func(string, []byte) bool { runtime.Gosched(); return true })
					})
				}
			}()
		}
		for i := 0; i < 100; i++ {
			if err := s.Reset(); err != nil {
				t.Error(err)
			}
			seed()
		}
		wg.Wait()
	}()
	select {
	case <-done:
		_ = s.Close()
	case <-time.After(30 * time.Second):
		t.Fatal("resets and scanning readers deadlocked") // (the store is left open: closing it would block too)
	}
}

// TestNextAfter: a sequence continuing stored numbers reads the highest
// once per e-shop, then counts on; an error leaves it unset.
func TestNextAfter(t *testing.T) {
	s := openMem(t, nil)
	reads := 0
	highest := func(n int64, err error) func() (int64, error) {
		return func() (int64, error) { reads++; return n, err }
	}
	for _, tc := range []struct {
		eshop   int
		highest func() (int64, error)
		want    int64
		err     bool
		reads   int
	}{
		{1, highest(0, errors.New("scan failed")), 0, true, 1},
		{1, highest(37, nil), 38, false, 2},
		{1, highest(99, nil), 39, false, 2}, // read once: 99 is never seen
		{2, highest(0, nil), 1, false, 3},   // another e-shop, its own
		{2, highest(5, nil), 2, false, 3},
	} {
		var got int64
		err := s.Update(func(tx *Tx) error {
			var err error
			got, err = tx.NextAfter(tc.eshop, "images", tc.highest)
			return err
		})
		if (err != nil) != tc.err || got != tc.want || reads != tc.reads {
			t.Fatalf("e-shop %d: %d, %v after %d reads; want %d, error %v, %d reads", tc.eshop, got, err, reads, tc.want, tc.err, tc.reads)
		}
	}
}

// TestSharedReadsKeepTheirValue: GetShared and ScanShared hand out the
// stored value itself; a later write (inside the same transaction and
// after it) stores a new value and leaves what was read unchanged. The
// list order Scan walks survives a reopen of a data file, without any
// index of BuntDB's.
func TestSharedReadsKeepTheirValue(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"c", "a", "b"} {
		put(t, s, 1, "stocks", id, `{"name":"`+id+`0"}`)
	}
	var shared []byte
	var scanned []string
	err = s.Update(func(tx *Tx) error {
		var err error
		if shared, err = tx.GetShared(1, "stocks", "a"); err != nil {
			return err
		}
		if err := tx.ScanShared(1, "stocks", func(id string, doc []byte) bool {
			scanned = append(scanned, string(doc))
			_, err = tx.Put(1, "stocks", id, []byte(`{"name":"`+id+`1"}`)) // a write may run inside the walk
			return err == nil
		}); err != nil {
			return err
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(shared, "name").String(); got != "a0" {
		t.Fatalf("shared read changed to %q after a write, want a0", got)
	}
	want := []string{"c0", "a0", "b0"}
	for i, doc := range scanned {
		if got := gjson.Get(doc, "name").String(); i >= len(want) || got != want[i] {
			t.Fatalf("scanned %v, want names %v in list order", scanned, want)
		}
	}
	s.Close()
	if s, err = Open(Options{Path: path}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var order []string
	_ = s.View(func(tx *Tx) error {
		return tx.Scan(1, "stocks", func(id string, doc []byte) bool {
			order = append(order, gjson.GetBytes(doc, "name").String())
			return true
		})
	})
	if fmt.Sprint(order) != "[c1 a1 b1]" {
		t.Fatalf("after reopen, Scan gave %v, want [c1 a1 b1]", order)
	}
}

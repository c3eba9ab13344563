// Package store is the sandbox's only door to BuntDB. It keeps one key
// space per e-shop (keys "e:<eshop>:<collection>:<id>"), JSON documents as
// values, the list order of each collection (positions), record counts, expiry that
// follows the sandbox clock, and the rule that events of a write are
// published only after the write commits. buntdb.ErrNotFound is translated
// here and nowhere else.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/buntdb"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Global is the pseudo e-shop id of sandbox-wide collections (e-shops,
// tokens that must be found before the e-shop is known, ...).
const Global = 0

// Sync policies for a data file, mapped onto BuntDB's.
const (
	SyncAlways      = "always"       // fsync after every write: nothing acknowledged is lost
	SyncEverySecond = "every-second" // BuntDB's default: at most a second of writes at risk
	SyncNever       = "never"        // leave it to the OS
)

// Options configure Open.
type Options struct {
	Path      string            // BuntDB file; "" or ":memory:" keeps everything in memory
	Sync      string            // one of the Sync* policies; "" means SyncEverySecond
	Clock     *sandbox.Clock    // time for expiry; nil means a wall clock
	Publisher sandbox.Publisher // receives committed events; may be nil
}

// Store wraps one BuntDB database.
type Store struct {
	db    *buntdb.DB
	clock *sandbox.Clock
	pub   sandbox.Publisher

	// commit serialises each write with the publishing of its events, so
	// events go out in commit order (the webhook dispatcher keeps that
	// order per receiver). BuntDB's own lock is released when a write
	// commits, before its events could be published.
	commit sync.Mutex
	// writers counts the writes waiting for commit (see Update).
	writers atomic.Int32

	mu    sync.RWMutex
	colls map[string]bool // collection prefixes that were ever written
	pos   *positions      // each collection's ids in list order

	// gen is the write generation: it grows inside every read-write
	// transaction, before it commits. BuntDB never runs a read
	// transaction alongside a write one, so a reader sees the data and
	// the generation of the same commit; render caches key on it.
	gen atomic.Uint64

	// reserved guards the registry's collections (see Reserve).
	reserved Reserved

	// watches count the writes of chosen collections (see Watch).
	watches watches

	persistent bool
	packing    atomic.Int32                         // packings in progress (see Packing)
	baseMu     sync.Mutex                           // serialises changes of base
	base       atomic.Pointer[map[string]*baseColl] // collection prefix -> seeded records; see Attach
}

// Generation is the write generation: equal values mean no read-write
// transaction ran in between, so an answer rendered from the data then
// is still the answer (unless its transaction was volatile, see
// Tx.Cacheable).
func (s *Store) Generation() uint64 { return s.gen.Load() }

// Open opens (or creates) the database and rebuilds the list order of
// each collection from the records' "_seq" fields.
func Open(opts Options) (*Store, error) {
	path := opts.Path
	if path == "" {
		path = ":memory:"
	}
	if path != ":memory:" {
		// Read the file first, read-only: BuntDB would cut a torn last
		// command off the file, and names other damage without a place.
		rep, err := Check(path)
		switch {
		case errors.Is(err, fs.ErrNotExist): // a new file
		case err != nil:
			return nil, fmt.Errorf("open data file %s: %w", path, err)
		case !rep.OK():
			return nil, &DamagedError{Report: rep}
		}
	}
	db, err := buntdb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open data file %s: %w", path, err)
	}
	var cfg buntdb.Config
	if err := db.ReadConfig(&cfg); err != nil {
		db.Close()
		return nil, err
	}
	switch opts.Sync {
	case "", SyncEverySecond:
		cfg.SyncPolicy = buntdb.EverySecond
	case SyncAlways:
		cfg.SyncPolicy = buntdb.Always
	case SyncNever:
		cfg.SyncPolicy = buntdb.Never
	default:
		db.Close()
		return nil, fmt.Errorf("unknown sync policy %q (want always, every-second or never)", opts.Sync)
	}
	if err := db.SetConfig(cfg); err != nil {
		db.Close()
		return nil, err
	}
	clock := opts.Clock
	if clock == nil {
		clock = sandbox.NewClock()
	}
	s := &Store{db: db, clock: clock, pub: opts.Publisher, colls: map[string]bool{}, pos: newPositions(),
		persistent: path != ":memory:"}
	if err := s.loadPositions(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Keys is the number of keys the database holds, records and the
// store's own counters alike: 0 for a new data file.
func (s *Store) Keys() int {
	n := 0
	_ = s.db.View(func(btx *buntdb.Tx) error {
		n, _ = btx.Len()
		return nil
	})
	return n
}

// Close flushes and closes the database file.
func (s *Store) Close() error { return s.db.Close() }

// Clock returns the clock the store judges expiry by.
func (s *Store) Clock() *sandbox.Clock { return s.clock }

// SetPublisher replaces the receiver of committed events.
func (s *Store) SetPublisher(p sandbox.Publisher) { s.pub = p }

// View runs fn in a read-only transaction.
func (s *Store) View(fn func(tx *Tx) error) error {
	return s.db.View(func(btx *buntdb.Tx) error {
		return fn(&Tx{s: s, tx: btx})
	})
}

// Update runs fn in a read-write transaction. BuntDB admits one writer at
// a time, which is what keeps concurrent writes consistent. Events emitted
// by fn are published after the commit, in commit order, and dropped on
// rollback. Publishing must not write to the store (bus hooks only queue).
//
// When another write waits, the caller gives up its core at once after
// the commit: the waiting writer, which the unlock made runnable on this
// core, runs now instead of after the caller's answer is rendered and
// sent (Go runs a goroutine it wakes only when the waker yields or another
// core is free). Under a load of writes on two cores that gap was a fifth
// of the time, with the next write ready and no core to run it.
func (s *Store) Update(fn func(tx *Tx) error) error {
	s.writers.Add(1)
	defer func() {
		if s.writers.Add(-1) > 0 {
			runtime.Gosched()
		}
	}()
	return s.update(fn)
}

func (s *Store) update(fn func(tx *Tx) error) error {
	s.commit.Lock()
	defer s.commit.Unlock()
	var events []sandbox.Event
	err := s.db.Update(func(btx *buntdb.Tx) error {
		tx := &Tx{s: s, tx: btx, writable: true}
		s.gen.Add(1)
		if err := fn(tx); err != nil {
			s.pos.undo(tx.posOps)
			for _, p := range tx.attached {
				s.setBase(p, nil)
				s.pos.drop(p)
			}
			return err
		}
		events = tx.events
		return nil
	})
	if err == nil && len(events) > 0 && s.pub != nil {
		s.pub.Publish(events...)
	}
	return err
}

// Reset deletes every key, leaving an empty database.
func (s *Store) Reset() error {
	// Locks in the one order every writer takes them: the commit lock,
	// BuntDB's write lock, then mu. Taking mu first would deadlock with a
	// reader inside a BuntDB read transaction that asks mu for an index.
	s.commit.Lock()
	defer s.commit.Unlock()
	return s.db.Update(func(btx *buntdb.Tx) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.gen.Add(1)
		s.touchedAll()
		if err := btx.DeleteAll(); err != nil {
			return err
		}
		s.colls = map[string]bool{}
		s.pos.reset()
		s.baseMu.Lock()
		s.base.Store(nil)
		s.baseMu.Unlock()
		return nil
	})
}

// loadPositions rebuilds every collection's list order from a data
// file's records. BuntDB keeps no index of its own for it: an index
// ordered by a JSON field parses two records per comparison, so each
// insert cost tens of record parses (a third of an order's write).
func (s *Store) loadPositions() error {
	type entry struct {
		id  string
		seq int64
	}
	lists := map[string][]entry{}
	err := s.db.View(func(btx *buntdb.Tx) error {
		return btx.AscendKeys("e:*", func(key, value string) bool {
			if i := strings.LastIndexByte(key, ':'); i > 0 {
				lists[key[:i]] = append(lists[key[:i]], entry{key[i+1:], seqOf(value)})
			}
			return true
		})
	})
	if err != nil {
		return err
	}
	for prefix, l := range lists {
		sort.Slice(l, func(i, j int) bool { return l[i].seq < l[j].seq })
		ids, seqs := make([]string, len(l)), make([]int64, len(l))
		for i, e := range l {
			ids[i], seqs[i] = e.id, e.seq
		}
		s.pos.set(prefix, ids, seqs)
		s.colls[prefix] = true
	}
	return nil
}

// known notes a collection prefix as written.
func (s *Store) known(prefix string) {
	s.mu.RLock()
	ok := s.colls[prefix]
	s.mu.RUnlock()
	if ok {
		return
	}
	s.mu.Lock()
	s.colls[prefix] = true
	s.mu.Unlock()
}

func collPrefix(eshop int, coll string) string {
	return "e:" + strconv.Itoa(eshop) + ":" + coll
}

func recordKey(eshop int, coll, id string) string {
	return collPrefix(eshop, coll) + ":" + id
}

func counterKey(eshop int, coll string) string {
	return "n:" + strconv.Itoa(eshop) + ":" + coll
}

func seqKey(eshop int, coll string) string {
	return "q:" + strconv.Itoa(eshop) + ":" + coll
}

// validID rejects identifiers that would break the key layout.
func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, ":*?\x00")
}

func expired(doc string, now int64) bool {
	at, ok := expiryOf(doc)
	return ok && at <= now
}

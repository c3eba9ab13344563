package store

import (
	"sync"
	"sync/atomic"
)

// Watch counts the writes of a few collections, in every e-shop: a cache
// of what those collections say keys on Generation instead of the
// store's write generation, which every write moves. The auth package's
// principal cache is one: under a load of orders the store's generation
// moved with every order, so every request read its token again in a read
// transaction, which waits for the write in progress and holds up the
// next one.
//
// A write moves the count inside its transaction, before it commits,
// like the store's generation: a reader that sees the old count read the
// collections before the write committed. A write that rolls back has
// moved it all the same (a cache only misses once more). Whatever changes
// every collection at once (Reset, seeded records attached or dropped)
// moves every Watch.
type Watch struct {
	n atomic.Uint64
}

// Generation is the count of writes of the watched collections.
func (w *Watch) Generation() uint64 { return w.n.Load() }

// watches are the store's watches by collection name.
type watches struct {
	mu  sync.Mutex
	all []*Watch
	by  atomic.Pointer[map[string][]*Watch]
}

// Watch returns a new Watch of the named collections.
func (s *Store) Watch(colls ...string) *Watch {
	w := &Watch{}
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	next := map[string][]*Watch{}
	if cur := s.watches.by.Load(); cur != nil {
		for k, v := range *cur {
			next[k] = v
		}
	}
	for _, c := range colls {
		next[c] = append(append([]*Watch(nil), next[c]...), w)
	}
	s.watches.all = append(s.watches.all, w)
	s.watches.by.Store(&next)
	return w
}

// touched moves the watches of a collection a write changes.
func (s *Store) touched(coll string) {
	if m := s.watches.by.Load(); m != nil {
		for _, w := range (*m)[coll] {
			w.n.Add(1)
		}
	}
}

// touchedAll moves every watch.
func (s *Store) touchedAll() {
	s.watches.mu.Lock()
	defer s.watches.mu.Unlock()
	for _, w := range s.watches.all {
		w.n.Add(1)
	}
}

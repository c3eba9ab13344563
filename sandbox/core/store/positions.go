package store

import (
	"sort"
	"sync"
)

// positions keeps, per collection, the record ids in list order, so an
// unfiltered page is found by position in O(page size) instead of by
// walking every earlier record: page 1,000 costs what page 1 costs.
// Writes change it inside the BuntDB write transaction (no View runs
// then) and undo their changes when the transaction rolls back.
type positions struct {
	mu    sync.RWMutex
	lists map[string]*posList // collection prefix -> ids in _seq order
}

type posList struct {
	ids  []string
	seqs []int64
}

// posOp records one change so a rolled-back transaction can undo it.
type posOp struct {
	prefix string
	insert bool
	id     string
	seq    int64
}

func newPositions() *positions { return &positions{lists: map[string]*posList{}} }

func (p *positions) list(prefix string) *posList {
	l := p.lists[prefix]
	if l == nil {
		l = &posList{}
		p.lists[prefix] = l
	}
	return l
}

// insert places id at its sequence number (almost always the end).
func (p *positions) insert(prefix, id string, seq int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list(prefix)
	i := sort.Search(len(l.seqs), func(i int) bool { return l.seqs[i] >= seq })
	if i < len(l.seqs) && l.seqs[i] == seq {
		l.ids[i] = id
		return
	}
	l.ids = append(l.ids, "")
	l.seqs = append(l.seqs, 0)
	copy(l.ids[i+1:], l.ids[i:])
	copy(l.seqs[i+1:], l.seqs[i:])
	l.ids[i], l.seqs[i] = id, seq
}

// remove drops the entry with the given sequence number.
func (p *positions) remove(prefix string, seq int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.lists[prefix]
	if l == nil {
		return
	}
	i := sort.Search(len(l.seqs), func(i int) bool { return l.seqs[i] >= seq })
	if i < len(l.seqs) && l.seqs[i] == seq {
		l.ids = append(l.ids[:i], l.ids[i+1:]...)
		l.seqs = append(l.seqs[:i], l.seqs[i+1:]...)
	}
}

// window returns the ids at [offset, offset+limit) and the length.
func (p *positions) window(prefix string, offset, limit int) ([]string, int) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	l := p.lists[prefix]
	if l == nil {
		return nil, 0
	}
	n := len(l.ids)
	if offset >= n || limit <= 0 {
		return nil, n
	}
	end := min(n, offset+limit)
	out := make([]string, end-offset)
	copy(out, l.ids[offset:end])
	return out, n
}

// set replaces a collection's list (ids in seqs order).
func (p *positions) set(prefix string, ids []string, seqs []int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lists[prefix] = &posList{ids: ids, seqs: seqs}
}

func (p *positions) drop(prefix string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.lists, prefix)
}

func (p *positions) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lists = map[string]*posList{}
}

// undo reverses recorded changes, newest first.
func (p *positions) undo(ops []posOp) {
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		if op.insert {
			p.remove(op.prefix, op.seq)
		} else {
			p.insert(op.prefix, op.id, op.seq)
		}
	}
}

// all returns a collection's ids in list order. A read-only transaction
// may walk the list itself (no write runs beside it, BuntDB's lock sees
// to that); a read-write one gets a copy, as it may change the list.
func (p *positions) all(prefix string, copied bool) []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	l := p.lists[prefix]
	if l == nil {
		return nil
	}
	if copied {
		return append([]string(nil), l.ids...)
	}
	return l.ids[:len(l.ids):len(l.ids)]
}

// rename replaces the ids of a collection's seeded entries (list-order
// numbers 1..len(ids)) with the same ids in other strings: the packed
// base layer's, so no entry keeps the buffer the records were read into.
func (p *positions) rename(prefix string, ids []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.lists[prefix]
	if l == nil {
		return
	}
	for i, seq := range l.seqs {
		if seq >= 1 && seq <= int64(len(ids)) && l.ids[i] == ids[seq-1] {
			l.ids[i] = ids[seq-1]
		}
	}
}

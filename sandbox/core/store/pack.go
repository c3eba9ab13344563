package store

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/compress/dict"
	"github.com/klauspost/compress/zstd"
	"github.com/tidwall/buntdb"
)

// A large seeded collection is held packed: each record compressed on its
// own with a dictionary trained on a sample of the collection, and
// decoded when it is read. Records of one collection share most of their
// bytes (keys, enumerations, descriptions of numbered editions), so a
// generated set shrinks about six to seven times, and reading one record
// costs tens of microseconds, behind the render caches of the areas that
// answer reads. Writes are untouched: a written record goes to BuntDB as
// before and hides its packed copy.

// DefaultPackAbove is the size of a seeded collection's records from
// which Compact packs it: the default fixtures stay as they are read.
const DefaultPackAbove = 4 << 20

// dictSamples is how many records the dictionary is trained on, spread
// over the collection.
const dictSamples = 400

// packing is what a packed collection's records need to be read.
type packing struct {
	dec  *zstd.Decoder
	dict []byte // nil: packed without one
}

// unpack decodes frame, appending the record to dst.
func (p *packing) unpack(dst, frame []byte) ([]byte, error) {
	return p.dec.DecodeAll(frame, dst)
}

// Packing marks (on) or unmarks a packing in progress; IsPacking reports
// whether one is (GET /_sandbox/health shows it).
func (s *Store) Packing(on bool) {
	if on {
		s.packing.Add(1)
	} else {
		s.packing.Add(-1)
	}
}

// IsPacking reports whether a packing is in progress.
func (s *Store) IsPacking() bool { return s.packing.Load() > 0 }

// CompactStats tells what Compact did.
type CompactStats struct {
	Collections int   // collections packed
	Records     int   // records packed
	Before      int64 // bytes of the records as read
	After       int64 // bytes of the packed records and their dictionaries
}

// Compact packs every seeded collection whose records take at least
// minBytes (see DefaultPackAbove). It runs beside requests: the packing is
// done outside any transaction, and each collection's packed form
// replaces its base layer inside a write transaction, so a reader sees
// the one or the other, with the same records. The base layer then holds
// no reference to the memory the records were read into, which the
// garbage collector can take back.
func (s *Store) Compact(minBytes int64) (CompactStats, error) {
	var st CompactStats
	m := s.base.Load()
	if m == nil {
		return st, nil
	}
	prefixes := make([]string, 0, len(*m))
	for p, b := range *m {
		if b.pack == nil && b.size() >= minBytes {
			prefixes = append(prefixes, p)
		}
	}
	sort.Strings(prefixes)
	for _, prefix := range prefixes {
		old := s.baseColl(prefix)
		if old == nil || old.pack != nil {
			continue
		}
		packed, err := packColl(old)
		if err != nil {
			return st, fmt.Errorf("store: pack %s: %w", prefix, err)
		}
		swapped := false
		s.commit.Lock()
		err = s.db.Update(func(*buntdb.Tx) error {
			if s.baseColl(prefix) != old { // reset or replaced meanwhile
				return nil
			}
			s.setBase(prefix, packed)
			s.pos.rename(prefix, packed.ids)
			swapped = true
			return nil
		})
		s.commit.Unlock()
		if err != nil {
			return st, err
		}
		if swapped {
			st.Collections++
			st.Records += len(packed.ids)
			st.Before += old.size()
			st.After += packed.size()
		}
	}
	return st, nil
}

// Packed is a collection's records in packed form, as a packed base
// layer holds them: a zstd dictionary (nil when the collection was too
// small to train one) and one zstd frame per record, which decodes with
// that dictionary to the record as Attach takes it. A fixture folder
// keeps it on disk beside the files it was made from, so that a start
// attaches it without reading or packing the records again (see
// seed.WritePacks and Tx.AttachPacked).
type Packed struct {
	Dict []byte
	IDs  []string
	Docs [][]byte
	// Marks lists, for each byte string the records were searched for
	// when packed, the positions (from 0, ascending) of the records that
	// contain it, so that ScanSeededContaining decodes only those.
	Marks map[string][]int32
}

// PackRecords packs ids/docs (as Attach takes them): a dictionary trained
// on a sample, and each record compressed with it, in parallel. The ids
// are copied. The records are searched for each of marks (see
// Packed.Marks).
func PackRecords(ids []string, docs [][]byte, marks []string) (*Packed, error) {
	b, err := packColl(&baseColl{ids: ids, docs: docs})
	if err != nil {
		return nil, err
	}
	p := &Packed{Dict: b.pack.dict, IDs: b.ids, Docs: b.docs}
	for _, m := range marks {
		if p.Marks == nil {
			p.Marks = map[string][]int32{}
		}
		at := []int32{}
		for i, d := range docs {
			if bytes.Contains(d, []byte(m)) {
				at = append(at, int32(i))
			}
		}
		p.Marks[m] = at
	}
	return p, nil
}

// AttachPacked is Attach for records packed by PackRecords, which stay
// where they are (p must not change afterwards). Each frame is checked
// to be a frame of p's dictionary; its record is decoded when it is read.
func (t *Tx) AttachPacked(eshop int, coll string, p *Packed) error {
	if len(p.IDs) != len(p.Docs) {
		return fmt.Errorf("store: attach %s: %d ids for %d records", coll, len(p.IDs), len(p.Docs))
	}
	dec, err := newDecoder(p.Dict)
	if err != nil {
		return fmt.Errorf("store: attach %s: %w", coll, err)
	}
	want := uint32(0)
	if p.Dict != nil {
		want = packDictID
	}
	var h zstd.Header
	for i, f := range p.Docs {
		if err := h.Decode(f); err != nil || h.DictionaryID != want || h.Skippable {
			return fmt.Errorf("store: attach %s: record %q is not a frame of the collection's packing", coll, p.IDs[i])
		}
	}
	for m, at := range p.Marks {
		for i, v := range at {
			if v < 0 || int(v) >= len(p.IDs) || (i > 0 && v <= at[i-1]) {
				return fmt.Errorf("store: attach %s: the records marked %q are not positions in order", coll, m)
			}
		}
	}
	return t.attach(eshop, coll, &baseColl{ids: p.IDs, docs: p.Docs, pack: &packing{dec: dec, dict: p.Dict}, dict: len(p.Dict), marks: p.Marks})
}

// packDictID is the id of every trained dictionary: the frames are read
// by nothing but the sandbox, and the same records pack to the same bytes.
const packDictID = 1 << 16

func newDecoder(d []byte) (*zstd.Decoder, error) {
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)), zstd.IgnoreChecksum(true)}
	if d != nil {
		opts = append(opts, zstd.WithDecoderDicts(d))
	}
	return zstd.NewReader(nil, opts...)
}

// packColl builds the packed copy of a base collection: ids copied out of
// the buffer they were read from, a dictionary trained on a sample, and
// each record compressed with it, in parallel.
func packColl(b *baseColl) (*baseColl, error) {
	n := len(b.docs)
	if n == 0 {
		return nil, errors.New("no records")
	}
	d := trainDict(b.docs)
	encOpts := []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderCRC(false),
		zstd.WithZeroFrames(true), zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0))}
	if d != nil {
		encOpts = append(encOpts, zstd.WithEncoderDict(d))
	}
	enc, err := zstd.NewWriter(nil, encOpts...)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	dec, err := newDecoder(d)
	if err != nil {
		return nil, err
	}
	out := &baseColl{ids: make([]string, n), docs: make([][]byte, n), index: make(map[string]int32, n),
		pack: &packing{dec: dec, dict: d}, dict: len(d)}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Frames are cut from shared chunks: a few large objects for
			// the collector instead of one per record.
			var chunk []byte
			for i := w; i < n; i += workers {
				doc := b.docs[i]
				if cap(chunk)-len(chunk) < len(doc)/2+64 {
					chunk = make([]byte, 0, max(1<<20, len(doc)+64))
				}
				start := len(chunk)
				chunk = enc.EncodeAll(doc, chunk)
				out.docs[i] = chunk[start:len(chunk):len(chunk)]
				out.ids[i] = strings.Clone(b.ids[i])
			}
		}()
	}
	wg.Wait()
	for i, id := range out.ids {
		out.index[id] = int32(i)
	}
	return out, nil
}

// trainDict builds a dictionary from a sample of docs, or returns nil
// when there are too few records to learn from (a collection of a few
// large records packs well enough without one).
func trainDict(docs [][]byte) (d []byte) {
	const minRecords, maxSample = 32, 64 << 10
	if len(docs) < minRecords {
		return nil
	}
	step := max(1, len(docs)/dictSamples)
	samples := make([][]byte, 0, len(docs)/step+1)
	for i := 0; i < len(docs); i += step {
		samples = append(samples, docs[i][:min(len(docs[i]), maxSample)])
	}
	// The trainer has failed on unusual input with a panic of its own;
	// a dictionary is an optimisation, so that means packing without.
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	d, err := dict.BuildZstdDict(samples, dict.Options{MaxDictSize: 112 << 10, HashBytes: 6, ZstdDictID: packDictID, ZstdLevel: zstd.SpeedFastest})
	if err != nil {
		return nil
	}
	return d
}

// size is the bytes the collection's records take as held.
func (b *baseColl) size() int64 {
	n := int64(b.dict)
	for _, d := range b.docs {
		n += int64(len(d))
	}
	return n
}

// HasPacked reports whether any seeded collection is held packed.
func (s *Store) HasPacked() bool {
	m := s.base.Load()
	if m == nil {
		return false
	}
	for _, b := range *m {
		if b.pack != nil {
			return true
		}
	}
	return false
}

// Package seed loads fixtures into the store: one folder per e-shop under
// eshops/, a JSON file per resource, validated against the reference
// schemas. Any broken file stops the sandbox with the file, the line and
// the reason.
package seed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Fixed file names inside an e-shop folder; every other *.json file names
// a registry resource.
const (
	FileEshop          = "eshop.json"
	FileCredentials    = "credentials.json"
	FileCustomerFields = "customer-fields.json"
	FileOrderStatuses  = "order-statuses.json"
)

// Error is a fixture problem with its place.
type Error struct {
	File   string
	Line   int
	Reason string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

// DefValidator compiles a reference entity schema by name.
type DefValidator interface {
	Def(name string) (*jsonschema.Schema, error)
}

// Loader seeds a store from a fixture tree.
type Loader struct {
	FS       fs.FS
	Name     string // shown in errors as the root of file paths
	Registry *registry.Registry
	Schemas  DefValidator
	// Groups tells which endpoint groups exist, to check token rights.
	Groups func(string) bool
	// Operation resolves an add-on endpoint as written in fixtures (an
	// operation name or "METHOD /path") to its operation name.
	Operation func(string) (string, bool)
	// Validate checks every record against its reference entity schema
	// (files a stamp vouches for excepted, see StampFile).
	Validate bool
	// MaxFileBytes bounds one fixture file (0: DefaultMaxFileBytes); a
	// larger file stops the load before it is read.
	MaxFileBytes int64
	// Trusted skips the JSON syntax check too: for the embedded set, which
	// the tests check (syntax, schemas, references) before it ships.
	Trusted bool
	// Packs attaches a collection's pack (see PackDir) in place of its
	// file where one was made from the file as the stamp vouches for it.
	// Only an in-memory store takes packs; Load ignores them otherwise.
	Packs bool
	// Marks names, per collection, the byte strings a start looks for
	// among its seeded records (store.Tx.ScanSeededContaining): a pack
	// notes which records hold them, so that the start decodes only those.
	Marks map[string][]string

	packs bool // this load takes packs

	noStamp bool   // Check: ignore an existing stamp
	checked *stamp // Check: the stamp being made
}

// DefaultMaxFileBytes bounds a fixture file when the Loader sets no
// bound: 4 GiB, above the files of the 100,000-product and
// 100,000-order set cmd/benchmark generates, below what would exhaust
// the machines that set is meant for.
const DefaultMaxFileBytes = 4 << 30

// Summary says what was loaded.
type Summary struct {
	Eshops  []int
	Records int
	// Packed lists the collection files whose pack was attached in their
	// place (see PackDir).
	Packed []string
}

// Load reads every e-shop folder and writes it into st in one transaction,
// so a broken fixture leaves nothing half-seeded.
func (l *Loader) Load(st *store.Store) (*Summary, error) {
	l.packs = l.Packs && !st.Persistent()
	defer func() { l.packs = false }()
	sum, loaded, err := l.readAll()
	if err != nil {
		return nil, err
	}
	// The seed loader is the one writer of the registry's collections
	// besides crud: fixtures are the records' first state, which no
	// change log or event tells (the logs tell it from the records, see
	// changelog.Seed). It takes the store's capability for them.
	rw := st.Reserve()
	err = st.Update(func(tx *store.Tx) error {
		for _, ef := range loaded {
			if _, err := ef.write(tx, rw); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The mark goes in a transaction of its own, after the seed: BuntDB
	// writes the keys of one transaction in no fixed order, and a data
	// file cut inside the seed must not hold the mark (a start refuses a
	// file with keys and no mark).
	if err := st.Update(func(tx *store.Tx) error { return tx.SetValue(SeededMark, "1") }); err != nil {
		return nil, err
	}
	return sum, nil
}

// readAll reads and checks every e-shop folder.
func (l *Loader) readAll() (*Summary, []*eshopFiles, error) {
	dirs, err := fs.ReadDir(l.FS, "eshops")
	if err != nil {
		return nil, nil, &Error{File: l.path("eshops"), Reason: "no eshops/ folder: " + err.Error()}
	}
	var st *stamp
	if !l.noStamp {
		st = l.readStamp()
	}
	sum := &Summary{}
	var loaded []*eshopFiles
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		id, err := strconv.Atoi(d.Name())
		if err != nil || id <= 0 {
			return nil, nil, &Error{File: l.path("eshops/" + d.Name()), Reason: "e-shop folders are named by the e-shop's numeric id"}
		}
		ef, err := l.read(id, st)
		if err != nil {
			return nil, nil, err
		}
		loaded = append(loaded, ef)
		sum.Eshops = append(sum.Eshops, id)
		for _, recs := range ef.collections {
			sum.Records += len(recs)
		}
		for _, name := range sortedKeys(ef.packed) {
			sum.Records += len(ef.packed[name].IDs)
			sum.Packed = append(sum.Packed, "eshops/"+strconv.Itoa(id)+"/"+name+".json")
		}
	}
	if len(loaded) == 0 {
		return nil, nil, &Error{File: l.path("eshops"), Reason: "no e-shop folder found"}
	}
	return sum, loaded, nil
}

// SeededMark is the value a completed seeding writes last: a data file
// with keys but without it was cut inside the seeding.
const SeededMark = "seeded"

// Seeded reports whether a store already holds seeded data (a persisted
// data file), in which case the sandbox does not seed again.
func Seeded(st *store.Store) bool {
	ok := false
	_ = st.View(func(tx *store.Tx) error { _, ok = tx.GetValue(SeededMark); return nil })
	return ok
}

// path names a fixture file for messages: p (slash-separated, inside the
// fixture set) under the set's folder, in the system's own form
// (C:\data\eshops\1001\eshop.json on Windows).
func (l *Loader) path(p string) string {
	if l.Name == "" {
		return filepath.FromSlash(p)
	}
	sep := string(filepath.Separator)
	return strings.TrimRight(l.Name, "/"+sep) + sep + filepath.FromSlash(p)
}

// record is one decoded fixture record with its line.
type record struct {
	id   string
	line int
	raw  []byte
	meta bool // raw had metadata fields, now stripped
}

type eshopFiles struct {
	meta        *eshop.Meta
	info        []byte
	singles     map[string][]byte // customer-fields, order-statuses
	collections map[string][]record
	packed      map[string]*store.Packed // collections attached from their packs
	creds       *credentials
}

func (l *Loader) read(id int, st *stamp) (*eshopFiles, error) {
	dir := "eshops/" + strconv.Itoa(id)
	entries, err := fs.ReadDir(l.FS, dir)
	if err != nil {
		return nil, &Error{File: l.path(dir), Reason: err.Error()}
	}
	ef := &eshopFiles{singles: map[string][]byte{}, collections: map[string][]record{}, packed: map[string]*store.Packed{}}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if !contains(names, FileEshop) {
		return nil, &Error{File: l.path(dir + "/" + FileEshop), Reason: "missing: every e-shop folder needs eshop.json"}
	}
	// Files are read and checked in parallel (a large set is mostly two
	// files, products and orders); the first problem in name order is
	// reported.
	results := make([]fileResult, len(names))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			results[i] = l.readFile(id, dir+"/"+name, name, st)
		}()
	}
	wg.Wait()
	for i, name := range names {
		r := results[i]
		if r.err != nil {
			return nil, r.err
		}
		switch {
		case name == FileEshop:
			ef.meta, ef.info = r.meta, r.raw
		case name == FileCredentials:
			ef.creds = r.creds
		case r.single:
			ef.singles[strings.TrimSuffix(name, ".json")] = r.raw
		case r.packed != nil:
			ef.packed[strings.TrimSuffix(name, ".json")] = r.packed
		default:
			l.noteChecked(dir+"/"+name, r.raw, r.recs)
			ef.collections[strings.TrimSuffix(name, ".json")] = r.recs
		}
	}
	if ef.meta == nil {
		return nil, &Error{File: l.path(dir + "/" + FileEshop), Reason: "missing"}
	}
	return ef, nil
}

// fileResult is what one fixture file gave.
type fileResult struct {
	raw    []byte
	meta   *eshop.Meta
	creds  *credentials
	single bool
	recs   []record
	packed *store.Packed
	err    error
}

func (l *Loader) readFile(id int, file, name string, st *stamp) (r fileResult) {
	fail := func(err error) fileResult { return fileResult{err: err} }
	info, err := fs.Stat(l.FS, file)
	if err != nil {
		return fail(&Error{File: l.path(file), Reason: err.Error()})
	}
	limit := l.MaxFileBytes
	if limit <= 0 {
		limit = DefaultMaxFileBytes
	}
	if info.Size() > limit {
		return fail(&Error{File: l.path(file), Line: 1, Reason: fmt.Sprintf("the file is %d bytes; a fixture file may hold at most %d", info.Size(), limit)})
	}
	if l.packs && st != nil {
		if _, known := l.Registry.Resource(strings.TrimSuffix(name, ".json")); known {
			if p := l.readPack(file, info, st); p != nil {
				return fileResult{packed: p}
			}
		}
	}
	raw, err := fs.ReadFile(l.FS, file)
	if err != nil {
		return fail(&Error{File: l.path(file), Reason: err.Error()})
	}
	r.raw = raw
	trusted := st.trusted(file, raw, info.ModTime())
	if trusted == nil && !l.Trusted {
		if err := checkSyntax(raw); err != nil {
			err.File = l.path(file)
			return fail(err)
		}
	}
	switch name {
	case FileEshop:
		if r.meta, err = l.readEshop(id, file, raw); err != nil {
			return fail(err)
		}
	case FileCredentials:
		if r.creds, err = l.readCredentials(id, file, raw); err != nil {
			return fail(err)
		}
	case FileCustomerFields, FileOrderStatuses:
		if !isObject(raw) {
			return fail(&Error{File: l.path(file), Line: 1, Reason: "must be a JSON object"})
		}
		r.single = true
	default:
		res := strings.TrimSuffix(name, ".json")
		row, ok := l.Registry.Resource(res)
		if !ok {
			return fail(&Error{File: l.path(file), Reason: fmt.Sprintf("unknown fixture file; known resources: %s", strings.Join(l.Registry.Names(), ", "))})
		}
		if r.recs, err = l.readRecords(file, raw, row, trusted); err != nil {
			return fail(err)
		}
	}
	return r
}

// describe renders a validation failure and returns the JSON pointer of
// the failing field.
func describe(err error) (string, string) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error(), ""
	}
	leaf := api.Deepest(ve)
	if f := api.PointerToField(leaf.InstanceLocation); f != "" {
		return "field " + f + ": " + leaf.Message, leaf.InstanceLocation
	}
	return leaf.Message, leaf.InstanceLocation
}

func (ef *eshopFiles) write(tx *store.Tx, rw *store.Reserved) (int, error) {
	id := ef.meta.ID
	n := 0
	if err := eshop.Put(tx, ef.meta); err != nil {
		return 0, err
	}
	if _, err := tx.Put(id, eshop.InfoCollection, "info", ef.info); err != nil {
		return 0, err
	}
	for name, raw := range ef.singles {
		if _, err := tx.Put(id, eshop.InfoCollection, name, raw); err != nil {
			return 0, err
		}
	}
	for _, name := range sortedKeys(ef.packed) {
		p := ef.packed[name]
		if err := tx.AttachPacked(id, name, p); err != nil {
			return 0, fmt.Errorf("seed %s: %w", name, err)
		}
		n += len(p.IDs)
		if err := tx.SetSequence(id, name, maxNumericID(p.IDs)); err != nil {
			return 0, err
		}
	}
	for _, name := range sortedKeys(ef.collections) {
		recs := ef.collections[name]
		ids := make([]string, len(recs))
		for i, rec := range recs {
			ids[i] = rec.id
		}
		maxID := maxNumericID(ids)
		if tx.Persistent() {
			for _, rec := range recs {
				if _, err := rw.Put(tx, id, name, rec.id, rec.raw); err != nil {
					return 0, fmt.Errorf("seed %s %s: %w", name, rec.id, err)
				}
			}
		} else if len(recs) > 0 {
			// In memory the records stay where they were read: a base
			// layer under the store (see store.Tx.Attach).
			docs := make([][]byte, len(recs))
			for i, rec := range recs {
				docs[i] = rec.raw
			}
			if err := tx.Attach(id, name, ids, docs); err != nil {
				return 0, fmt.Errorf("seed %s: %w", name, err)
			}
		}
		n += len(recs)
		if err := tx.SetSequence(id, name, maxID); err != nil {
			return 0, err
		}
	}
	if ef.creds != nil {
		if err := ef.creds.write(tx, id); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// maxNumericID is the largest of the ids that are numbers (0 when none
// is): the collection's sequence goes on from it.
func maxNumericID(ids []string) int64 {
	var m int64
	for _, id := range ids {
		if v, err := strconv.ParseInt(id, 10, 64); err == nil && v > m {
			m = v
		}
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkSyntax reports a JSON syntax error with its line.
func checkSyntax(raw []byte) *Error {
	if !utf8.Valid(raw) {
		off := invalidUTF8(raw)
		line, _ := api.LineCol(raw, off)
		return &Error{Line: line, Reason: fmt.Sprintf("invalid UTF-8 at byte %d: JSON text is UTF-8, and a record read otherwise would lose its text", off+1)}
	}
	if json.Valid(raw) {
		return nil // the common case, without building the value
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			return &Error{Line: lineAt(raw, int(dec.InputOffset())), Reason: "unexpected data after the JSON value"}
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset points just past the offending byte.
		line, _ := api.LineCol(raw, max(0, int(se.Offset)-1))
		return &Error{Line: line, Reason: "invalid JSON: " + se.Error()}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return &Error{Line: lineAt(raw, int(te.Offset)), Reason: "invalid JSON: " + te.Error()}
	}
	return &Error{Line: lineAt(raw, len(raw)), Reason: "invalid JSON: " + err.Error()}
}

// lineCounter gives lineAt for growing offsets in one pass over the file
// (lineAt counts from the start each time: quadratic over a large file).
type lineCounter struct {
	raw  []byte
	off  int // newlines before off are counted in line
	line int
}

// at is lineAt(raw, off) for an off not below the previous one.
func (c *lineCounter) at(off int) int {
	for off < len(c.raw) && strings.IndexByte(" \t\r\n,:", c.raw[off]) >= 0 {
		off++
	}
	if off < c.off {
		return lineAt(c.raw, off)
	}
	c.line += bytes.Count(c.raw[c.off:off], []byte("\n"))
	c.off = off
	return c.line
}

// lineAt is the line of the first non-space, non-comma byte at or after off.
func lineAt(raw []byte, off int) int {
	for off < len(raw) && strings.IndexByte(" \t\r\n,:", raw[off]) >= 0 {
		off++
	}
	line, _ := api.LineCol(raw, off)
	return line
}

// invalidUTF8 is the offset of the first byte that is not valid UTF-8.
func invalidUTF8(raw []byte) int {
	for off := 0; off < len(raw); {
		r, size := utf8.DecodeRune(raw[off:])
		if r == utf8.RuneError && size <= 1 {
			return off
		}
		off += size
	}
	return len(raw)
}

func isObject(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

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
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
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
	// Validate checks every record against its reference entity schema.
	Validate bool
}

// Summary says what was loaded.
type Summary struct {
	Eshops  []int
	Records int
}

// Load reads every e-shop folder and writes it into st in one transaction,
// so a broken fixture leaves nothing half-seeded.
func (l *Loader) Load(st *store.Store) (*Summary, error) {
	dirs, err := fs.ReadDir(l.FS, "eshops")
	if err != nil {
		return nil, &Error{File: l.path("eshops"), Reason: "no eshops/ folder: " + err.Error()}
	}
	sum := &Summary{}
	var loaded []*eshopFiles
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		id, err := strconv.Atoi(d.Name())
		if err != nil || id <= 0 {
			return nil, &Error{File: l.path("eshops/" + d.Name()), Reason: "e-shop folders are named by the e-shop's numeric id"}
		}
		ef, err := l.read(id)
		if err != nil {
			return nil, err
		}
		loaded = append(loaded, ef)
		sum.Eshops = append(sum.Eshops, id)
	}
	if len(loaded) == 0 {
		return nil, &Error{File: l.path("eshops"), Reason: "no e-shop folder found"}
	}
	err = st.Update(func(tx *store.Tx) error {
		for _, ef := range loaded {
			n, err := ef.write(tx)
			if err != nil {
				return err
			}
			sum.Records += n
		}
		return tx.SetValue("seeded", "1")
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// Seeded reports whether a store already holds seeded data (a persisted
// data file), in which case the sandbox does not seed again.
func Seeded(st *store.Store) bool {
	ok := false
	_ = st.View(func(tx *store.Tx) error { _, ok = tx.GetValue("seeded"); return nil })
	return ok
}

func (l *Loader) path(p string) string {
	if l.Name == "" {
		return p
	}
	return strings.TrimSuffix(l.Name, "/") + "/" + p
}

// record is one decoded fixture record with its line.
type record struct {
	id   string
	line int
	raw  []byte
}

type eshopFiles struct {
	meta        *eshop.Meta
	info        []byte
	singles     map[string][]byte // customer-fields, order-statuses
	collections map[string][]record
	creds       *credentials
}

func (l *Loader) read(id int) (*eshopFiles, error) {
	dir := "eshops/" + strconv.Itoa(id)
	entries, err := fs.ReadDir(l.FS, dir)
	if err != nil {
		return nil, &Error{File: l.path(dir), Reason: err.Error()}
	}
	ef := &eshopFiles{singles: map[string][]byte{}, collections: map[string][]record{}}
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
	for _, name := range names {
		file := dir + "/" + name
		raw, err := fs.ReadFile(l.FS, file)
		if err != nil {
			return nil, &Error{File: l.path(file), Reason: err.Error()}
		}
		if err := checkSyntax(raw); err != nil {
			err.File = l.path(file)
			return nil, err
		}
		switch name {
		case FileEshop:
			if ef.meta, err = l.readEshop(id, file, raw); err != nil {
				return nil, err
			}
			ef.info = raw
		case FileCredentials:
			if ef.creds, err = l.readCredentials(id, file, raw); err != nil {
				return nil, err
			}
		case FileCustomerFields, FileOrderStatuses:
			if !isObject(raw) {
				return nil, &Error{File: l.path(file), Line: 1, Reason: "must be a JSON object"}
			}
			ef.singles[strings.TrimSuffix(name, ".json")] = raw
		default:
			res := strings.TrimSuffix(name, ".json")
			row, ok := l.Registry.Resource(res)
			if !ok {
				return nil, &Error{File: l.path(file), Reason: fmt.Sprintf("unknown fixture file; known resources: %s", strings.Join(l.Registry.Names(), ", "))}
			}
			recs, err := l.readRecords(file, raw, row)
			if err != nil {
				return nil, err
			}
			ef.collections[res] = recs
		}
	}
	if ef.meta == nil {
		return nil, &Error{File: l.path(dir + "/" + FileEshop), Reason: "missing"}
	}
	return ef, nil
}

func (l *Loader) readRecords(file string, raw []byte, row *registry.Resource) ([]record, error) {
	var sch *jsonschema.Schema
	if row.Def != "" && l.Schemas != nil && l.Validate {
		var err error
		if sch, err = l.Schemas.Def(row.Def); err != nil {
			return nil, &Error{File: l.path(file), Reason: fmt.Sprintf("schema %s: %v", row.Def, err)}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, &Error{File: l.path(file), Line: 1, Reason: "must be a JSON array of " + row.Name + " records"}
	}
	seen := map[string]int{}
	var out []record
	lines := lineCounter{raw: raw, line: 1}
	for i := 0; dec.More(); i++ {
		start := int(dec.InputOffset())
		line := lines.at(start)
		var rm json.RawMessage
		if err := dec.Decode(&rm); err != nil {
			return nil, &Error{File: l.path(file), Line: line, Reason: err.Error()}
		}
		if !isObject(rm) {
			return nil, &Error{File: l.path(file), Line: line, Reason: fmt.Sprintf("record %d is not a JSON object", i+1)}
		}
		idv := gjson.GetBytes(rm, row.IDField)
		id := idv.String()
		if !idv.Exists() || id == "" || (idv.Type != gjson.String && idv.Type != gjson.Number) {
			return nil, &Error{File: l.path(file), Line: line, Reason: fmt.Sprintf("record %d has no %q (the identifier of %s)", i+1, row.IDField, row.Name)}
		}
		if strings.ContainsAny(id, ":*?") {
			return nil, &Error{File: l.path(file), Line: line, Reason: fmt.Sprintf("record %d: identifier %q must not contain ':', '*' or '?'", i+1, id)}
		}
		if prev, dup := seen[id]; dup {
			return nil, &Error{File: l.path(file), Line: line, Reason: fmt.Sprintf("duplicate %s %q (first at line %d)", row.IDField, id, prev)}
		}
		seen[id] = line
		if sch != nil {
			v, _ := api.DecodeObject(rm)
			api.StripMeta(v)
			if err := sch.Validate(v); err != nil {
				msg, ptr := describe(err)
				errLine := line
				if off := offsetOf(rm, ptr); off >= 0 {
					recStart := start + bytes.IndexByte(raw[start:], '{')
					errLine = lineAt(raw, recStart+off)
				}
				return nil, &Error{File: l.path(file), Line: errLine, Reason: fmt.Sprintf("%s %q does not match the reference's %s: %s", row.IDField, id, row.Def, msg)}
			}
		}
		out = append(out, record{id: id, line: line, raw: rm})
	}
	return out, nil
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

func (ef *eshopFiles) write(tx *store.Tx) (int, error) {
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
	names := make([]string, 0, len(ef.collections))
	for name := range ef.collections {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var maxID int64
		for _, rec := range ef.collections[name] {
			if _, err := tx.Put(id, name, rec.id, rec.raw); err != nil {
				return 0, fmt.Errorf("seed %s %s: %w", name, rec.id, err)
			}
			if v, err := strconv.ParseInt(rec.id, 10, 64); err == nil && v > maxID {
				maxID = v
			}
			n++
		}
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

// checkSyntax reports a JSON syntax error with its line.
func checkSyntax(raw []byte) *Error {
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

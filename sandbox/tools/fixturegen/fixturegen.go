// Package fixturegen writes a large, realistic and deterministic fixture
// set for scale tests (`sandbox fixtures generate`). It starts from the
// default set's e-shop 1001 (its settings, code lists, credentials and
// content stay as they are) and multiplies its catalogue, customers and
// orders: every generated product is a numbered edition of a template
// product (same prices, new GUID, codes and EANs), every customer a new
// person, every order a template order re-addressed to a generated
// customer and generated products, so totals stay exact. Documents,
// stock movements and the order history follow from the generated
// orders. The same options always give the same bytes.
package fixturegen

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// Options say how large the set is. Products must be at least the
// template's product count, so every template product has an edition.
type Options struct {
	Products  int
	Orders    int
	Customers int
	Seed      uint64 // 0 means 1
}

// Summary counts what was written.
type Summary struct {
	Dir   string
	Files int
	Count map[string]int
}

// Eshop is the e-shop the generated set describes (the default set's
// first e-shop, with its credentials, so the README's tokens work).
const Eshop = "1001"

// gen carries the template and the generated records.
type gen struct {
	opt   Options
	rng   *rand.Rand
	files map[string]any

	tplProducts, tplCustomers, tplOrders []map[string]any
	customers                            []map[string]any
	// orderCodes are the codes of the first generated orders (one per
	// template order, for remap); the orders themselves are kept encoded.
	orderCodes []string
	der        derived

	// editions[t][s] is edition s of template product t: its GUID and the
	// codes of its variants (template code -> edition code).
	editions [][]edition
	byCode   map[string]int // template variant code -> template product index
	nextID   map[string]int64
}

type edition struct {
	guid  string
	codes map[string]string
	name  string
}

// Generate reads the template from src (a fixture tree with eshops/1001)
// and writes the generated tree into dir (dir/eshops/1001/*.json).
func Generate(src fs.FS, dir string, opt Options) (*Summary, error) {
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	g := &gen{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed*0x9e3779b97f4a7c15)), files: map[string]any{},
		byCode: map[string]int{}, nextID: map[string]int64{}}
	if err := g.read(src); err != nil {
		return nil, err
	}
	if opt.Products < len(g.tplProducts) {
		return nil, fmt.Errorf("--products must be at least %d (one edition of every template product)", len(g.tplProducts))
	}
	if opt.Customers < 1 || opt.Orders < 0 {
		return nil, fmt.Errorf("--customers must be at least 1 and --orders at least 0")
	}
	g.makeProducts()
	g.makeCustomers()
	g.makeOrders()
	g.derive()
	return g.write(dir)
}

func (g *gen) read(src fs.FS) error {
	base := "eshops/" + Eshop
	entries, err := fs.ReadDir(src, base)
	if err != nil {
		return fmt.Errorf("template: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		raw, err := fs.ReadFile(src, base+"/"+e.Name())
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("template %s: %w", e.Name(), err)
		}
		g.files[strings.TrimSuffix(e.Name(), ".json")] = v
	}
	g.tplProducts = records(g.files["products"])
	g.tplCustomers = records(g.files["customers"])
	g.tplOrders = records(g.files["orders"])
	if len(g.tplProducts) == 0 || len(g.tplCustomers) == 0 {
		return fmt.Errorf("template: eshops/%s needs products.json and customers.json", Eshop)
	}
	for i, p := range g.tplProducts {
		for _, v := range list(p["variants"]) {
			g.byCode[str(obj(v)["code"])] = i
		}
	}
	return nil
}

// uid is a deterministic UUIDv5-shaped GUID of a name.
func (g *gen) uid(kind string, n int) string {
	h := sha1.Sum([]byte(fmt.Sprintf("fixturegen/%d/%s/%d", g.opt.Seed, kind, n)))
	h[6] = (h[6] & 0x0f) | 0x50
	h[8] = (h[8] & 0x3f) | 0x80
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// next numbers records of a kind after the template's largest id.
func (g *gen) next(kind string, floor int64) int64 {
	if g.nextID[kind] < floor {
		g.nextID[kind] = floor
	}
	g.nextID[kind]++
	return g.nextID[kind]
}

func (g *gen) write(dir string) (*Summary, error) {
	out := filepath.Join(dir, "eshops", Eshop)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(g.files))
	for n := range g.files {
		names = append(names, n)
	}
	sort.Strings(names)
	sum := &Summary{Dir: dir, Count: map[string]int{}}
	for _, n := range names {
		if err := writeFile(filepath.Join(out, n+".json"), g.files[n], idFields[n]); err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		sum.Files++
		if l, ok := g.files[n].([]any); ok {
			sum.Count[n] = len(l)
		}
		// The written document is not needed again: let it go before the
		// next (possibly larger) file is encoded.
		delete(g.files, n)
	}
	return sum, nil
}

// writeFile writes v as JSON. A non-empty top-level array goes out in
// the line layout (seed.StampFile): "[", then one compact record per
// line, then "]", streamed record by record through a buffered file
// instead of building the whole document (gigabytes for large sets) in
// memory. Compact records take a third less room than indented ones, and
// the layout lets a start split the file at its line breaks. Anything
// else is indented.
func writeFile(path string, v any, idField string) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	w := bufio.NewWriterSize(f, 1<<20)
	l, isList := v.([]any)
	if !isList || len(l) == 0 {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			return err
		}
		return w.Flush()
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	w.WriteString("[\n")
	for i, x := range l {
		b.Reset()
		if err := enc.Encode(x); err != nil {
			return err
		}
		w.Write(idFirst(bytes.TrimSuffix(b.Bytes(), []byte("\n")), idField))
		if i < len(l)-1 {
			w.WriteString(",\n")
		} else {
			w.WriteString("\n")
		}
	}
	w.WriteString("]\n")
	return w.Flush()
}

// idFields names each collection file's identifier field.
var idFields = func() map[string]string {
	out := map[string]string{}
	for _, row := range registry.Rows() {
		if row.Parent == nil {
			out[row.Name] = row.IDField
		}
	}
	return out
}()

// idFirst moves a compact record's identifier field to the front, where
// a start finds it without reading through the record.
func idFirst(rec []byte, field string) []byte {
	v := gjson.GetBytes(rec, field)
	key := `"` + field + `":`
	if field == "" || !v.Exists() || v.Index <= len(key)+1 {
		return rec
	}
	start, end := v.Index-len(key), v.Index+len(v.Raw)
	if string(rec[start:v.Index]) != key {
		return rec
	}
	// Drop the field and the comma on one side of it.
	if rec[end] == ',' {
		end++
	} else {
		start--
	}
	out := make([]byte, 0, len(rec)+1)
	out = append(out, '{')
	out = append(out, key...)
	out = append(out, v.Raw...)
	out = append(out, ',')
	out = append(out, rec[1:start]...)
	out = append(out, rec[end:]...)
	return out
}

// raw encodes a generated record as soon as it is complete: a compact
// json.RawMessage takes a fraction of the memory of the decoded map.
func (g *gen) raw(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("fixturegen: encode generated record: %v", err))
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// JSON helpers over decoded documents.

func records(v any) []map[string]any {
	var out []map[string]any
	for _, x := range list(v) {
		if m := obj(x); m != nil {
			out = append(out, m)
		}
	}
	return out
}

func list(v any) []any { l, _ := v.([]any); return l }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// clone deep-copies decoded JSON.
var clone = crud.Clone

func anyList(recs []map[string]any) []any {
	out := make([]any, len(recs))
	for i, r := range recs {
		out[i] = r
	}
	return out
}

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
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
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
	// Workers make products and orders in parallel (0: GOMAXPROCS);
	// the files written do not depend on it.
	Workers int
	// Stamp writes the folder's stamp (seed.StampFile) for the files
	// written, so that starts skip checking them: the records are valid
	// by construction, and the tests check generated sets in full.
	Stamp bool
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
	// The templates prepared for the product and order workers.
	preProducts, preOrders []*prepared
	customers              []map[string]any
	// orderCodes are the codes of the first generated orders (one per
	// template order, for remap).
	orderCodes []string
	// written is what the stamp needs of every file written.
	written []seed.WrittenFile
	sum     *Summary

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
	out := filepath.Join(dir, "eshops", Eshop)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	g.sum = &Summary{Dir: dir, Count: map[string]int{}}
	g.makeEditions()
	g.makeCustomers()
	// Products and orders (with the records that follow from them) are
	// made by parallel workers and streamed to their files in order.
	if err := g.writeProducts(dir); err != nil {
		return nil, err
	}
	if err := g.writeOrders(dir); err != nil {
		return nil, err
	}
	g.derive()
	if err := g.write(dir); err != nil {
		return nil, err
	}
	if opt.Stamp {
		if err := seed.WriteStamp(dir, g.written); err != nil {
			return nil, err
		}
	}
	return g.sum, nil
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

// write writes the files not streamed yet, in name order.
func (g *gen) write(dir string) error {
	names := make([]string, 0, len(g.files))
	for n := range g.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := g.writeFile(dir, n, g.files[n]); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		// The written document is not needed again: let it go before the
		// next (possibly larger) file is encoded.
		delete(g.files, n)
	}
	return nil
}

// done notes a closed file in the summary and for the stamp.
func (g *gen) done(name string, n int, list bool, f seed.WrittenFile, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	g.sum.Files++
	if list {
		g.sum.Count[name] = n
	}
	g.written = append(g.written, f)
	return nil
}

// writeFile writes v as JSON. A non-empty top-level array goes out in
// the line layout (seed.StampFile): "[", then one compact record per
// line with its identifier first, then "]". Compact records take a third
// less room than indented ones, and the layout lets a start split the
// file at its line breaks. Anything else is indented.
func (g *gen) writeFile(dir, name string, v any) error {
	fw, err := createFile(dir, name)
	if err != nil {
		return err
	}
	l, isList := v.([]any)
	if !isList || len(l) == 0 {
		enc := json.NewEncoder(fw.w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		fw.err = enc.Encode(v)
		f, err := fw.close()
		return g.done(name, len(l), isList, f, err)
	}
	lw := &listWriter{fileWriter: fw}
	b := &batch{}
	objects := true
	for _, x := range l {
		if m, ok := x.(map[string]any); ok {
			b.record(m, idFields[name])
			continue
		}
		// Not a record: written as it is (the loader refuses it).
		objects = false
		b.buf, b.err = appendValue(b.buf, x)
		b.buf = append(b.buf, ',', '\n')
		b.n++
	}
	if b.err != nil {
		fw.close()
		return b.err
	}
	lw.add(b)
	f, err := lw.close()
	f.Lines = f.Lines && objects
	return g.done(name, lw.n, true, f, err)
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

// prepared is a template record made ready to be copied many times:
// the fields the maker changes inside (deep) are deep-copied for every
// copy, the fields it reads or replaces (shared) are the template's, and
// every other field is encoded once and written as it is, instead of
// being copied and encoded again for every record made of the template.
type prepared struct {
	fields map[string]any
	deep   map[string]bool
	keys   []string // sorted
	// The variants of a product, the items of an order, prepared.
	variants, items []*prepared
}

func prepare(rec map[string]any, deep, shared []string) *prepared {
	p := &prepared{fields: make(map[string]any, len(rec)), deep: map[string]bool{}}
	for _, k := range deep {
		p.deep[k] = true
	}
	for k := range rec {
		p.keys = append(p.keys, k)
	}
	slices.Sort(p.keys)
	for k, v := range rec {
		switch {
		case p.deep[k] || slices.Contains(shared, k):
			p.fields[k] = v
		default:
			raw, err := appendValue(nil, v)
			if err != nil {
				// Not encodable: kept as it is, for the error to surface
				// where the record is written.
				p.fields[k] = v
				continue
			}
			p.fields[k] = json.RawMessage(raw)
		}
	}
	return p
}

// copy is a new record of the template.
func (p *prepared) copy() map[string]any {
	m := make(map[string]any, len(p.fields))
	for k, v := range p.fields {
		if p.deep[k] {
			v = clone(v)
		}
		m[k] = v
	}
	return m
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

package orders

import (
	"sync"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// variantRef locates a variant code among an e-shop's products.
type variantRef struct {
	guid  string
	index int
}

// CodeIndex remembers, per e-shop, which product holds each variant code,
// across requests: finding the product of an order item is then one record
// read instead of a scan through every product (with 100,000 products, a
// scan per order is most of the order's time). An entry is only a hint:
// every hit is checked against the product as the transaction reads it,
// and a miss or a stale hint rebuilds the e-shop's index from a scan. So
// the index answers what a scan would, whatever changed the products in
// between (crud writes, a reset, a rolled-back transaction); variant codes
// are unique across an e-shop's products (crud refuses a second use).
//
// It also keeps products as parsed (their top-level fields found), while
// their records stay the same bytes: an order item reads a dozen fields
// of its product, tens of kilobytes, and finding them was a tenth of an
// order's time inside the write lock. The product an order's stock
// movement rewrites is kept parsed by moving the old fields by the
// edits (see rebasedFields). At most maxParsed products are kept.
type CodeIndex struct {
	mu     sync.Mutex
	shops  map[int]map[string]variantRef
	parsed map[productKey]*Product
}

type productKey struct {
	eshop int
	guid  string
}

// maxParsed bounds the parsed products kept (a seeded record read from a
// packed set is a copy, which an entry keeps alive).
const maxParsed = 512

// NewCodeIndex returns an empty index; it fills itself on first use.
func NewCodeIndex() *CodeIndex {
	return &CodeIndex{shops: map[int]map[string]variantRef{}, parsed: map[productKey]*Product{}}
}

// parsedProduct is the product kept for a record of the bytes raw.
func (x *CodeIndex) parsedProduct(eshop int, guid string, raw []byte) *Product {
	x.mu.Lock()
	defer x.mu.Unlock()
	if p := x.parsed[productKey{eshop, guid}]; p != nil && string(p.raw) == string(raw) {
		return p
	}
	return nil
}

// keep remembers a parsed product (p.top filled, never changed again).
func (x *CodeIndex) keep(eshop int, p *Product) {
	x.mu.Lock()
	defer x.mu.Unlock()
	k := productKey{eshop, p.GUID}
	if _, ok := x.parsed[k]; !ok && len(x.parsed) >= maxParsed {
		for old := range x.parsed {
			delete(x.parsed, old)
			break
		}
	}
	x.parsed[k] = p
}

func (x *CodeIndex) get(eshop int, code string) (variantRef, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	ref, ok := x.shops[eshop][code]
	return ref, ok
}

// rebuild scans the e-shop's products inside tx and replaces its index.
func (x *CodeIndex) rebuild(tx *store.Tx, eshop int) error {
	m := map[string]variantRef{}
	err := tx.ScanShared(eshop, ProductsCollection, func(id string, doc []byte) bool {
		for i, v := range sharedGet(doc, "variants.#.code").Array() {
			m[v.String()] = variantRef{guid: id, index: i}
		}
		return true
	})
	if err != nil {
		return err
	}
	x.mu.Lock()
	x.shops[eshop] = m
	x.mu.Unlock()
	return nil
}

// Catalog answers rule 3's lookups inside one transaction: a code among
// the e-shop's product variants, a product by GUID. A product is read
// once per transaction (syncProduct, which writes it, has it read again).
type Catalog struct {
	tx      *store.Tx
	eshop   int
	index   *CodeIndex
	scanned bool                // this transaction rebuilt the index: a miss is final
	read    map[string]*Product // guid -> the product as read, without a variant
}

// NewCatalog is the catalogue of an e-shop inside tx, finding codes
// through index (a private one when nil, filled by the first lookup).
func NewCatalog(tx *store.Tx, eshopID int, index *CodeIndex) *Catalog {
	if index == nil {
		index = NewCodeIndex()
	}
	return &Catalog{tx: tx, eshop: eshopID, index: index, read: map[string]*Product{}}
}

// product reads a product (nil when there is none).
func (c *Catalog) product(guid string) *Product {
	if p, ok := c.read[guid]; ok {
		return p
	}
	raw, err := c.tx.GetShared(c.eshop, ProductsCollection, guid)
	if err != nil {
		return nil
	}
	p := c.index.parsedProduct(c.eshop, guid, raw)
	if p == nil {
		p = &Product{GUID: guid, Doc: gjson.Parse(sharedString(raw)), raw: raw}
		p.fields()
		c.index.keep(c.eshop, p)
	}
	c.read[guid] = p
	return p
}

// rewritten keeps parsed the product p as this transaction just stored
// it, made from p's record by the splices edited, when the store holds
// those very bytes (rec); a record it cannot follow is parsed when next
// read.
func (c *Catalog) rewritten(p *Product, rec []byte, edited []splice) {
	c.forget(p.GUID)
	stored, ok := storedAs(c.tx, c.eshop, ProductsCollection, p.GUID, rec)
	if !ok {
		return
	}
	top, ok := rebasedFields(p.raw, stored, p.fields(), edited)
	if !ok {
		return
	}
	vars := p.vars
	if len(vars) > 0 {
		if vars, ok = rebasedResults(p.raw, stored, p.vars, edited); !ok {
			return
		}
	}
	c.index.keep(c.eshop, &Product{GUID: p.GUID, Doc: gjson.Parse(sharedString(stored)), raw: stored, top: top, vars: vars})
}

// forget drops a product this transaction has written since it read it.
func (c *Catalog) forget(guid string) { delete(c.read, guid) }

// Product is a found product and, when looked up by code, its variant.
type Product struct {
	GUID    string
	Doc     gjson.Result
	Variant gjson.Result // zero when found by GUID only
	raw     []byte       // the record as the transaction read it (shared: never changed)
	top     map[string]gjson.Result
	vars    []gjson.Result // its variants, found with top
}

// Get reads a top-level field of the product, then path within it
// ("" for the field itself). The fields are found in one pass over the
// record on first use: a product is tens of kilobytes, and an order item
// reads a dozen of its fields.
func (p *Product) Get(field, path string) gjson.Result {
	r := p.fields()[field]
	if path != "" {
		r = r.Get(path)
	}
	return r
}

// fields are the product's top-level fields, found on first use with
// its variants.
func (p *Product) fields() map[string]gjson.Result {
	if p.top == nil {
		p.top = topFields(p.Doc)
		p.vars = p.top["variants"].Array()
	}
	return p.top
}

// variant is the product's i-th variant (zero when there is none).
func (p *Product) variant(i int) gjson.Result {
	p.fields()
	if i < 0 || i >= len(p.vars) {
		return gjson.Result{}
	}
	return p.vars[i]
}

// ByCode finds the product holding a variant code.
func (c *Catalog) ByCode(code string) (*Product, bool, error) {
	for {
		if ref, ok := c.index.get(c.eshop, code); ok {
			if p := c.product(ref.guid); p != nil {
				if v := p.variant(ref.index); v.Get("code").String() == code {
					found := *p
					found.Variant = v
					return &found, true, nil
				}
			}
		}
		if c.scanned {
			return nil, false, nil
		}
		if err := c.index.rebuild(c.tx, c.eshop); err != nil {
			return nil, false, err
		}
		c.scanned = true
	}
}

// ByGUID finds a product by its GUID.
func (c *Catalog) ByGUID(guid string) (*Product, bool) {
	p := c.product(guid)
	return p, p != nil
}

// MainImage is the representative image of the item in the reference's
// MainImage shape: the variant's own image when it has one, the
// product's first image otherwise.
func (p *Product) MainImage() any {
	imgs := p.Get("images", "").Array()
	if len(imgs) == 0 {
		return nil
	}
	pick := imgs[0]
	if name := p.Variant.Get("image").String(); name != "" {
		for _, im := range imgs {
			if im.Get("name").String() == name {
				pick = im
				break
			}
		}
	}
	out := map[string]any{}
	for _, k := range []string{"cdnName", "changeTime", "description", "name", "priority", "seoName", "signedCdnNames"} {
		out[k] = pick.Get(k).Value()
	}
	if n, ok := out["priority"].(float64); ok {
		out["priority"] = int64(n)
	}
	return out
}

// gjsonGet reads a path of a stored document.
func gjsonGet(doc []byte, path string) gjson.Result { return gjson.GetBytes(doc, path) }

// sharedGet reads a path of a document the caller never changes (one of
// store's shared reads), without copying what it finds: the result's
// strings point into doc.
func sharedGet(doc []byte, path string) gjson.Result { return gjson.Get(sharedString(doc), path) }

// sharedString is doc as a string without a copy; doc must not change
// while the string is in use.
func sharedString(doc []byte) string { return unsafe.String(unsafe.SliceData(doc), len(doc)) }

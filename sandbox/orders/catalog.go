package orders

import (
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// variantRef locates a variant code among an e-shop's products.
type variantRef struct {
	guid  string
	index int
}

// Catalog answers rule 3's lookups: a code among the e-shop's product
// variants, a product by GUID. It is built once per request.
type Catalog struct {
	tx       *store.Tx
	eshop    int
	byCode   map[string]variantRef
	products map[string][]byte // guid -> stored product
}

// NewCatalog indexes the e-shop's products by variant code and GUID.
func NewCatalog(tx *store.Tx, eshopID int) (*Catalog, error) {
	c := &Catalog{tx: tx, eshop: eshopID, byCode: map[string]variantRef{}, products: map[string][]byte{}}
	err := tx.Scan(eshopID, ProductsCollection, func(id string, doc []byte) bool {
		c.products[id] = doc
		for i, v := range gjson.GetBytes(doc, "variants.#.code").Array() {
			c.byCode[v.String()] = variantRef{guid: id, index: i}
		}
		return true
	})
	return c, err
}

// Product is a found product and, when looked up by code, its variant.
type Product struct {
	GUID    string
	Doc     gjson.Result
	Variant gjson.Result // zero when found by GUID only
}

// ByCode finds the product holding a variant code.
func (c *Catalog) ByCode(code string) (*Product, bool) {
	ref, ok := c.byCode[code]
	if !ok {
		return nil, false
	}
	doc := gjson.ParseBytes(c.products[ref.guid])
	return &Product{GUID: ref.guid, Doc: doc, Variant: doc.Get("variants").Array()[ref.index]}, true
}

// ByGUID finds a product by its GUID.
func (c *Catalog) ByGUID(guid string) (*Product, bool) {
	raw, ok := c.products[guid]
	if !ok {
		return nil, false
	}
	return &Product{GUID: guid, Doc: gjson.ParseBytes(raw)}, true
}

// MainImage is the representative image of the item in the reference's
// MainImage shape: the variant's own image when it has one, the
// product's first image otherwise.
func (p *Product) MainImage() any {
	imgs := p.Doc.Get("images").Array()
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

package fixturegen

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// makeEditions names Products editions: edition s of template product t
// is product number t + s*len(templates), with its GUID, name and
// variant codes.
func (g *gen) makeEditions() {
	n := len(g.tplProducts)
	g.editions = make([][]edition, n)
	for i := 0; i < g.opt.Products; i++ {
		t, s := i%n, i/n
		tpl := g.tplProducts[t]
		ed := edition{guid: g.uid("product", i), codes: map[string]string{}}
		if s == 0 {
			ed.name = str(tpl["name"])
		} else {
			ed.name = fmt.Sprintf("%s (edice %d)", tpl["name"], s+1)
		}
		for _, v := range list(tpl["variants"]) {
			code := str(obj(v)["code"])
			if s == 0 {
				ed.codes[code] = code + "-G"
			} else {
				ed.codes[code] = fmt.Sprintf("%s-G%d", code, s+1)
			}
		}
		g.editions[t] = append(g.editions[t], ed)
	}
}

// priceFile is a price list or stock whose entries (one per generated
// variant, cloned from its template variant's entry) the product workers
// make.
type priceFile struct {
	rec     map[string]any       // the price list or stock
	key     string               // its list of entries: _prices, _supplies
	guidKey string               // the entry's product GUID field
	tpl     map[string]*prepared // template variant code -> entry
	entries [][]byte             // encoded entries by chunk, each entry followed by ','
	size    atomic.Int64         // the length of a chunk's entries, to size the next
}

// productChunk is what a worker made of a run of products: the products,
// and every price file's entries for their variants.
type productChunk struct {
	products batch
	entries  [][]byte
}

// writeProducts makes the products in parallel and streams them to
// products.json in order, collecting the price lists' and stocks'
// entries for their variants on the way. Relations to other products
// (alternatives, related products, gifts, set items) point at the same
// edition of the related template product when it exists, else the
// first edition.
func (g *gen) writeProducts(dir string) error {
	var prices []*priceFile
	for _, f := range []struct{ file, key, guidKey string }{{"pricelists", "_prices", "_productGuid"}, {"stocks", "_supplies", "productGuid"}} {
		for _, rec := range records(g.files[f.file]) {
			pf := &priceFile{rec: rec, key: f.key, guidKey: f.guidKey, tpl: map[string]*prepared{}}
			for _, e := range list(rec[f.key]) {
				pf.tpl[str(obj(e)["code"])] = prepare(obj(e), nil, []string{"code", f.guidKey})
			}
			if f.file == "stocks" {
				delete(rec, "_movements")
			}
			prices = append(prices, pf)
		}
	}
	for _, p := range g.tplProducts {
		pre := prepare(p, []string{"alternativeProducts", "relatedProducts", "gifts", "setItems"},
			[]string{"guid", "name", "indexName", "url", "variants"})
		for _, v := range list(p["variants"]) {
			pre.variants = append(pre.variants, prepare(obj(v), []string{"perPricelistPrices"}, []string{"code", "ean", "manufacturerCode"}))
		}
		g.preProducts = append(g.preProducts, pre)
	}
	fw, err := createFile(dir, "products")
	if err != nil {
		return err
	}
	lw := &listWriter{fileWriter: fw}
	err = pipeline(g.opt.Products, chunkSize, g.opt.Workers, func(lo, hi int) *productChunk {
		c := &productChunk{entries: make([][]byte, len(prices))}
		for k, pf := range prices {
			// About the size of the previous chunk's entries.
			if n := pf.size.Load(); n > 0 {
				c.entries[k] = make([]byte, 0, n+n/8)
			}
		}
		for i := lo; i < hi; i++ {
			p := g.product(i)
			c.products.recordOrdered(p, idFields["products"], g.preProducts[i%len(g.preProducts)].keys)
			for k, pf := range prices {
				c.entries[k] = pf.appendEntries(c.entries[k], g, i, &c.products)
			}
		}
		for k, pf := range prices {
			pf.size.Store(int64(len(c.entries[k])))
		}
		return c
	}, func(c *productChunk) error {
		if c.products.err != nil {
			return c.products.err
		}
		lw.add(&c.products)
		for k, pf := range prices {
			pf.entries = append(pf.entries, c.entries[k])
		}
		return lw.err
	})
	if err != nil {
		lw.close()
		return fmt.Errorf("products: %w", err)
	}
	f, err := lw.close()
	if err := g.done("products", lw.n, true, f, err); err != nil {
		return err
	}
	delete(g.files, "products")
	for _, pf := range prices {
		pf.rec[pf.key] = rawList(pf.entries)
	}
	return nil
}

// appendEntries appends the file's entries for the variants of product
// i; an encoding error goes to errs.
func (pf *priceFile) appendEntries(b []byte, g *gen, i int, errs *batch) []byte {
	n := len(g.tplProducts)
	t, s := i%n, i/n
	ed := g.editions[t][s]
	for _, v := range list(g.tplProducts[t]["variants"]) {
		tcode := str(obj(v)["code"])
		e, ok := pf.tpl[tcode]
		if !ok {
			continue
		}
		c := e.copy()
		c["code"], c[pf.guidKey] = ed.codes[tcode], ed.guid
		var err error
		if b, err = appendOrdered(b, c, "", e.keys); err != nil && errs.err == nil {
			errs.err = err
		}
		b = append(b, ',')
	}
	return b
}

// product makes product number i.
func (g *gen) product(i int) map[string]any {
	n := len(g.tplProducts)
	t, s := i%n, i/n
	ed := g.editions[t][s]
	pre := g.preProducts[t]
	p := pre.copy()
	delete(p, "_translations")
	if p["variants"] != nil {
		vs := make([]any, len(pre.variants))
		for j, v := range pre.variants {
			vs[j] = v.copy()
		}
		p["variants"] = vs
	}
	p["guid"] = ed.guid
	p["name"] = ed.name
	suffix := "-g" + strconv.Itoa(i+1)
	if ix := str(p["indexName"]); ix != "" {
		p["indexName"] = ix + suffix
	}
	p["url"] = "{eshop_url}/" + str(p["indexName"]) + "/"
	for j, v := range list(p["variants"]) {
		vm := obj(v)
		vm["code"] = ed.codes[str(vm["code"])]
		if vm["ean"] != nil {
			vm["ean"] = ean13(fmt.Sprintf("859%09d", (i+1)*10+j))
		}
		if vm["manufacturerCode"] != nil {
			vm["manufacturerCode"] = str(vm["manufacturerCode"]) + suffix
		}
		for _, pp := range list(vm["perPricelistPrices"]) {
			obj(pp)["code"] = vm["code"]
		}
	}
	for _, key := range []string{"alternativeProducts", "relatedProducts"} {
		var keep []any
		for _, r := range list(p[key]) {
			if g2, ok := g.editionGUID(str(obj(r)["guid"]), s); ok && g2 != ed.guid {
				obj(r)["guid"] = g2
				keep = append(keep, r)
			}
		}
		p[key] = orEmpty(keep)
	}
	var gifts []any
	for _, gf := range list(p["gifts"]) {
		if c, ok := g.editionCode(str(obj(gf)["code"]), s); ok {
			obj(gf)["code"] = c
			gifts = append(gifts, gf)
		}
	}
	p["gifts"] = orEmpty(gifts)
	var items []any
	for _, it := range list(p["setItems"]) {
		im := obj(it)
		if c, ok := g.editionCode(str(im["code"]), s); ok {
			im["code"] = c
			im["guid"], _ = g.editionGUID(str(im["guid"]), s)
			items = append(items, im)
		}
	}
	if p["setItems"] != nil {
		p["setItems"] = orEmpty(items)
	}
	// Encoded in their templates' key order.
	for j, v := range list(p["variants"]) {
		list(p["variants"])[j] = ordered{obj(v), pre.variants[j].keys}
	}
	return p
}

func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// editionGUID maps a template product GUID to its edition s (or the first
// edition).
func (g *gen) editionGUID(guid string, s int) (string, bool) {
	for t, p := range g.tplProducts {
		if str(p["guid"]) == guid {
			eds := g.editions[t]
			if s < len(eds) {
				return eds[s].guid, true
			}
			return eds[0].guid, true
		}
	}
	return "", false
}

// editionCode maps a template variant code to its edition s (or the
// first edition).
func (g *gen) editionCode(code string, s int) (string, bool) {
	t, ok := g.byCode[code]
	if !ok {
		return "", false
	}
	eds := g.editions[t]
	if s >= len(eds) {
		s = 0
	}
	return eds[s].codes[code], true
}

// ean13 completes 12 digits with the EAN-13 check digit.
func ean13(body string) string {
	sum := 0
	for i, c := range body {
		d := int(c - '0')
		if i%2 == 1 {
			d *= 3
		}
		sum += d
	}
	return body + strconv.Itoa((10-sum%10)%10)
}

// slug makes an ASCII e-mail local part of a name.
func slug(s string) string {
	r := strings.NewReplacer("á", "a", "č", "c", "ď", "d", "é", "e", "ě", "e", "í", "i", "ň", "n", "ó", "o", "ř", "r", "š", "s",
		"ť", "t", "ú", "u", "ů", "u", "ý", "y", "ž", "z", " ", ".")
	return r.Replace(strings.ToLower(s))
}

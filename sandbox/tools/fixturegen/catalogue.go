package fixturegen

import (
	"fmt"
	"strconv"
	"strings"
)

// makeProducts writes Products editions: edition s of template product t
// is product number t + s*len(templates). Relations to other products
// (alternatives, related products, gifts, set items) point at the same
// edition of the related template product when it exists, else the first
// edition.
func (g *gen) makeProducts() {
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
	// Products are kept encoded (see gen.raw) once made.
	products := make([]any, 0, g.opt.Products)
	for i := 0; i < g.opt.Products; i++ {
		t, s := i%n, i/n
		ed := g.editions[t][s]
		p := clone(g.tplProducts[t]).(map[string]any)
		delete(p, "_translations")
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
		products = append(products, g.raw(p))
	}
	g.files["products"] = products
	g.rebuildPrices()
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

// rebuildPrices gives every price list and stock an entry per generated
// variant, cloned from its template variant's entry.
func (g *gen) rebuildPrices() {
	for _, pl := range records(g.files["pricelists"]) {
		tpl := map[string]map[string]any{}
		for _, e := range list(pl["_prices"]) {
			tpl[str(obj(e)["code"])] = obj(e)
		}
		var out []any
		g.eachVariant(func(tcode, code, guid string) {
			if e, ok := tpl[tcode]; ok {
				c := clone(e).(map[string]any)
				c["code"], c["_productGuid"] = code, guid
				out = append(out, g.raw(c))
			}
		})
		pl["_prices"] = orEmpty(out)
	}
	for _, st := range records(g.files["stocks"]) {
		tpl := map[string]map[string]any{}
		for _, e := range list(st["_supplies"]) {
			tpl[str(obj(e)["code"])] = obj(e)
		}
		var out []any
		g.eachVariant(func(tcode, code, guid string) {
			if e, ok := tpl[tcode]; ok {
				c := clone(e).(map[string]any)
				c["code"], c["productGuid"] = code, guid
				out = append(out, g.raw(c))
			}
		})
		st["_supplies"] = orEmpty(out)
		delete(st, "_movements")
	}
}

// eachVariant visits every generated variant in product order with its
// template code.
func (g *gen) eachVariant(fn func(tcode, code, guid string)) {
	n := len(g.tplProducts)
	for i := range g.opt.Products {
		t, s := i%n, i/n
		ed := g.editions[t][s]
		for _, v := range list(g.tplProducts[t]["variants"]) {
			tcode := str(obj(v)["code"])
			fn(tcode, ed.codes[tcode], ed.guid)
		}
	}
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

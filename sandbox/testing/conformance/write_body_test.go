package conformance

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// bodyGen builds a request body from the endpoint's request schema: every
// declared property gets a value, in this order of preference:
//
//  1. the value the table gives for its path (ids from list answers,
//     records the group created, codes of the e-shop's fixtures);
//  2. nothing, when the table leaves the path out (with the reason);
//  3. nothing, when the property names another record (…Guid, …Id,
//     …Code, a URL, an uploaded image) and the table gives no value: a
//     made-up reference would only test the 404;
//  4. a value made from the schema: the first enum value, a string
//     matching the pattern or value object (a price, a date, a colour…),
//     a marker text naming the operation and the field, true, a small
//     number; objects property by property, arrays with one item.
//
// It records which paths were given, made, left out and why, for the
// report.
type bodyGen struct {
	rs     *rawSchemas
	op     string
	given  map[string]any    // by path relative to the body's data ("name", "variants.0.code")
	omit   map[string]string // path -> why it is left out
	shop   shopValues
	update bool            // PATCH/PUT: other values than a create's, so the read-back shows the change
	used   map[string]bool // given paths that were placed
	made   []string        // paths made from the schema
	placed []string        // paths given by the table
	left   []string        // "path (why)"
}

// shopValues are values of the e-shop the bodies must use (its default
// currency and country, a VAT rate it has), read from its fixtures.
type shopValues struct {
	currency, country, vatRate, language string
}

// reference names the properties that point at another record.
var reference = regexp.MustCompile(`(Guid|Guids|Id|Ids|Code|Codes|Url|URL|ImageName|Index)$|^(guid|id|code|url|guids|ids|codes|parentGuid)$`)

// freeCode are properties named like references that hold the client's
// own text: a customs code, a manufacturer's or a till's code, the
// order's code in the originating system.
var freeCode = map[string]bool{"hsCode": true, "manufacturerCode": true, "pluCode": true, "externalCode": true}

// known are values for properties whose name says what they hold.
func (g *bodyGen) known(name string) (any, bool) {
	switch name {
	case "currencyCode", "currency":
		return g.shop.currency, true
	case "countryCode":
		return g.shop.country, true
	case "vatRate":
		return g.shop.vatRate, true
	case "language", "languageCode":
		return g.shop.language, true
	case "companyId": // a company's registration number, not a record's id
		return "27082440", true
	case "vatId", "taxId":
		return "CZ27082440", true
	}
	return nil, false
}

// build returns the body of the request: {"data": ...} when the schema
// has a data property, else the top-level object.
func (g *bodyGen) build(root snode) any {
	g.used = map[string]bool{}
	root = g.rs.resolve(root)
	props := root.props()
	if d, ok := props["data"]; ok {
		v, ok := g.value(d, "", "data", 0)
		if !ok {
			v = map[string]any{}
		}
		return map[string]any{"data": v}
	}
	v, _ := g.value(root, "", "", 0)
	return v
}

// value makes the value of the node at path (relative to data); name is
// the property's name. ok is false when the property is left out.
func (g *bodyGen) value(n snode, path, name string, depth int) (any, bool) {
	if v, ok := g.given[path]; ok {
		g.used[path] = true
		g.placed = append(g.placed, path)
		return v, true
	}
	if why, ok := g.omit[path]; ok {
		g.left = append(g.left, label(path)+" ("+why+")")
		return nil, false
	}
	if depth > 12 {
		return nil, false
	}
	n = g.choose(g.rs.resolve(n))
	if n == nil {
		return nil, false
	}
	if enum, ok := n["enum"].([]any); ok {
		for _, e := range enum {
			if e != nil {
				g.made = append(g.made, path)
				return e, true
			}
		}
	}
	switch {
	case n.is("object") || (n["properties"] != nil && !n.is("array")):
		out := map[string]any{}
		props := n.props()
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v, ok := g.value(props[k], join(path, k), k, depth+1); ok {
				out[k] = v
			}
		}
		if len(out) == 0 && path != "" {
			return nil, false
		}
		return out, true
	case n.is("array"):
		// One item, or as many as the table gives values for.
		var out []any
		for i := 0; i < g.items(path); i++ {
			if item, ok := g.value(n.items(), join(path, strconv.Itoa(i)), name, depth+1); ok {
				out = append(out, item)
			}
		}
		if len(out) == 0 {
			return nil, false
		}
		return out, true
	}
	if url := strings.HasSuffix(name, "Url") || strings.HasSuffix(name, "URL"); url && n.is("string") && !strings.Contains(strings.ToLower(name), "source") {
		g.made = append(g.made, path)
		return fit("https://example.com/wc/"+strings.ToLower(g.op)+"/"+strings.ToLower(name)+g.pick("", "-2"), n), true
	}
	if freeCode[name] && n.is("string") {
		g.made = append(g.made, path)
		return g.text(n, name, path), true
	}
	if reference.MatchString(name) || n.str("format") == "uuid" || strings.Contains(n.str("pattern"), "[0-9a-f]{8}-") ||
		strings.HasPrefix(n.str("x-value-object"), "TypeGuid") {
		if _, isKnown := g.known(name); !isKnown {
			g.left = append(g.left, label(path)+" (names another record; no value given)")
			return nil, false
		}
	}
	if v, ok := g.known(name); ok && n.is("string") {
		g.made = append(g.made, path)
		return v, true
	}
	switch {
	case n.is("string"):
		g.made = append(g.made, path)
		return g.text(n, name, path), true
	case n.is("integer"):
		g.made = append(g.made, path)
		return json.Number(strconv.Itoa(g.integer(name))), true
	case n.is("number"):
		g.made = append(g.made, path)
		return json.Number(g.pick("2.5", "3.5")), true
	case n.is("boolean"):
		g.made = append(g.made, path)
		return !g.update, true
	}
	return nil, false
}

// items is how many items the array at path gets: one more than the
// highest index the table gives a value under, at least one.
func (g *bodyGen) items(path string) int {
	prefix := join(path, "")
	n := 1
	for p := range g.given {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok {
			continue
		}
		idx, _, _ := strings.Cut(rest, ".")
		if i, err := strconv.Atoi(idx); err == nil && i+1 > n {
			n = i + 1
		}
	}
	return n
}

// choose picks the first alternative of an anyOf/oneOf that is not
// null-only (nor the SDK's "" encoding).
func (g *bodyGen) choose(n snode) snode {
	bs := n.branches()
	if len(bs) == 0 {
		return n
	}
	for _, b := range bs {
		b = g.rs.resolve(b)
		if !b.nullOnly() {
			// keep the outer node's value-object name for the choice of text
			if vo := n.str("x-value-object"); vo != "" && b.str("x-value-object") == "" {
				c := snode{}
				for k, v := range b {
					c[k] = v
				}
				c["x-value-object"] = vo
				return c
			}
			return b
		}
	}
	return nil
}

// text makes a string for a node: a candidate matching its pattern, else
// a marker naming the operation and the field.
func (g *bodyGen) text(n snode, name, path string) string {
	marker := "WC " + g.op + " " + name
	lower := strings.ToLower(name)
	var cands []string
	switch {
	case strings.Contains(lower, "email"):
		cands = append(cands, strings.ToLower("wc."+g.op+"."+name+"@example.com"))
	case strings.Contains(lower, "phone"):
		cands = append(cands, "+420 777 123 456")
	case lower == "zip":
		cands = append(cands, "602 00")
	case strings.Contains(lower, "color"):
		cands = append(cands, g.pick("#1E90FF", "#FF8C00"))
	}
	from := strings.Contains(lower, "from") || strings.Contains(lower, "start") || strings.Contains(lower, "since") || strings.Contains(lower, "issue") || strings.Contains(lower, "creat") || strings.Contains(lower, "publish")
	to := strings.HasSuffix(lower, "to") || strings.Contains(lower, "until") || strings.Contains(lower, "end") || strings.Contains(lower, "due") || strings.Contains(lower, "expire")
	date := g.pick("2026-03-15", "2026-04-15")
	switch {
	case from:
		date = g.pick("2026-01-10", "2026-02-10")
	case to:
		date = g.pick("2027-12-20", "2028-06-30")
	}
	dateTime := date + g.pick("T10:30:00+0100", "T11:45:00+0100")
	cands = append(cands, date, dateTime, g.pick("123.40", "234.50"), g.pick("2.000", "3.000"), g.pick("1.250", "2.500"), g.pick("12.5", "24.5"),
		g.pick("0.9500", "0.8500"), g.pick("0.950", "0.850"), g.pick("#1E90FF", "#FF8C00"), g.pick("308", "558"), g.shop.currency, "62011100", "7",
		"wc-"+strings.ToLower(g.op)+".jpg", "WC-"+strings.ToUpper(g.op), marker)
	pattern := n.str("pattern")
	if pattern != "" {
		if re, err := regexp.Compile(pattern); err == nil {
			for _, c := range cands {
				if re.MatchString(c) {
					return fit(c, n)
				}
			}
		}
		return fit(marker, n)
	}
	if len(cands) > 0 && (strings.Contains(lower, "email") || strings.Contains(lower, "phone") || lower == "zip" || strings.Contains(lower, "color")) {
		return fit(cands[0], n)
	}
	// Texts without a pattern whose name says what they hold.
	switch {
	case strings.Contains(lower, "date"):
		return date
	case strings.HasSuffix(lower, "time") || strings.HasSuffix(name, "At"):
		return dateTime
	case strings.Contains(lower, "price") || strings.HasSuffix(lower, "cost"):
		return g.pick("123.40", "234.50")
	case strings.Contains(lower, "amount") || strings.Contains(lower, "quantity"):
		return g.pick("2.000", "3.000")
	case strings.Contains(lower, "weight"):
		return g.pick("1.250", "2.500")
	case strings.HasSuffix(lower, "rate") && !strings.Contains(lower, "rating"):
		return "1.00000000"
	case strings.Contains(lower, "discount") || strings.Contains(lower, "ratio"):
		return g.pick("0.1000", "0.2000")
	}
	return fit(marker, n)
}

// fit cuts a string to the node's maxLength.
func fit(s string, n snode) string {
	if m, ok := n["maxLength"].(float64); ok && len(s) > int(m) {
		return s[:int(m)]
	}
	return s
}

// integer is a small number for an integer property.
func (g *bodyGen) integer(name string) int {
	n := 3
	switch strings.ToLower(name) {
	case "priority", "position":
		n = 5
	}
	if g.update {
		n++
	}
	return n
}

// pick is the value for a create, or the other one for an update.
func (g *bodyGen) pick(create, update string) string {
	if g.update {
		return update
	}
	return create
}

// unused lists given paths the schema has no place for: a table typo
// would otherwise go unnoticed.
func (g *bodyGen) unused() []string {
	var out []string
	for p := range g.given {
		if !g.used[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// label shows a path relative to data as the body field it is.
func label(path string) string {
	if path == "" {
		return "data"
	}
	return "data." + path
}

// describe summarises what a generated body holds.
func (g *bodyGen) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d fields made from the schema, %d given by the table", len(g.made), len(g.placed))
	if len(g.left) > 0 {
		fmt.Fprintf(&b, "; left out: %s", strings.Join(g.left, ", "))
	}
	return b.String()
}

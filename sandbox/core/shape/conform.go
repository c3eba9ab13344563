package shape

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Gen supplies the values a default may need: the sandbox clock's time, a
// UUID source and the e-shop's default currency.
type Gen struct {
	Now      time.Time
	UUID     func() string
	Currency string
	// Volatile is set when a default came from Now or UUID: the value
	// then differs from call to call, so render caches do not keep it.
	Volatile bool
}

// Conform returns v in the node's shape: declared properties only
// (keys starting with "_" are kept, they are sandbox metadata stripped
// later), every declared property present (required ones with canonical
// defaults, nullable ones as null), values
// repaired to the canonical form (decimal places, digit strings as
// integers). It is how a stored record becomes an answer.
func (g *Gen) Conform(v any, n Node) any { return g.walk(v, n, true, 0) }

// Complete is Conform without dropping undeclared keys: it is how a
// record is made whole before it is stored, keeping fields the sandbox
// needs that the reference does not list (a brand's index-name code).
func (g *Gen) Complete(v any, n Node) any { return g.walk(v, n, false, 0) }

// maxDepth stops defaults of self-referencing schemas.
const maxDepth = 24

func (g *Gen) walk(v any, n Node, project bool, depth int) any {
	if !n.Valid() || depth > maxDepth {
		return v
	}
	n = choose(n, v)
	r := n.Resolve()
	if !r.Valid() {
		return v
	}
	if v == nil {
		if n.Nullable() {
			return nil
		}
		return g.def(n, depth)
	}
	v = generic(v)
	switch val := v.(type) {
	case map[string]any:
		if !r.Is("object") {
			return g.invalid(n, depth)
		}
		if !r.Declares() {
			return val
		}
		out := make(map[string]any, len(val))
		for k, x := range val {
			if strings.HasPrefix(k, "_") {
				out[k] = x
				continue
			}
			if r.HasProp(k) {
				out[k] = g.walk(x, r.Prop(k), project, depth+1)
			} else if !project {
				out[k] = x
			}
		}
		for _, k := range r.Required() {
			if _, ok := out[k]; !ok {
				out[k] = g.invalid(r.Prop(k), depth+1)
			}
		}
		if project {
			// Every declared property is in the answer: one the record
			// lacks is null (the reference writes an absent section as
			// null), so a client's typed model is never left unset.
			for _, k := range r.Props() {
				if _, ok := out[k]; !ok && r.Prop(k).Nullable() {
					out[k] = nil
				}
			}
		}
		return out
	case []any:
		if !r.Is("array") {
			return g.invalid(n, depth)
		}
		it := r.Items()
		out := make([]any, len(val))
		for i, x := range val {
			out[i] = g.walk(x, it, project, depth+1)
		}
		return out
	}
	if s, ok := g.scalar(v, n); ok {
		return s
	}
	return g.invalid(n, depth)
}

// invalid replaces a value of the wrong type: null where allowed, else
// the canonical default.
func (g *Gen) invalid(n Node, depth int) any {
	if n.Nullable() {
		return nil
	}
	return g.def(n, depth)
}

// choose picks, for a node with several non-null anyOf branches (an
// array of several item classes), the branch that declares most of the
// value's keys.
func choose(n Node, v any) Node {
	branches, ok := n.m["anyOf"].([]any)
	if !ok || len(branches) < 2 {
		return n
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		return n
	}
	best, bestScore := n, -1
	count := 0
	for _, b := range branches {
		bm, _ := b.(map[string]any)
		if bm == nil || isNullOnly(bm) {
			continue
		}
		count++
		cand := Node{bm}.Resolve()
		if !cand.Is("object") {
			continue
		}
		score := 0
		for k := range obj {
			if cand.HasProp(k) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = Node{bm}, score
		}
	}
	if count < 2 {
		return n
	}
	return best
}

// scalar repairs a string, number or boolean to the node's type and
// format; ok is false when it cannot.
func (g *Gen) scalar(v any, n Node) (any, bool) {
	r := n.Resolve()
	switch val := v.(type) {
	case string:
		if r.Is("string") {
			return fixString(val, n)
		}
		if r.Is("integer") && isInteger(val) {
			return json.Number(strings.TrimSpace(val)), true
		}
		if r.Is("number") {
			if _, err := decimal.NewFromString(val); err == nil {
				return json.Number(val), true
			}
		}
		if r.Is("boolean") && (val == "true" || val == "false") {
			return val == "true", true
		}
	case bool:
		if r.Is("boolean") {
			return val, true
		}
	case json.Number, int, int64, float64:
		num := numberText(val)
		if r.Is("integer") && isInteger(num) {
			return json.Number(num), true
		}
		if r.Is("number") {
			return json.Number(num), true
		}
		if r.Is("string") {
			return fixString(num, n)
		}
	}
	return nil, false
}

func numberText(v any) string {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func isInteger(s string) bool {
	s = strings.TrimPrefix(strings.TrimSpace(s), "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// fixString checks enum and pattern; a decimal in the wrong number of
// places is reformatted ("12.5" -> "12.50" for a price).
func fixString(s string, n Node) (any, bool) {
	r := n.Resolve()
	if e := r.Enum(); e != nil {
		for _, x := range e {
			if x == s {
				return s, true
			}
		}
		return nil, false
	}
	pat := r.str("pattern")
	if pat == "" || matches(pat, s) {
		if max, ok := r.m["maxLength"].(float64); ok && len([]rune(s)) > int(max) {
			return string([]rune(s)[:int(max)]), true
		}
		return s, true
	}
	if places, ok := decimalPlaces(pat); ok {
		if d, err := decimal.NewFromString(strings.TrimSpace(s)); err == nil {
			out := d.StringFixed(int32(places))
			if matches(pat, out) {
				return out, true
			}
		}
	}
	return nil, false
}

var (
	reMu    sync.Mutex
	reCache = map[string]*regexp.Regexp{}
)

func matches(pattern, s string) bool {
	reMu.Lock()
	re, ok := reCache[pattern]
	if !ok {
		re, _ = regexp.Compile(pattern)
		reCache[pattern] = re
	}
	reMu.Unlock()
	return re == nil || re.MatchString(s)
}

var placesRe = regexp.MustCompile(`\\\.\[0-9\]\{(\d+)\}\$$`)

// decimalPlaces reads N from a decimal pattern ending in \.[0-9]{N}$.
func decimalPlaces(pattern string) (int, bool) {
	m := placesRe.FindStringSubmatch(pattern)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// Default is the canonical value of a required field the record lacks:
// the first enum value, zero in the field's decimal places, a fresh UUID,
// the current date-time, the e-shop currency, false, 0, "", [] or a
// completed object.
func (g *Gen) Default(n Node) any { return g.def(n, 0) }

func (g *Gen) def(n Node, depth int) any {
	r := n.Resolve()
	if !r.Valid() {
		return nil
	}
	if e := r.Enum(); len(e) > 0 {
		return e[0]
	}
	if c, ok := r.m["const"]; ok {
		return c
	}
	types := r.Types()
	if len(types) == 0 {
		return nil
	}
	switch types[0] {
	case "object":
		return g.walk(map[string]any{}, n, true, depth+1)
	case "array":
		return []any{}
	case "boolean":
		return false
	case "integer", "number":
		if min, ok := r.m["minimum"].(float64); ok && min > 0 {
			return json.Number(strconv.FormatFloat(min, 'f', -1, 64))
		}
		return json.Number("0")
	case "string":
		return g.defaultString(n)
	}
	return nil
}

// voDefaults are the canonical zero values of the SDK's string value
// objects.
var voDefaults = map[string]string{
	"TypeConstSymbol":         "0308",
	"TypeConstSymbolNullable": "0308",
	"TypeColor":               "#000000",
	"TypeFilename":            "file.jpg",
	"TypeFilenameNullable":    "file.jpg",
	"TypeNonEmptyString":      "-",
	"TypeVariantCodeRequest":  "CODE",
	"TypePriceRatio":          "1.0000",
	"TypeProductPriceRatio":   "1.000",
	"TypeUnitRatio":           "1.000000000",
	"TypeExchangeRate":        "1.00000000",
	"TypeDimension":           "0.0",
}

func (g *Gen) defaultString(n Node) string {
	r := n.Resolve()
	vo := n.ValueObject()
	switch {
	case vo == "TypeGuid" || vo == "TypeGuidNullable" || r.str("format") == "uuid":
		if g.UUID != nil {
			g.Volatile = true
			return g.UUID()
		}
		return "00000000-0000-4000-8000-000000000000"
	case strings.HasPrefix(vo, "TypeDateTime"):
		return sandbox.FormatTime(g.now())
	case strings.HasPrefix(vo, "TypeDate") || r.str("format") == "date":
		return g.now().Format("2006-01-02")
	case strings.HasPrefix(vo, "TypeCurrencyCode"):
		if g.Currency != "" {
			return g.Currency
		}
		return "EUR"
	case r.str("format") == "email":
		return "info@example.com"
	}
	if s, ok := voDefaults[vo]; ok {
		return s
	}
	pat := r.str("pattern")
	if pat == "" {
		if min, ok := r.m["minLength"].(float64); ok && min > 0 {
			return strings.Repeat("-", int(min))
		}
		return ""
	}
	if places, ok := decimalPlaces(pat); ok {
		return decimal.Zero.StringFixed(int32(places))
	}
	for _, c := range []string{"0", "#000000", "0000000000", sandbox.FormatTime(g.now()), g.now().Format("2006-01-02"), "x"} {
		if matches(pat, c) {
			return c
		}
	}
	return ""
}

func (g *Gen) now() time.Time {
	g.Volatile = true
	if g.Now.IsZero() {
		return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return g.Now
}

// generic turns a Go value that is not decoded JSON (a struct such as a
// paginator, a typed slice) into decoded JSON.
func generic(v any) any {
	switch v.(type) {
	case map[string]any, []any, string, bool, json.Number, int, int64, float64:
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return v
	}
	return out
}

package shape

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Unfit finds, in a request value about to be written into a record of
// shape n, the first text the record cannot hold: one Conform would
// answer as null or a default (a word that is not a date where the record
// keeps a date, not a decimal where it keeps a price, outside the list
// where it keeps one of a list). Writing it would lose it without a word,
// so the write path refuses it instead. It returns the path of the value
// below v (".birthDate", "[0].price", "" for v itself) and what the
// record expects there; ok is false when everything fits. Values of
// another JSON type than text are left to the write's own mapping.
func Unfit(v any, n Node) (path, expect string, ok bool) {
	return unfit(v, n, "", 0)
}

func unfit(v any, n Node, at string, depth int) (string, string, bool) {
	if !n.Valid() || v == nil || depth > maxDepth {
		return "", "", false
	}
	n = choose(n, v)
	r := n.Resolve()
	if !r.Valid() {
		return "", "", false
	}
	switch val := v.(type) {
	case string:
		if !r.Is("string") {
			return "", "", false
		}
		if _, fits := fixString(val, n); !fits {
			return at, Expectation(n), true
		}
	case map[string]any:
		if !r.Is("object") || !r.Declares() {
			return "", "", false
		}
		keys := make([]string, 0, len(val))
		for k := range val {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if r.HasProp(k) {
				if p, e, bad := unfit(val[k], r.Prop(k), at+"."+k, depth+1); bad {
					return p, e, true
				}
			}
		}
	case []any:
		if !r.Is("array") {
			return "", "", false
		}
		for i, x := range val {
			if p, e, bad := unfit(x, r.Items(), at+"["+strconv.Itoa(i)+"]", depth+1); bad {
				return p, e, true
			}
		}
	}
	return "", "", false
}

// Expectation says in words what a text node holds: one of its list, a
// date, a date-time, a decimal number with its places, or its pattern.
func Expectation(n Node) string {
	r := n.Resolve()
	if e := r.Enum(); e != nil {
		var words []string
		for _, x := range e {
			if x != nil {
				words = append(words, fmt.Sprint(x))
			}
		}
		return "one of " + strings.Join(words, ", ")
	}
	pat := r.str("pattern")
	switch {
	case r.str("format") == "date" || pat == `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`:
		return "a date like 2026-01-31"
	case strings.Contains(pat, "T[012][0-9]"):
		return "a date-time like 2026-01-31T09:30:00+0100"
	}
	if places, ok := decimalPlaces(pat); ok {
		return fmt.Sprintf("a decimal number with %d decimal places", places)
	}
	return "text matching " + pat
}

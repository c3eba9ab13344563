package record

import "strings"

// placer turns the upstream's own addresses into the placeholders the
// sandbox fills with its addresses when it serves a record ({eshop_url},
// {base_url}; fixtures/README.md), so that a recorded product's url or an
// order's adminUrl points at the sandbox serving it, not at the e-shop it
// was read from.
type placer struct{ pairs [][2]string }

func placeholders(eshopURL, base string) placer {
	var p placer
	// The e-shop's address first: on a sandbox it lies under the base.
	for _, pr := range [][2]string{{eshopURL, "{eshop_url}"}, {strings.TrimSuffix(base, "/"), "{base_url}"}} {
		if pr[0] != "" {
			p.pairs = append(p.pairs, pr)
		}
	}
	return p
}

// Value replaces, in place, an address at the start of every string of
// a decoded JSON value (only where the address ends: at the end, or
// before /, ? or #).
func (p placer) Value(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = p.Value(x)
		}
	case []any:
		for i, x := range t {
			t[i] = p.Value(x)
		}
	case string:
		return p.replace(t)
	}
	return v
}

func (p placer) replace(s string) string {
	for _, pr := range p.pairs {
		rest, ok := strings.CutPrefix(s, pr[0])
		if ok && (rest == "" || strings.ContainsRune("/?#", rune(rest[0]))) {
			return pr[1] + rest
		}
	}
	return s
}

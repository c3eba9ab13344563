package anonymize

import (
	"sort"
	"strings"
)

// minScrub is the shortest original Scrub looks for inside texts: a
// shorter one would match ordinary words.
const minScrub = 5

// Scrubber replaces, inside any text, the originals an Anonymizer
// replaced in their own fields.
type Scrubber struct {
	r *strings.Replacer
	n int
}

// Scrubber builds the replacer of every distinctive original replaced so
// far (e-mail addresses, phone numbers, full names, streets, company
// names); call it once every record has been through Value.
func (a *Anonymizer) Scrubber() *Scrubber {
	a.mu.Lock()
	defer a.mu.Unlock()
	type pair struct {
		from, to string
		kind     Kind
	}
	var pairs []pair
	for kind, m := range a.fakes {
		if !scrubbed[kind] {
			continue
		}
		for o, f := range m {
			if len(o) < minScrub || (kind == Person && !strings.Contains(strings.TrimSpace(o), " ")) {
				continue
			}
			pairs = append(pairs, pair{o, f, kind})
		}
	}
	// Longest first, so that a name inside an address is not replaced
	// before the address is; a value faked as two kinds (a company name
	// that is also a sender's name) takes one of them, always the same.
	sort.Slice(pairs, func(i, j int) bool {
		if len(pairs[i].from) != len(pairs[j].from) {
			return len(pairs[i].from) > len(pairs[j].from)
		}
		if pairs[i].from != pairs[j].from {
			return pairs[i].from < pairs[j].from
		}
		return pairs[i].kind < pairs[j].kind
	})
	args := make([]string, 0, 2*len(pairs))
	for i, p := range pairs {
		if i > 0 && pairs[i-1].from == p.from {
			continue
		}
		args = append(args, p.from, p.to)
	}
	return &Scrubber{r: strings.NewReplacer(args...), n: len(args) / 2}
}

// Value replaces the originals inside every string of a decoded JSON
// value (object keys excepted) in place and returns it.
func (s *Scrubber) Value(v any) any {
	if s.n == 0 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = s.Value(x)
		}
	case []any:
		for i, x := range t {
			t[i] = s.Value(x)
		}
	case string:
		return s.r.Replace(t)
	}
	return v
}

package tui

import (
	"bytes"
	"regexp"
	"strings"
)

// query is what a person types in the filter or the body search: terms
// separated by spaces, every one must hold. A term is a case-insensitive
// piece of text; "~" makes it a regular expression (case-insensitive
// too, RE2 syntax, \s for a space); a leading "!" negates either. So
// `orders !~^GET !503` keeps the calls about orders that are not GETs
// and do not mention 503.
type query struct {
	raw   string
	terms []term
	bad   string // the first term that is not a valid expression (matched as text)
}

// term is one condition of a query.
type term struct {
	neg bool
	lit []byte         // lower-case text, when re is nil
	re  *regexp.Regexp // compiled with (?i)
}

// parseQuery compiles s. A "~" term that does not compile is matched as
// plain text and named in bad, so a half-typed expression never hides
// every row.
func parseQuery(s string) query {
	q := query{raw: strings.TrimSpace(s)}
	for _, f := range strings.Fields(q.raw) {
		var t term
		if strings.HasPrefix(f, "!") && len(f) > 1 {
			t.neg, f = true, f[1:]
		}
		if strings.HasPrefix(f, "~") && len(f) > 1 {
			re, err := regexp.Compile("(?i)" + f[1:])
			if err == nil {
				t.re = re
				q.terms = append(q.terms, t)
				continue
			}
			if q.bad == "" {
				q.bad = f
			}
		}
		t.lit = []byte(strings.ToLower(f))
		q.terms = append(q.terms, t)
	}
	return q
}

// empty reports whether the query keeps everything.
func (q query) empty() bool { return len(q.terms) == 0 }

// matchString applies the query to one text.
func (q query) matchString(s string) bool {
	if q.empty() {
		return true
	}
	return q.match([]byte(s))
}

// match applies the query to b: every positive term is found in it and
// no negated one is.
func (q query) match(b []byte) bool {
	var lower []byte
	for _, t := range q.terms {
		if t.found(b, &lower) == t.neg {
			return false
		}
	}
	return true
}

// found reports whether the term's text or expression occurs in b,
// ignoring the negation; lower caches b in lower case across terms.
func (t term) found(b []byte, lower *[]byte) bool {
	if t.re != nil {
		return t.re.Match(b)
	}
	if *lower == nil {
		*lower = bytes.ToLower(b)
	}
	return bytes.Contains(*lower, t.lit)
}

// matchAny applies the query to several texts as one: a negated term
// must be in none of them, a positive one in at least one.
func (q query) matchAny(parts ...[]byte) bool {
	if q.empty() {
		return true
	}
	return q.match(bytes.Join(parts, []byte{'\n'}))
}

// lineMatches lists the lines of text where a positive term of the query
// is found: where the detail pane's n and N jump to.
func (q query) lineMatches(lines []string) []int {
	var out []int
	for i, l := range lines {
		b := []byte(l)
		var lower []byte
		for _, t := range q.terms {
			if !t.neg && t.found(b, &lower) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

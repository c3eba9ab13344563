package sandbox

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Slug makes the URL-friendly code the service generates from a name:
// diacritics dropped, lower case, runs of anything else turned into one
// dash. "Dárkové balení" becomes "darkove-baleni".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(translit.Replace(name)) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(unicode.ToLower(r))
		default:
			dash = true
		}
	}
	return b.String()
}

// translit spells letters that do not decompose into a base letter and a
// diacritic.
var translit = strings.NewReplacer("ß", "ss", "ł", "l", "Ł", "L", "ø", "o", "Ø", "O", "đ", "d", "Đ", "D", "æ", "ae", "Æ", "AE", "œ", "oe", "Œ", "OE", "þ", "th")

// ValidCode reports whether a code is URL-friendly: lower-case ASCII
// letters, digits and single dashes.
func ValidCode(code string) bool {
	return code != "" && Slug(code) == code
}

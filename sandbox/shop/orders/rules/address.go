package rules

import (
	"strings"
	"unicode"
)

// Street modes of an e-shop (customer-fields.json "_streetMode"): address
// rule 1, the e-shop stores street and house number in one field or two.
const (
	StreetSplit    = "split"
	StreetCombined = "combined"
)

// NormalizeStreet applies address rules 1-4 to an address object of a
// request, in place. street and houseNumber are the separate fields
// (rule 2); streetWithNr is the combined value, stored whole or split as
// the e-shop needs (rule 3); when street, houseNumber and streetWithNr
// are all sent, street and houseNumber win (rule 4). The result has only
// street and houseNumber, the fields of the reference's address shapes:
// split mode keeps the number in houseNumber, combined mode joins it into
// street and leaves houseNumber null.
//
// When streetWithNr comes with only one of street and houseNumber, the
// combined value is the complete one and is used (the spec is silent).
func NormalizeStreet(addr map[string]any, mode string) {
	if addr == nil {
		return
	}
	street := strings.TrimSpace(Text(addr["street"]))
	number := strings.TrimSpace(Text(addr["houseNumber"]))
	combined := strings.TrimSpace(Text(addr["streetWithNr"]))
	delete(addr, "streetWithNr")
	if combined != "" && (street == "" || number == "") {
		street, number = SplitStreet(combined)
	}
	if mode == StreetCombined {
		street = strings.TrimSpace(street + " " + number)
		number = ""
	}
	addr["street"] = NullIfEmpty(street)
	addr["houseNumber"] = NullIfEmpty(number)
}

// SplitStreet splits "Korunní 1208/74" into "Korunní" and "1208/74": the
// house number is the last word when it starts with a digit. A value
// without one is all street.
func SplitStreet(s string) (street, number string) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	last := s[i+1:]
	if last == "" || !unicode.IsDigit([]rune(last)[0]) {
		return s, ""
	}
	return strings.TrimSpace(s[:i]), last
}

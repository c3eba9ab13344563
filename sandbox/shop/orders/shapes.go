package orders

import "strings"

// The parts of an order record have the reference's fixed shapes: an
// address with exactly its keys, {guid, name} references to methods,
// lists that are never null.

// The keys of the reference's order address shapes: the billing address
// carries the company's identifiers too.
var billingAddressKeys = []string{"additional", "city", "company", "companyId", "countryCode", "district", "fullName", "houseNumber",
	"regionName", "regionShortcut", "street", "taxId", "vatId", "vatIdValidationStatus", "zip"}

var addressKeys = []string{"additional", "city", "company", "countryCode", "district", "fullName", "houseNumber", "regionName", "regionShortcut", "street", "zip"}

// shape returns m with exactly keys (missing ones null).
func shape(m map[string]any, keys []string) map[string]any {
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if m != nil {
			out[k] = m[k]
		} else {
			out[k] = nil
		}
	}
	return out
}

// shapeOrNil is shape for an optional part: nil stays nil.
func shapeOrNil(m map[string]any, keys []string) any {
	if m == nil {
		return nil
	}
	return shape(m, keys)
}

// ref is the {guid, name} reference to a method record.
func ref(m map[string]any) map[string]any {
	return map[string]any{"guid": m["guid"], "name": m["name"]}
}

// refOrNil is ref for an optional method.
func refOrNil(m map[string]any) any {
	if m == nil {
		return nil
	}
	return ref(m)
}

// orEmpty is a list as the record shows it: [] rather than null.
func orEmpty(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// joinAny lists values for a message, comma-separated.
func joinAny(l []any) string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = str(v)
	}
	return strings.Join(s, ", ")
}

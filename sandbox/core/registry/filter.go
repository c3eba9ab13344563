package registry

import (
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// FilterOp is how a query filter compares a record field.
type FilterOp int

// Filter operations.
const (
	Equal    FilterOp = iota // field equals the value (case-sensitive)
	OneOf                    // field equals one of a comma-separated list
	Contains                 // an array field (gjson path with #) contains the value
	AnyOf                    // an array field contains one of a comma-separated list
	TimeFrom                 // date-time field at or after the value
	TimeTo                   // date-time field at or before the value
	From                     // field >= value (string order, for codes)
	To                       // field <= value
	DateFrom                 // date (or date-time) field on or after a YYYY-MM-DD value
	DateTo                   // date (or date-time) field on or before a YYYY-MM-DD value
	After                    // numeric field greater than the value (lastId)
	NonZero                  // with value true: a numeric field that is set and not zero
)

// Filter binds a query parameter to a record field.
type Filter struct {
	Query string   // query parameter name
	Path  string   // gjson path in the stored record
	Op    FilterOp // comparison
}

// Matcher is a compiled set of filters for one request.
type Matcher func(doc []byte) bool

// Compile builds a matcher from the request's query values; nil when no
// filter is set. A malformed value (e.g. a bad date) answers 400.
func Compile(filters []Filter, get func(string) string) (Matcher, error) {
	var tests []Matcher
	for _, f := range filters {
		v := get(f.Query)
		if v == "" {
			continue
		}
		f := f
		switch f.Op {
		case Equal:
			tests = append(tests, func(doc []byte) bool { return gjson.GetBytes(doc, f.Path).String() == v })
		case OneOf:
			set := map[string]bool{}
			for _, p := range strings.Split(v, ",") {
				set[strings.TrimSpace(p)] = true
			}
			tests = append(tests, func(doc []byte) bool { return set[gjson.GetBytes(doc, f.Path).String()] })
		case Contains:
			tests = append(tests, func(doc []byte) bool {
				found := false
				gjson.GetBytes(doc, f.Path).ForEach(func(_, x gjson.Result) bool {
					found = x.String() == v
					return !found
				})
				return found
			})
		case AnyOf:
			set := map[string]bool{}
			for _, p := range strings.Split(v, ",") {
				set[strings.TrimSpace(p)] = true
			}
			tests = append(tests, func(doc []byte) bool {
				found := false
				gjson.GetBytes(doc, f.Path).ForEach(func(_, x gjson.Result) bool {
					found = set[x.String()]
					return !found
				})
				return found
			})
		case TimeFrom, TimeTo:
			at, err := sandbox.ParseTime(PlusFromSpace(v))
			if err != nil {
				return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, f.Query,
					"Query parameter %s must be a date-time like 2024-01-31T12:00:00+0100, not %q.", f.Query, v)
			}
			from := f.Op == TimeFrom
			tests = append(tests, func(doc []byte) bool {
				t, err := sandbox.ParseTime(gjson.GetBytes(doc, f.Path).String())
				if err != nil {
					return false
				}
				if from {
					return !t.Before(at)
				}
				return !t.After(at)
			})
		case DateFrom, DateTo:
			day, ok := dayOf(v)
			if !ok {
				return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, f.Query,
					"Query parameter %s must be a date like 2024-01-31, not %q.", f.Query, v)
			}
			from := f.Op == DateFrom
			tests = append(tests, func(doc []byte) bool {
				d, ok := dayOf(gjson.GetBytes(doc, f.Path).String())
				if !ok {
					return false
				}
				if from {
					return d >= day
				}
				return d <= day
			})
		case After:
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, f.Query,
					"Query parameter %s must be a number, not %q.", f.Query, v)
			}
			tests = append(tests, func(doc []byte) bool { return gjson.GetBytes(doc, f.Path).Float() > n })
		case NonZero:
			switch v {
			case "true", "1":
				tests = append(tests, func(doc []byte) bool { return gjson.GetBytes(doc, f.Path).Float() != 0 })
			case "false", "0":
			default:
				return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, f.Query,
					"Query parameter %s must be true or false, not %q.", f.Query, v)
			}
		case From:
			tests = append(tests, func(doc []byte) bool { return codeCompare(gjson.GetBytes(doc, f.Path).String(), v) >= 0 })
		case To:
			tests = append(tests, func(doc []byte) bool { return codeCompare(gjson.GetBytes(doc, f.Path).String(), v) <= 0 })
		}
	}
	if len(tests) == 0 {
		return nil, nil
	}
	return func(doc []byte) bool {
		for _, t := range tests {
			if !t(doc) {
				return false
			}
		}
		return true
	}, nil
}

// codeCompare orders codes numerically when both are numbers of any
// length, else as strings.
func codeCompare(a, b string) int {
	if isDigits(a) && isDigits(b) {
		a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
		if len(a) != len(b) {
			if len(a) < len(b) {
				return -1
			}
			return 1
		}
	}
	return strings.Compare(a, b)
}

func isDigits(s string) bool {
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

// dayOf reads the YYYY-MM-DD day of a date or date-time value.
func dayOf(v string) (string, bool) {
	if len(v) < 10 || v[4] != '-' || v[7] != '-' {
		return "", false
	}
	for i, c := range v[:10] {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return "", false
		}
	}
	return v[:10], true
}

// PlusFromSpace undoes a common client slip: a date-time's "+0100" sent
// unescaped in a query arrives as " 0100" (form decoding turns + into a
// space). Only a space before the 4-digit offset is restored.
func PlusFromSpace(v string) string {
	if n := len(v); n > 5 && v[n-5] == ' ' && isDigits(v[n-4:]) {
		return v[:n-5] + "+" + v[n-4:]
	}
	return v
}

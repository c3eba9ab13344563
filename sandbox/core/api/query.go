package api

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// QueryKind is the type a query parameter's value must have. The
// reference lists each endpoint's query parameters with their required
// flag but without a type, so the kinds come from queryKinds below.
type QueryKind int

// The kinds of query values.
const (
	// QueryText accepts any value: codes, names, e-mails, include,
	// language and the other parameters their handlers read themselves.
	QueryText QueryKind = iota
	// QueryPositive is a whole number of at least 1 (page, itemsPerPage).
	QueryPositive
	// QueryInteger is a whole number, sign allowed (order status ids are
	// negative).
	QueryInteger
	// QueryNumber is a decimal number such as 21.00.
	QueryNumber
	// QueryBoolean is true or false (1 and 0 too, any letter case).
	QueryBoolean
	// QueryDate is a date such as 2024-01-31, or a whole date-time.
	QueryDate
	// QueryDateTime is a date-time such as 2024-01-31T12:00:00+0100 (or
	// RFC 3339); a "+" sent unencoded, which arrives as a space, counts.
	QueryDateTime
	// QueryGUID is a GUID such as 3f2504e0-4f89-41d3-9a0c-0305e82c3301.
	QueryGUID
	// QueryGUIDList is a comma-separated list of GUIDs.
	QueryGUIDList
	// QueryEnum is one of the parameter's listed values.
	QueryEnum
	// QueryNumberOrBoolean is a decimal number or true/false: the
	// coupons' snapshot shippingPrice, whose meaning the reference and the
	// spec leave open.
	QueryNumberOrBoolean
)

// QueryParam is one query parameter a route declares: its name, whether
// the reference marks it required, and the kind of its value.
type QueryParam struct {
	Name     string
	Required bool
	Kind     QueryKind
	Enum     []string // the allowed values of a QueryEnum
}

// QueryParams types an endpoint's query parameters (names and required
// ones as the reference catalogue lists them) from the kinds table. A
// name the table does not know is an error, reported at start, so a new
// parameter of the reference gets a kind on purpose.
func QueryParams(names, required []string) ([]QueryParam, error) {
	req := map[string]bool{}
	for _, n := range required {
		req[n] = true
	}
	out := make([]QueryParam, 0, len(names))
	for _, n := range names {
		p, ok := queryKinds[n]
		if !ok {
			return nil, fmt.Errorf("query parameter %s has no kind in sandbox/core/api's query kinds table", n)
		}
		p.Name, p.Required = n, req[n]
		delete(req, n)
		out = append(out, p)
	}
	for n := range req {
		return nil, fmt.Errorf("required query parameter %s is not among the endpoint's parameters", n)
	}
	return out, nil
}

// CheckQuery refuses a query that lacks a required parameter or holds a
// value of the wrong kind, with 400 invalid-parameter naming the
// parameter. Parameters not declared are left alone, and so is an empty
// value of an optional one (the client library sends a null as "").
func CheckQuery(params []QueryParam, q url.Values) error {
	for _, p := range params {
		vs := q[p.Name]
		if p.Required && !hasValue(vs) {
			return sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, p.Name,
				"Query parameter %s is required%s.", p.Name, p.Kind.example(p.Enum))
		}
		for _, v := range vs {
			if v == "" {
				continue
			}
			if err := p.Kind.check(p.Name, v, p.Enum); err != nil {
				return err
			}
		}
	}
	return nil
}

func hasValue(vs []string) bool {
	for _, v := range vs {
		if v != "" {
			return true
		}
	}
	return false
}

// example is the hint a missing parameter's message ends with.
func (k QueryKind) example(enum []string) string {
	switch k {
	case QueryPositive, QueryInteger:
		return ": a whole number"
	case QueryNumber:
		return ": a number such as 21.00"
	case QueryBoolean:
		return ": true or false"
	case QueryDate:
		return ": a date like 2024-01-31"
	case QueryDateTime:
		return ": a date-time like 2024-01-31T12:00:00+0100"
	case QueryGUID:
		return ": a GUID like " + exampleGUID
	case QueryGUIDList:
		return ": GUIDs like " + exampleGUID + ", separated by commas"
	case QueryEnum:
		return ": " + orList(enum)
	case QueryNumberOrBoolean:
		return ": a number such as 0.00, or true or false"
	}
	return ""
}

const exampleGUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"

// check refuses v when it is not of kind k. The messages of page,
// itemsPerPage, the date-times and changeType are the ones their
// handlers gave before this check ran first.
func (k QueryKind) check(name, v string, enum []string) error {
	bad := func(format string, args ...any) error {
		return sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, name,
			"Query parameter %s must be "+format+", not %q.", append(append([]any{name}, args...), truncate(v, 40))...)
	}
	switch k {
	case QueryPositive:
		_, err := positiveInt(name, v)
		return err
	case QueryInteger:
		if !isInteger(v) {
			return bad("a whole number")
		}
	case QueryNumber:
		if !isDecimal(v) {
			return bad("a number such as 21.00")
		}
	case QueryBoolean:
		if _, ok := parseBool(v); !ok {
			return bad("true or false")
		}
	case QueryDate:
		if !isDate(v) {
			return bad("a date like 2024-01-31")
		}
	case QueryDateTime:
		if !isDateTime(v) {
			return bad("a date-time like 2024-01-31T12:00:00+0100")
		}
	case QueryGUID:
		if !isGUID(v) {
			return bad("a GUID like %s", exampleGUID)
		}
	case QueryGUIDList:
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" && !isGUID(part) {
				return bad("GUIDs like %s separated by commas", exampleGUID)
			}
		}
	case QueryEnum:
		for _, e := range enum {
			if v == e {
				return nil
			}
		}
		return bad("%s", orList(enum))
	case QueryNumberOrBoolean:
		if _, ok := parseBool(v); !ok && !isDecimal(v) {
			return bad("a number such as 0.00, or true or false")
		}
	}
	return nil
}

// orList writes "a, b or c".
func orList(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// parseBool reads a boolean query value the way Request.BoolQuery does.
func parseBool(v string) (b, ok bool) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, true
	case "false", "0":
		return false, true
	}
	return false, false
}

// isInteger: an optional sign and 1 to 18 digits (fits an int64).
func isInteger(v string) bool {
	if v != "" && (v[0] == '-' || v[0] == '+') {
		v = v[1:]
	}
	return v != "" && len(v) <= 18 && allDigits(v)
}

// isDecimal: an optional sign, digits, and an optional fraction after a
// dot; no exponent, no NaN or Inf, at most 40 characters.
func isDecimal(v string) bool {
	if len(v) > 40 {
		return false
	}
	if v != "" && (v[0] == '-' || v[0] == '+') {
		v = v[1:]
	}
	whole, frac, dot := strings.Cut(v, ".")
	if !dot {
		return whole != "" && allDigits(whole)
	}
	return (whole != "" || frac != "") && allDigits(whole) && allDigits(frac)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isDate: a calendar date YYYY-MM-DD, or a whole date-time.
func isDate(v string) bool {
	if len(v) == len("2006-01-02") {
		_, err := time.Parse("2006-01-02", v)
		return err == nil
	}
	return isDateTime(v)
}

// isDateTime: what the changes logs and list filters accept (see
// sandbox.ParseTime), an unencoded "+" before the offset included.
func isDateTime(v string) bool {
	if len(v) > 64 {
		return false
	}
	_, err := sandbox.ParseTime(plusFromSpace(v))
	return err == nil
}

// plusFromSpace restores a date-time's "+0100" that arrived as " 0100"
// (form decoding turns an unencoded + into a space); registry.PlusFromSpace
// does the same for the filters.
func plusFromSpace(v string) string {
	if n := len(v); n > 5 && v[n-5] == ' ' && allDigits(v[n-4:]) {
		return v[:n-5] + "+" + v[n-4:]
	}
	return v
}

// isGUID: 8-4-4-4-12 hexadecimal digits, either letter case.
func isGUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

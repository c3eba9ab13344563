package rules

import (
	"strings"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// DateTime reads a date-time field of an order request (creationTime) in
// the spec's form 2025-01-31T12:00:00+0100 (RFC 3339 is accepted too) and
// returns it in the canonical form; "" when the field is absent, null or
// empty. Creation and the header change both read it here, so they accept
// and refuse the same values.
func DateTime(v any, path string) (string, error) {
	s := strings.TrimSpace(Text(v))
	if s == "" {
		return "", nil
	}
	t, err := sandbox.ParseTime(s)
	if err != nil {
		return "", sandbox.Invalid(path, "Field %s must be a date-time like 2025-01-31T12:00:00+0100, not %s.", path, quote(v))
	}
	return sandbox.FormatTime(t), nil
}

// Date reads a calendar-date field of an order request (birthDate): a
// real date written 1990-12-31, the form every date of the reference
// takes (a customer's birthDate is the TypeDate value object). The result
// is the date, or nil when the field is absent, null or empty.
func Date(v any, path string) (any, error) {
	s := strings.TrimSpace(Text(v))
	if s == "" {
		return nil, nil
	}
	if _, err := time.Parse("2006-01-02", s); err != nil {
		return nil, sandbox.Invalid(path, "Field %s must be a date like 1990-12-31, not %s.", path, quote(v))
	}
	return s, nil
}

package sandbox

import (
	"errors"
	"fmt"
)

// Kind classifies an Error. The HTTP layer maps each Kind to exactly one
// status code (see api.statusFor); handlers never pick status codes
// themselves, so the spec's error table lives in one place.
type Kind int

// The kinds follow the spec's "Errors" table row by row.
const (
	KindInternal         Kind = iota // 500 general server error
	KindInvalid                      // 400 item-level validation failed
	KindUnauthorized                 // 401 invalid, missing or expired token
	KindForbidden                    // 403 no right, missing module, job:finished not registered
	KindNotFound                     // 404 wrong endpoint or unknown entity
	KindConflict                     // 409 duplicate data, broken relation, conflicting webhooks
	KindTooLarge                     // 413 too many entities in one request
	KindUnprocessable                // 422 body cannot be parsed or does not match the schema
	KindLocked                       // 423 lock for the same URL held
	KindTooManyRequests              // 429 concurrent connection limit exceeded
	KindUnavailable                  // 503 maintenance
	KindMisdirected                  // 421 a Host name the sandbox does not answer to
	KindUnsupportedMedia             // 415 a control-plane change that is not JSON
	KindTimeout                      // 408 a request body that stalled
)

// Well-known errorCode values. The spec names the first three; the others
// are the sandbox's own, chosen to read like the service's kebab-case codes.
const (
	CodeExpiredToken       = "expired-token"
	CodeNoRights           = "invalid-token-no-rights"
	CodeMissingToken       = "missing-access-token"
	CodeInvalidToken       = "invalid-token"
	CodeNotFound           = "not-found"
	CodeInvalidParameter   = "invalid-parameter"
	CodeInvalidContentType = "invalid-content-type"
	CodeInvalidJSON        = "invalid-json"
	CodeSchemaMismatch     = "schema-mismatch"
	CodeValidation         = "validation-error"
	CodeConflict           = "conflict"
	CodeTooManyEntities    = "too-many-entities"
	CodeInternal           = "internal-error"
	CodeMisdirected        = "misdirected-request"
	CodeCrossSite          = "cross-site-request"
	CodeRequestTimeout     = "request-timeout"
)

// Error is the single error type handlers return. Code, Message and
// Instance are shown to the client in the envelope's errors array; Err is
// an internal cause that is logged, never shown.
type Error struct {
	Kind     Kind
	Code     string // errorCode in the envelope
	Message  string // descriptive message for a person
	Instance string // identification of the referenced entity
	Err      error  // internal cause, logged only
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

// Unwrap exposes the internal cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error of the given kind with a formatted message.
func Errorf(kind Kind, code, instance, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Instance: instance, Message: fmt.Sprintf(format, args...)}
}

// NotFound reports that the entity named by instance does not exist.
func NotFound(instance, format string, args ...any) *Error {
	return Errorf(KindNotFound, CodeNotFound, instance, format, args...)
}

// Invalid reports an item-level validation failure (HTTP 400).
func Invalid(instance, format string, args ...any) *Error {
	return Errorf(KindInvalid, CodeValidation, instance, format, args...)
}

// Unprocessable reports a body that cannot be parsed or does not match the
// expected schema (HTTP 422).
func Unprocessable(code, instance, format string, args ...any) *Error {
	return Errorf(KindUnprocessable, code, instance, format, args...)
}

// Conflict reports a consistency violation (HTTP 409).
func Conflict(instance, format string, args ...any) *Error {
	return Errorf(KindConflict, CodeConflict, instance, format, args...)
}

// ErrNotFound is the sentinel the store returns for a missing key; callers
// turn it into a NotFound Error naming the entity.
var ErrNotFound = errors.New("not found")

// AsError converts any error into an *Error. Unknown errors become a 500
// with a generic message so internal details never reach the client.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Kind: KindInternal, Code: CodeInternal, Instance: "unknown",
		Message: "Internal server error. The sandbox logged the details with the request id.", Err: err}
}

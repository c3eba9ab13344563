package rules

// MultiError is several item-level failures of one request; the handler
// answers them in one 400 envelope (e.g. every missing mandatory field).
type MultiError []error

// Error implements error with the first failure.
func (m MultiError) Error() string { return m[0].Error() }

// Unwrap exposes the failures to errors.As.
func (m MultiError) Unwrap() []error { return m }

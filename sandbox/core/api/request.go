package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

// Request is what a handler receives: the HTTP request plus what the
// chain learned (route, path variables, caller, e-shop).
type Request struct {
	*http.Request
	Route     *Route
	Vars      map[string]string
	Principal *auth.Principal
	Eshop     int
	server    *Server
	call      *Call
	query     url.Values
}

// Call is what the server resolved about the request (see Call).
func (r *Request) Call() *Call { return r.call }

// Var returns a path variable.
func (r *Request) Var(name string) string { return r.Vars[name] }

// Query returns a query parameter ("" when absent).
func (r *Request) Query(name string) string { return r.QueryValues().Get(name) }

// QueryValues is the parsed query, parsed once per request.
func (r *Request) QueryValues() url.Values {
	if r.query == nil {
		r.query = r.URL.Query()
	}
	return r.query
}

// Headers returns the brand-bearing header names in use.
func (r *Request) Headers() sandbox.Headers { return r.server.headers }

// RequestID returns the id of this request.
func (r *Request) RequestID() string { return RequestIDOf(r.Request) }

// Paging reads page and itemsPerPage per the spec: the first page is 1,
// an omitted itemsPerPage is the endpoint's default and a larger one is
// replaced by its maximum.
func (r *Request) Paging(def, max int) (page, perPage int, err error) {
	page, perPage = 1, def
	q := r.QueryValues()
	if v := q.Get("page"); v != "" {
		page, err = positiveInt("page", v)
		if err != nil {
			return 0, 0, err
		}
	}
	if v := q.Get("itemsPerPage"); v != "" {
		perPage, err = positiveInt("itemsPerPage", v)
		if err != nil {
			return 0, 0, err
		}
	}
	if perPage > max {
		perPage = max
	}
	return page, perPage, nil
}

func positiveInt(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, name,
			"Query parameter %s must be a whole number of at least 1, not %q.", name, truncate(v, 40))
	}
	if n > 1_000_000_000 {
		return 0, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, name,
			"Query parameter %s is too large (%s).", name, truncate(v, 40))
	}
	return n, nil
}

// Includes reads the include parameter: comma-separated section names,
// letter case and order irrelevant. Names not in allowed answer 400.
func (r *Request) Includes(allowed []string) (map[string]bool, error) {
	out := map[string]bool{}
	raw := r.QueryValues().Get("include")
	if strings.TrimSpace(raw) == "" {
		return out, nil
	}
	canon := make(map[string]string, len(allowed))
	for _, a := range allowed {
		canon[strings.ToLower(a)] = a
	}
	for _, part := range strings.Split(raw, ",") {
		name := strings.ToLower(strings.TrimSpace(part))
		if name == "" {
			continue
		}
		c, ok := canon[name]
		if !ok {
			list := append([]string(nil), allowed...)
			sort.Strings(list)
			hint := "This endpoint has no include sections."
			if len(list) > 0 {
				hint = "Known sections: " + strings.Join(list, ", ") + "."
			}
			return nil, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, "include",
				"Unknown include section %q. %s", truncate(strings.TrimSpace(part), 60), hint)
		}
		out[c] = true
	}
	return out, nil
}

// BoolQuery reads a boolean query flag ("true"/"false"; "1"/"0" accepted).
func (r *Request) BoolQuery(name string) (bool, error) {
	v := r.QueryValues().Get(name)
	switch strings.ToLower(v) {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, sandbox.Errorf(sandbox.KindInvalid, sandbox.CodeInvalidParameter, name,
		"Query parameter %s must be true or false, not %q.", name, truncate(v, 40))
}

// Body reads, parses and validates the JSON body against the route's
// request schema, after the route's declared normalisation (Route.Normalize).
// It is the one body decoder of the reference endpoints. Unparseable or
// mismatching bodies answer 422 naming the failing field. Numbers stay
// json.Number, never float64.
func (r *Request) Body() (map[string]any, error) {
	v, err := DecodeJSON(r.RawBody())
	if err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The request body must be a JSON object with the fields in \"data\".")
	}
	if r.Route != nil && r.Route.Normalize != nil {
		r.Route.Normalize(obj)
	}
	if r.server.requestSchema != nil {
		if sch := r.server.requestSchema(r.Route.Operation); sch != nil {
			if err := sch.Validate(obj); err != nil {
				return nil, SchemaError(err)
			}
		}
	}
	return obj, nil
}

// RawBody is the request body as it arrived (read once by the server,
// within MaxBodyBytes; nil when there is none).
func (r *Request) RawBody() []byte {
	if r.call != nil && r.call.bodyRead {
		return r.call.body
	}
	raw, _ := io.ReadAll(io.LimitReader(r.Request.Body, MaxBodyBytes))
	return raw
}

// DecodeJSON parses a JSON document with numbers kept as json.Number.
// Empty input, invalid UTF-8, syntax errors and trailing data answer 422.
func DecodeJSON(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is empty; a JSON object is expected.")
	}
	if !utf8.Valid(raw) {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is not valid UTF-8.")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is not valid JSON: %s.", describeJSONError(raw, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body has data after the JSON value.")
	}
	return v, nil
}

func describeJSONError(raw []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := LineCol(raw, int(se.Offset))
		return fmt.Sprintf("%s at line %d, column %d", se.Error(), line, col)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of input"
	}
	return err.Error()
}

// LineCol converts a byte offset into a 1-based line and column.
func LineCol(raw []byte, off int) (line, col int) {
	if off > len(raw) {
		off = len(raw)
	}
	line = 1 + bytes.Count(raw[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(raw[:off], '\n')
	return line, col
}

// SchemaError turns a jsonschema validation failure into a 422 naming the
// deepest failing field, e.g. instance "data.items[0].vatRate".
func SchemaError(err error) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The request body does not match the expected schema: %v.", err)
	}
	leaf := Deepest(ve)
	field := PointerToField(leaf.InstanceLocation)
	msg := leaf.Message
	if field == "" {
		return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The request body does not match the expected schema: %s.", msg)
	}
	return sandbox.Unprocessable(sandbox.CodeSchemaMismatch, field, "Field %s: %s.", field, msg)
}

// Deepest picks the most specific cause of a validation failure: the leaf
// whose instance location is longest, i.e. the field people should fix.
func Deepest(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := ve
	var walk func(v *jsonschema.ValidationError)
	walk = func(v *jsonschema.ValidationError) {
		if len(v.Causes) == 0 {
			if len(v.InstanceLocation) > len(best.InstanceLocation) || best == ve {
				best = v
			}
			return
		}
		for _, c := range v.Causes {
			walk(c)
		}
	}
	walk(ve)
	return best
}

// PointerToField renders a JSON pointer (/data/items/0/vatRate) as the
// dotted form people read (data.items[0].vatRate).
func PointerToField(ptr string) string {
	if ptr == "" || ptr == "/" {
		return ""
	}
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(part); err == nil {
			b.WriteString("[" + part + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	return b.String()
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

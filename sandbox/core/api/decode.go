package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// MaxBodyDepth bounds how deeply a JSON body may nest (objects and arrays
// within one another); a deeper one answers 422 before it is decoded.
const MaxBodyDepth = 64

// Decoding says how Decode reads one JSON body. The zero value wants a
// JSON object of at most MaxBodyBytes.
type Decoding struct {
	// Optional: an empty body is no error; Decode reports it absent and
	// leaves the target as it was.
	Optional bool
	// Limit caps the body below MaxBodyBytes (0: MaxBodyBytes); a larger
	// one answers 413 too-many-entities.
	Limit int
	// AnyValue accepts any JSON value, not only an object (an item of a
	// body already taken apart, a bare string among them).
	AnyValue bool
	// Schema, when set, validates the decoded value first: a mismatch
	// answers 422 naming the deepest failing field.
	Schema *jsonschema.Schema
	// NotObject is the message for a body that is not a JSON object (""
	// says so plainly).
	NotObject string
	// Normalize, when set, adjusts a decoded object before the schema
	// check (a route's declared normalisation, Route.Normalize).
	Normalize func(map[string]any)
}

// Decode is the one decoder of the JSON bodies of the API's and the
// control plane's requests (Request.Body, Request.Decode and
// Request.DecodeBody read through it; no handler decodes a body itself):
//
//   - size: at most MaxBodyBytes (or Decoding.Limit), else 413
//     too-many-entities; at most MaxBodyDepth deep, else 422;
//   - syntax: empty (unless Optional), invalid UTF-8, malformed JSON or
//     data after the value answer 422 invalid-json, with line and column;
//   - shape: a value other than an object (unless AnyValue) or a schema
//     mismatch answers 422 schema-mismatch naming the field;
//   - numbers stay exact: json.Number in maps and `any`, never float64.
//
// into is a pointer: to a map[string]any or an `any` (filled with the
// decoded value), or to any other type (a struct, a string), decoded
// strictly (a field it does not know answers 422 naming it). present is
// false for an empty body (only without an error when Optional).
func Decode(raw []byte, into any, d Decoding) (present bool, err error) {
	limit := MaxBodyBytes
	if d.Limit > 0 && d.Limit < limit {
		limit = d.Limit
	}
	if len(raw) > limit {
		return true, sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "body",
			"The request body is %d bytes; this endpoint takes at most %s.", len(raw), sizeText(limit))
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if d.Optional {
			return false, nil
		}
		return false, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is empty; a JSON object is expected.")
	}
	if !utf8.Valid(raw) {
		return true, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is not valid UTF-8.")
	}
	if depth := nesting(raw); depth > MaxBodyDepth {
		return true, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body nests %d levels deep; at most %d are accepted.", depth, MaxBodyDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return true, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body is not valid JSON: %s.", describeJSONError(raw, err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return true, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body has data after the JSON value.")
	}
	if _, ok := v.(map[string]any); !ok && !d.AnyValue {
		msg := d.NotObject
		if msg == "" {
			msg = "The request body must be a JSON object."
		}
		return true, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "%s", msg)
	}
	if d.Normalize != nil {
		if obj, ok := v.(map[string]any); ok {
			d.Normalize(obj)
		}
	}
	if d.Schema != nil {
		if err := d.Schema.Validate(v); err != nil {
			return true, SchemaError(err)
		}
	}
	switch t := into.(type) {
	case *any:
		*t = v
		return true, nil
	case *map[string]any:
		m, _ := v.(map[string]any)
		*t = m
		return true, nil
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	strict.UseNumber()
	if err := strict.Decode(into); err != nil {
		return true, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", "The request body does not match: %s.", strings.TrimPrefix(err.Error(), "json: "))
	}
	return true, nil
}

// nesting is how deeply a JSON text nests arrays and objects (strings
// skipped), counted without decoding it.
func nesting(raw []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, b := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > deepest {
				deepest = depth
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}

func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Decode decodes the request's body (see the package function Decode).
func (r *Request) Decode(into any, d Decoding) (present bool, err error) {
	return Decode(r.RawBody(), into, d)
}

// Body decodes the request's JSON object body and validates it against
// the route's request schema. Unparseable or mismatching bodies answer
// 422 naming the failing field. Numbers stay json.Number, never float64.
func (r *Request) Body() (map[string]any, error) {
	d := Decoding{NotObject: "The request body must be a JSON object with the fields in \"data\"."}
	if r.server != nil && r.server.requestSchema != nil && r.Route != nil {
		d.Schema = r.server.requestSchema(r.Route.Operation)
	}
	if r.Route != nil {
		d.Normalize = r.Route.Normalize
	}
	var obj map[string]any
	if _, err := Decode(r.RawBody(), &obj, d); err != nil {
		return nil, err
	}
	return obj, nil
}

// DecodeBody decodes the request's JSON object body into v (a struct)
// strictly: a body that is not valid JSON, not an object, or has a field
// v does not know answers 422 naming the problem. An empty body leaves v
// as it is and reports present false.
func (r *Request) DecodeBody(v any) (present bool, err error) {
	return Decode(r.RawBody(), v, Decoding{Optional: true})
}

// DecodeJSON parses a JSON document with numbers kept as json.Number:
// Decode with any value accepted. Empty input, invalid UTF-8, syntax
// errors and trailing data answer 422.
func DecodeJSON(raw []byte) (any, error) {
	var v any
	_, err := Decode(raw, &v, Decoding{AnyValue: true})
	return v, err
}

// ReadBody reads the body of a request that did not come through the
// server (an in-process delivery to a receiver of the sandbox's own), as
// the server reads its requests' bodies: at most limit bytes (0:
// MaxBodyBytes), else 413; a failed read answers 422.
func ReadBody(r *http.Request, limit int) ([]byte, error) {
	if limit <= 0 || limit > MaxBodyBytes {
		limit = MaxBodyBytes
	}
	if r.Body == nil {
		return nil, nil
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return nil, sandbox.Unprocessable(sandbox.CodeInvalidJSON, "body", "The request body could not be read: %s.", bodyReadError(err))
	}
	if len(raw) > limit {
		return nil, sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "body", "The request body is larger than %s.", sizeText(limit))
	}
	return raw, nil
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

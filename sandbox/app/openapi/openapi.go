// Package openapi generates an OpenAPI 3.1 document of the whole API
// surface from schemas/ (the catalogue, the shared entities and every
// endpoint's request and response schema), served at
// GET /_sandbox/openapi.json so a person can import the sandbox into the
// API client they use. JSON Schema 2020-12 is OpenAPI 3.1's schema
// dialect, so the generated schemas are used as they are; only their
// references are moved to components.
package openapi

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"regexp"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// Path is where the control plane serves the document.
const Path = "/_sandbox/openapi.json"

// Options say what the document names: the server address, the brand's
// header names and each operation's success status.
type Options struct {
	BaseURL string
	Headers sandbox.Headers
	// Status returns an operation's success status (0: 200).
	Status func(operation string) int
	// Module returns the e-shop module an operation needs ("" for none),
	// which its description names with the 403 it answers without it.
	Module func(operation string) string
}

// Route serves the document; base is read per request, as the listener's
// address is known only after binding. o.BaseURL is ignored.
func Route(base func() string, o Options) api.Route {
	return api.Route{Operation: "sandbox.openapi", Method: http.MethodGet, Path: Path, Public: true, NoContentType: true,
		Summary: "OpenAPI 3.1 of the whole API surface, to import into an API client",
		Handler: func(r *api.Request) (any, error) {
			o.BaseURL = base()
			return document(Build(o))
		}}
}

// document answers a built document as indented JSON, outside the
// envelope, as API clients expect to import it.
func document(doc map[string]any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	raw, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "application/json", Body: raw}, nil
}

// Build generates the document.
func Build(o Options) (map[string]any, error) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	defs, err := loadDefs()
	if err != nil {
		return nil, err
	}
	components := map[string]any{}
	for name, d := range defs {
		components[componentName(name)] = rewrite(d)
	}
	components["ErrorEnvelope"] = errorEnvelope()
	paths := map[string]any{}
	groups := map[string][]schemas.Endpoint{}
	for _, e := range cat.Endpoints {
		op, err := operation(e, o)
		if err != nil {
			return nil, err
		}
		item, _ := paths[e.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[e.Path] = item
		}
		item[strings.ToLower(e.Method)] = op
		groups[e.Group] = append(groups[e.Group], e)
	}
	tags := groupTags(groups)
	responses := errorResponses()
	pruneSchemas(components, paths, responses)
	h := o.Headers
	if h.AccessToken == "" {
		h = sandbox.NewHeaders(sandbox.DefaultHeaderPrefix)
	}
	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{
			"title":   "E-shop management API (sandbox)",
			"version": "1.0",
			"license": license(),
			"description": "Every endpoint of the e-shop management interface as the sandbox serves it. Send Content-Type " +
				"application/json (or " + h.VendorMediaType + ") on every request, and one of the two token headers.",
		},
		"servers":  []any{map[string]any{"url": o.BaseURL}},
		"security": []any{map[string]any{"privateToken": []any{}}, map[string]any{"accessToken": []any{}}},
		"tags":     tags,
		"paths":    paths,
		"components": map[string]any{
			"schemas":   components,
			"responses": responses,
			"securitySchemes": map[string]any{
				"privateToken": map[string]any{"type": "apiKey", "in": "header", "name": h.PrivateToken,
					"description": "A private API token created in the e-shop's administration."},
				"accessToken": map[string]any{"type": "apiKey", "in": "header", "name": h.AccessToken,
					"description": "An add-on's API access token (from the OAuth server's getAccessToken)."},
			},
		},
	}, nil
}

func operation(e schemas.Endpoint, o Options) (map[string]any, error) {
	op := map[string]any{
		"operationId": e.Operation,
		"tags":        []any{e.Group},
		"summary":     words(e.Operation),
	}
	var params []any
	for _, p := range e.PathParams {
		params = append(params, map[string]any{"name": p, "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
	}
	query, err := api.QueryParams(e.QueryParams, e.RequiredQueryParams)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Operation, err)
	}
	for _, q := range query {
		params = append(params, map[string]any{"name": q.Name, "in": "query", "required": q.Required, "schema": querySchema(q)})
	}
	if params != nil {
		op["parameters"] = params
	}
	desc := ""
	if e.Async {
		desc += "Asynchronous: answers data.jobId; GET /api/system/jobs/{jobId} follows the job. "
	}
	if e.Method == http.MethodPut {
		desc += "The client SDK sends this PUT as POST; the sandbox accepts both. "
	}
	if o.Module != nil {
		if m := o.Module(e.Operation); m != "" {
			desc += "Needs the e-shop module " + m + ": without it the answer is 403 module-not-enabled. "
		}
	}
	if desc != "" {
		op["description"] = strings.TrimSpace(desc)
	}
	if e.Request != "" {
		body, err := schemaFile(e.Request)
		if err != nil {
			return nil, err
		}
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": body}}}
	}
	status := 200
	if o.Status != nil {
		if s := o.Status(e.Operation); s != 0 {
			status = s
		}
	}
	ok := map[string]any{"description": "Success"}
	switch {
	case e.Response != "":
		body, err := schemaFile(e.Response)
		if err != nil {
			return nil, err
		}
		ok["content"] = map[string]any{"application/json": map[string]any{"schema": body}}
	case strings.HasSuffix(e.Path, "/pdf"):
		ok["content"] = map[string]any{"application/pdf": map[string]any{"schema": map[string]any{"type": "string", "contentMediaType": "application/pdf"}}}
	case strings.HasSuffix(e.Path, "/isdoc"):
		ok["content"] = map[string]any{"application/xml": map[string]any{"schema": map[string]any{"type": "string", "contentMediaType": "application/xml"}}}
	default:
		status = 204
		ok["description"] = "Success, no body"
	}
	answers := map[string]any{fmt.Sprint(status): ok}
	for _, a := range errorAnswersOf(e) {
		answers[a.status] = ref("responses", a.name)
	}
	answers["default"] = ref("responses", internalError.name)
	op["responses"] = answers
	return op, nil
}

// querySchema describes a query parameter's value as the API checks it
// (api.CheckQuery).
func querySchema(q api.QueryParam) map[string]any {
	switch q.Kind {
	case api.QueryPositive:
		return map[string]any{"type": "integer", "minimum": 1}
	case api.QueryInteger:
		return map[string]any{"type": "integer"}
	case api.QueryNumber:
		return map[string]any{"type": "string", "pattern": `^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$`}
	case api.QueryBoolean:
		return map[string]any{"type": "boolean"}
	case api.QueryDate:
		return map[string]any{"type": "string", "format": "date", "description": "A date; a whole date-time is taken too."}
	case api.QueryDateTime:
		return map[string]any{"type": "string", "description": "A date-time such as 2024-01-31T12:00:00+0100 (or RFC 3339)."}
	case api.QueryGUID:
		return map[string]any{"type": "string", "format": "uuid"}
	case api.QueryGUIDList:
		return map[string]any{"type": "string", "description": "GUIDs separated by commas."}
	case api.QueryEnum:
		enum := make([]any, len(q.Enum))
		for i, v := range q.Enum {
			enum[i] = v
		}
		return map[string]any{"type": "string", "enum": enum}
	case api.QueryNumberOrBoolean:
		return map[string]any{"type": "string", "description": "A decimal number such as 0.00, or true or false."}
	}
	return map[string]any{"type": "string"}
}

func errorEnvelope() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []any{"data", "errors", "metadata"},
		"properties": map[string]any{
			"data":     map[string]any{"type": "null"},
			"errors":   map[string]any{"type": "array", "items": map[string]any{"$ref": "#/components/schemas/Errors.Item"}},
			"metadata": map[string]any{"$ref": "#/components/schemas/Metadata"},
		},
	}
}

func loadDefs() (map[string]any, error) {
	raw, err := fs.ReadFile(schemas.FS, "defs.json")
	if err != nil {
		return nil, err
	}
	var d struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, err
	}
	return d.Defs, nil
}

// schemaFile reads one endpoint schema with its references moved to
// components.
func schemaFile(path string) (any, error) {
	raw, err := fs.ReadFile(schemas.FS, path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m, "$id")
	delete(m, "$schema")
	return rewrite(m), nil
}

var refRe = regexp.MustCompile(`^(?:\.\./defs\.json)?#/\$defs/(.+)$`)

// rewrite points $refs at components and drops keys OpenAPI tools choke on.
func rewrite(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if k == "$ref" {
				if s, ok := x.(string); ok {
					if m := refRe.FindStringSubmatch(s); m != nil {
						out[k] = "#/components/schemas/" + componentName(m[1])
						continue
					}
				}
			}
			out[k] = rewrite(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = rewrite(x)
		}
		return out
	}
	return v
}

var badName = regexp.MustCompile(`[^A-Za-z0-9._-]`)

// componentName makes a $defs key a valid component name.
func componentName(name string) string { return badName.ReplaceAllString(name, "_") }

// words turns an operation name into a summary: "GetListOfOrders" ->
// "Get list of orders".
func words(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			b.WriteRune(r + 32)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

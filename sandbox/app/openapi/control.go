package openapi

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// ControlPath is where the control plane's own document is served. It is
// a document of its own, not a tag of the API's: the API's document
// describes the real service (a client generated from it must not grow
// sandbox-only calls), and the control plane has no token, no reference
// schemas and its own error causes.
const ControlPath = "/_sandbox/openapi-control.json"

// ControlOptions say what the control document names.
type ControlOptions struct {
	BaseURL string
	Version string // the build's version; "dev" when empty
}

// ControlRoute serves the control plane's document, built per request from
// the live route table, so it lists exactly what the sandbox serves.
func ControlRoute(base func() string, version string, routes func() []api.Route) api.Route {
	return api.Route{Operation: "sandbox.openapi.control", Method: http.MethodGet, Path: ControlPath, Public: true, NoContentType: true,
		Summary: "OpenAPI 3.1 of this control plane",
		Handler: func(r *api.Request) (any, error) {
			var all []api.Route
			if routes != nil {
				all = routes()
			}
			return document(BuildControl(all, ControlOptions{BaseURL: base(), Version: version}))
		}}
}

// controlTag is the one tag of the control document.
const controlTag = "sandbox"

// BuildControl generates the control plane's document from the control
// routes among routes. A route whose path ends in "/" is an alias of the
// same path without it (GET /_sandbox/ and GET /_sandbox) and is left out,
// as OpenAPI tools refuse trailing slashes. Every control route must have
// a summary.
func BuildControl(routes []api.Route, o ControlOptions) (map[string]any, error) {
	version := o.Version
	if version == "" {
		version = "dev"
	}
	paths := map[string]any{}
	ids := map[string]bool{}
	var ctl []api.Route
	for _, rt := range routes {
		if rt.IsControl() {
			ctl = append(ctl, rt)
		}
	}
	sort.SliceStable(ctl, func(i, j int) bool { return ctl[i].Operation < ctl[j].Operation })
	for _, rt := range ctl {
		if strings.HasSuffix(rt.Path, "/") {
			continue
		}
		if rt.Summary == "" {
			return nil, fmt.Errorf("control route %s (%s %s) has no summary", rt.Operation, rt.Method, rt.Path)
		}
		if ids[rt.Operation] {
			return nil, fmt.Errorf("control route %s twice", rt.Operation)
		}
		ids[rt.Operation] = true
		tpl := rt.Template()
		item, _ := paths[tpl].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[tpl] = item
		}
		item[strings.ToLower(rt.Method)] = controlOperation(rt)
	}
	return map[string]any{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
		"info": map[string]any{
			"title":   "Sandbox control plane",
			"version": version,
			"license": license(),
			"description": "The sandbox's own routes under /_sandbox/: health, e-shops and their tokens, reset, the clock, " +
				"events and webhook deliveries, the webhook inbox, limits, add-ons, traffic, faults and the contract report. " +
				"No token is needed. A request that changes state sends Content-Type application/json (or no body).",
		},
		"servers":  []any{map[string]any{"url": o.BaseURL}},
		"security": []any{map[string]any{}},
		"tags": []any{map[string]any{"name": controlTag,
			"description": "The sandbox's control plane (never part of the real service's API). GET /_sandbox/ lists the same routes with one line each."}},
		"paths": paths,
		"components": map[string]any{
			"schemas": map[string]any{
				"Envelope":      controlEnvelope(false),
				"ErrorEnvelope": controlEnvelope(true),
			},
			"responses": map[string]any{
				"Ok": map[string]any{"description": "The envelope; data holds the answer.",
					"content": map[string]any{"application/json": map[string]any{"schema": ref("schemas", "Envelope")}}},
				"Refused": map[string]any{"description": "Refused: a bad parameter or body (invalid-parameter, invalid-json), " +
					"a state-changing request that is not JSON or comes from another site, or a Host the sandbox does not answer to; " +
					"errorCode and message say which.",
					"content": map[string]any{"application/json": map[string]any{"schema": ref("schemas", "ErrorEnvelope")}}},
				"NotFound": map[string]any{"description": "No such e-shop, add-on, status, delivery, install or inbox entry (not-found).",
					"content": map[string]any{"application/json": map[string]any{"schema": ref("schemas", "ErrorEnvelope")}}},
			},
		},
	}, nil
}

func controlOperation(rt api.Route) map[string]any {
	op := map[string]any{
		"operationId": rt.Operation,
		"summary":     rt.Summary,
		"tags":        []any{controlTag},
	}
	responses := map[string]any{"200": ref("responses", "Ok"), "4XX": ref("responses", "Refused")}
	if rt.Answer != nil {
		delete(responses, "200")
		responses["2XX"] = map[string]any{
			"description": "The envelope; data holds the answer (200, or 201 when the call created what it answers, 202 for an accepted replay).",
			"content":     map[string]any{"application/json": map[string]any{"schema": answerEnvelope(AnswerSchema(rt.Answer))}},
		}
	}
	if params := rt.PathParams(); len(params) > 0 {
		var list []any
		for _, p := range params {
			schema := map[string]any{"type": "string"}
			if p.Pattern != "" {
				schema["pattern"] = "^(?:" + p.Pattern + ")$"
			}
			list = append(list, map[string]any{"name": p.Name, "in": "path", "required": true, "schema": schema})
		}
		op["parameters"] = list
		responses["404"] = ref("responses", "NotFound")
	}
	_, noBody := rt.Body.(api.NoData)
	switch {
	case noBody:
		// takes no body: none documented
	case rt.BodySchema != nil:
		op["requestBody"] = map[string]any{"required": true, "description": "A JSON object; its fields are described in the schema.",
			"content": map[string]any{"application/json": map[string]any{"schema": rt.BodySchema}}}
	case rt.Body != nil:
		op["requestBody"] = map[string]any{"required": true, "description": "A JSON object; its fields are described in the schema.",
			"content": map[string]any{"application/json": map[string]any{"schema": AnswerSchema(rt.Body)}}}
	case rt.Method == http.MethodPost || rt.Method == http.MethodPut || rt.Method == http.MethodPatch:
		op["requestBody"] = map[string]any{"required": false, "description": "A JSON object; see the summary for its fields.",
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object"}}}}
	}
	op["responses"] = responses
	return op
}

func ref(kind, name string) map[string]any {
	return map[string]any{"$ref": "#/components/" + kind + "/" + name}
}

// controlEnvelope is the envelope's schema; an error envelope has null
// data and a list of errors.
func controlEnvelope(isError bool) map[string]any {
	data := map[string]any{"description": "The answer; its shape depends on the route."}
	errs := map[string]any{"type": []any{"array", "null"}, "items": errorItem(), "description": "Warnings beside the answer; null when none."}
	if isError {
		data = map[string]any{"type": "null", "description": "Null: the call was refused."}
		errs = map[string]any{"type": "array", "items": errorItem(), "description": "Why the call was refused, the first error first."}
	}
	return map[string]any{
		"type":       "object",
		"required":   []any{"data", "errors", "metadata"},
		"properties": map[string]any{"data": data, "errors": errs, "metadata": metadata()},
	}
}

// answerEnvelope is the envelope of a typed answer: data is the answer,
// errors null or warnings.
func answerEnvelope(data map[string]any) map[string]any {
	if data["description"] == nil {
		data["description"] = "The answer."
	}
	return map[string]any{
		"type":     "object",
		"required": []any{"data", "errors", "metadata"},
		"properties": map[string]any{"data": data, "errors": map[string]any{"type": []any{"array", "null"}, "items": errorItem(),
			"description": "Warnings beside the answer; null when none."},
			"metadata": metadata()},
	}
}

func errorItem() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []any{"errorCode", "message", "instance"},
		"properties": map[string]any{
			"errorCode": map[string]any{"type": "string", "description": "The error's code, e.g. not-found or invalid-parameter."},
			"message":   map[string]any{"type": "string", "description": "What is wrong and how to put it right, in a sentence or two."},
			"instance":  map[string]any{"type": "string", "description": "What the error is about: a field, a parameter or an identifier."},
		},
	}
}

func metadata() map[string]any {
	return map[string]any{
		"type":        "object",
		"description": "About the call.",
		"properties":  map[string]any{"requestId": map[string]any{"type": "string", "description": "The call's request id, as in the traffic history and the logs."}},
	}
}

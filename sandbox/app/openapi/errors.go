package openapi

import (
	"net/http"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// errorAnswer is one error status the sandbox answers, documented once as
// a response component and referenced by every operation that can give it.
type errorAnswer struct {
	status string
	name   string // the response component's name
	desc   string
	// applies says whether an endpoint can answer it.
	applies func(e schemas.Endpoint) bool
}

func always(schemas.Endpoint) bool { return true }

func writes(e schemas.Endpoint) bool { return e.Method != http.MethodGet }

// errorAnswers are the error statuses of the API, in the error table of
// docs/api-behaviour.md; errorAnswersOf picks the ones an endpoint can give.
var errorAnswers = []errorAnswer{
	{"400", "BadRequest", "A bad query parameter (page, itemsPerPage, include, language, a filter: invalid-parameter) " +
		"or a business rule the request breaks (validation-error); instance names the parameter or field.",
		func(e schemas.Endpoint) bool { return len(e.QueryParams) > 0 || writes(e) }},
	{"401", "Unauthorized", "No token, an unknown token, or an expired add-on token " +
		"(missing-access-token, invalid-token, expired-token).", always},
	{"403", "Forbidden", "The token lacks the endpoint's right (invalid-token-no-rights), " +
		"the add-on is suspended (addon-suspended), or the e-shop lacks the module the endpoint needs (module-not-enabled).", always},
	{"404", "NotFound", "An unknown identifier in the path, or one of another e-shop (not-found).",
		func(e schemas.Endpoint) bool { return len(e.PathParams) > 0 }},
	{"409", "Conflict", "A duplicate, a broken relation, or a record still in use (conflict).", writes},
	{"413", "PayloadTooLarge", "A body over 8 MiB, or more entities than the endpoint accepts at once (too-many-entities); nothing changed.",
		func(e schemas.Endpoint) bool { return e.Request != "" }},
	{"422", "UnprocessableEntity", "Content-Type missing or not application/json (invalid-content-type), a body that is not " +
		"JSON or not UTF-8 (invalid-json), or one that does not match the request schema (schema-mismatch); instance names the field.", always},
	{"423", "Locked", "An identical write (same method and URL, same e-shop) is still being processed (locked).", writes},
	{"429", "TooManyRequests", "A 4th concurrent call of one token, a 51st of one IP (too-many-connections), or a full rate bucket " +
		"(rate-limit-exceeded, with Retry-After).", always},
	{"503", "ServiceUnavailable", "The e-shop platform is in maintenance (maintenance).", always},
}

// internalError documents every other answer: a bug, logged with the
// request id and never detailed.
var internalError = errorAnswer{status: "default", name: "InternalError",
	desc: "A bug in the sandbox (internal-error): logged with the request id, details never shown."}

// errorAnswersOf lists the error statuses an endpoint can give.
func errorAnswersOf(e schemas.Endpoint) []errorAnswer {
	var out []errorAnswer
	for _, a := range errorAnswers {
		if a.applies(e) {
			out = append(out, a)
		}
	}
	return out
}

// errorResponses are the response components: one per error status, each
// the error envelope.
func errorResponses() map[string]any {
	out := map[string]any{}
	for _, a := range append(errorAnswers, internalError) {
		out[a.name] = map[string]any{"description": a.desc,
			"content": map[string]any{"application/json": map[string]any{"schema": ref("schemas", "ErrorEnvelope")}}}
	}
	return out
}

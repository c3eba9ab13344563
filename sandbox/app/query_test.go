package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// queryExamples is a value each query kind accepts and one it refuses.
var queryExamples = map[api.QueryKind]struct{ valid, invalid string }{
	api.QueryPositive:        {"1", "abc"},
	api.QueryInteger:         {"-1", "abc"},
	api.QueryNumber:          {"21.00", "abc"},
	api.QueryBoolean:         {"true", "banana"},
	api.QueryDate:            {"2024-01-31", "31.1.2024"},
	api.QueryDateTime:        {"2024-01-31T12:00:00+0100", "yesterday"},
	api.QueryGUID:            {"3f2504e0-4f89-41d3-9a0c-0305e82c3301", "not-a-guid"},
	api.QueryGUIDList:        {"3f2504e0-4f89-41d3-9a0c-0305e82c3301,00000000-0000-4000-8000-000000000000", "3f2504e0-4f89-41d3-9a0c-0305e82c3301,not-a-guid"},
	api.QueryNumberOrBoolean: {"0.00", "banana"},
}

func exampleOf(t *testing.T, p api.QueryParam) (valid, invalid string) {
	t.Helper()
	if p.Kind == api.QueryEnum {
		return p.Enum[0], "banana"
	}
	ex, ok := queryExamples[p.Kind]
	if !ok {
		t.Fatalf("query kind %d of %s has no example in queryExamples", p.Kind, p.Name)
	}
	return ex.valid, ex.invalid
}

var pathVar = regexp.MustCompile(`\{[^}]+\}`)

// TestQueryParametersAsDeclared walks the reference catalogue: on every
// endpoint with a required or typed query parameter, a call without a
// required one, or with a value of the wrong kind, answers 400
// invalid-parameter naming it, and a call with valid values for all of
// them is not refused for any query parameter.
func TestQueryParametersAsDeclared(t *testing.T) {
	s, f := start(t)
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	do := func(e schemas.Endpoint, q url.Values) *sandboxtest.Response {
		path := pathVar.ReplaceAllString(e.Path, "00000000-0000-4000-8000-000000000000")
		// Encode "+" etc. but keep the query readable in failures.
		return s.Do(sandboxtest.Call{Method: e.Method, Path: path + "?" + q.Encode(), PrivateToken: f.FullToken})
	}
	refused := func(r *sandboxtest.Response, name string) bool {
		if r.Status != http.StatusBadRequest {
			return false
		}
		for _, er := range r.Env.Errors {
			if er.Instance == name && er.ErrorCode == sandbox.CodeInvalidParameter && strings.Contains(er.Message, name) {
				return true
			}
		}
		return false
	}
	endpoints, required := 0, 0
	for _, e := range cat.Endpoints {
		params, err := api.QueryParams(e.QueryParams, e.RequiredQueryParams)
		if err != nil {
			t.Fatalf("%s %s: %v", e.Method, e.Path, err)
		}
		var checked []api.QueryParam
		valid := url.Values{}
		for _, p := range params {
			if p.Kind == api.QueryText && !p.Required {
				continue
			}
			checked = append(checked, p)
			if p.Required {
				required++
			}
			if p.Kind == api.QueryText {
				valid.Set(p.Name, "x")
			} else {
				v, _ := exampleOf(t, p)
				valid.Set(p.Name, v)
			}
		}
		if len(checked) == 0 {
			continue
		}
		endpoints++
		t.Run(e.Operation, func(t *testing.T) {
			for _, p := range checked {
				if p.Required {
					q := cloneValues(valid)
					q.Del(p.Name)
					if r := do(e, q); !refused(r, p.Name) {
						t.Errorf("%s %s without required %s: %d %s, want 400 invalid-parameter naming it", e.Method, e.Path, p.Name, r.Status, r.Body)
					}
				}
				if p.Kind == api.QueryText {
					continue
				}
				_, bad := exampleOf(t, p)
				q := cloneValues(valid)
				q.Set(p.Name, bad)
				if r := do(e, q); !refused(r, p.Name) {
					t.Errorf("%s %s with %s=%s: %d %s, want 400 invalid-parameter naming it", e.Method, e.Path, p.Name, bad, r.Status, r.Body)
				}
			}
			r := do(e, valid)
			for _, p := range params {
				if refused(r, p.Name) {
					t.Errorf("%s %s?%s: refused %s: %s", e.Method, e.Path, valid.Encode(), p.Name, r.Body)
				}
			}
		})
	}
	// The reference has 9 endpoints with a required query parameter, 10
	// required parameters in all; the walk must have met them.
	if required != 10 || endpoints < 80 {
		t.Errorf("walked %d endpoints with %d required parameters; want at least 80 and exactly 10", endpoints, required)
	}
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

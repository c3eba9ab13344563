package api

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// TestBodyNormalizedBeforeTheSchema: Request.Body, the one body decoder,
// applies the route's declared normalisation before the request schema
// check (a digit string where the schema types an integer, as the spec
// accepts an order's statusId), on the route and on its alias; a route
// without one still answers 422 for the same body.
func TestBodyNormalizedBeforeTheSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	if err := c.AddResource("n.json", strings.NewReader(`{"type":"object","properties":{"data":{"type":"object","properties":{"n":{"type":"integer"}}}}}`)); err != nil {
		t.Fatal(err)
	}
	sch := c.MustCompile("n.json")
	s := NewServer(Options{Headers: sandbox.NewHeaders("Service"), IDs: sandbox.NewIDs(42), Auth: fakeAuth{},
		RequestSchema: func(string) *jsonschema.Schema { return sch }})
	echo := func(r *Request) (any, error) {
		b, err := r.Body()
		if err != nil {
			return nil, err
		}
		return b["data"], nil
	}
	digits := func(body map[string]any) {
		if d, ok := body["data"].(map[string]any); ok {
			if v, ok := d["n"].(string); ok {
				d["n"] = json.Number(v)
			}
		}
	}
	if err := s.HandleRoutes([]Route{
		{Operation: "Loose", Method: "PATCH", Path: "/api/loose", Group: "Things", Handler: echo, Normalize: digits,
			Aliases: []Alias{{Method: "PATCH", Path: "/loose"}}},
		{Operation: "Strict", Method: "PATCH", Path: "/api/strict", Group: "Things", Handler: echo},
	}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	for _, tc := range []struct {
		path   string
		status int
	}{{"/api/loose", 200}, {"/loose", 200}, {"/api/strict", 422}} {
		resp, e, raw := call(t, ts, "PATCH", tc.path, "all", "application/json", `{"data":{"n":"5"}}`)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.path, resp.StatusCode, raw, tc.status)
			continue
		}
		if tc.status == 200 && string(e.Data) != `{"n":5}` {
			t.Errorf("%s: data %s, want the number 5", tc.path, e.Data)
		}
	}
}

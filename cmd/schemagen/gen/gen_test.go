package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// synthetic builds a small reference document for unit tests.
func synthetic(t *testing.T) *reference {
	t.Helper()
	raw := `{
	  "$defs": {
	    "Thing": {"type": "object", "properties": {
	      "kind": {"type": ["string", "null"]},
	      "mode": {"type": "string", "enum": ["a", "b", "c"]},
	      "count": {"type": "integer"},
	      "rate": {"type": "string", "pattern": "^[0-9]+$"},
	      "fixed": {"type": "string", "const": "x"}
	    }},
	    "Errors.Item": {"type": "object", "properties": {"errorCode": {"type": "string"}}}
	  },
	  "endpoints": [
	    {"method": "GET", "path": "/api/things/{id}", "operation": "GetThing", "group": "Things",
	     "pageable": false, "async": false, "snapshot": false, "responseKind": "json",
	     "pathParams": [{"name": "id", "required": true}], "queryParams": [{"name": "language", "required": false}, {"name": "from", "required": true}],
	     "requestBody": null,
	     "responseBody": {"type": "object", "properties": {
	       "data": {"type": ["object", "null"], "properties": {"thing": {"$ref": "#/$defs/Thing"}}},
	       "errors": {"type": ["array", "null"], "items": {"$ref": "#/$defs/Errors.Item"}}}}}
	  ]
	}`
	v, err := decodeJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	r, err := newReference(v.(map[string]any))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestPatchOps(t *testing.T) {
	cases := []struct {
		name    string
		at      string
		op      patchOp
		wantErr string
		check   func(node map[string]any) bool
	}{
		{"enum on nullable keeps null", "/$defs/Thing/properties/kind", enum(strs("p", "q")), "",
			func(n map[string]any) bool { return jsonEqual(n["enum"], []any{"p", "q", nil}) }},
		{"enum intersects existing enum", "/$defs/Thing/properties/mode", enum(strs("c", "a", "z")), "",
			func(n map[string]any) bool { return jsonEqual(n["enum"], []any{"c", "a"}) }},
		{"enum without overlap fails", "/$defs/Thing/properties/mode", enum(strs("z")), "do not intersect", nil},
		{"string enum on integer fails", "/$defs/Thing/properties/count", enum(strs("a")), "type", nil},
		{"integer enum on integer", "/$defs/Thing/properties/count", enum(ints(1, 2)), "",
			func(n map[string]any) bool { return jsonEqual(n["enum"], []any{1, 2}) }},
		{"enum over const fails", "/$defs/Thing/properties/fixed", enum(strs("x")), "const", nil},
		{"enum with an added name", "/$defs/Thing/properties/kind", enum(strs("p")).and("p2"), "",
			func(n map[string]any) bool { return jsonEqual(n["enum"], []any{"p", "p2", nil}) }},
		{"added name already listed fails", "/$defs/Thing/properties/kind", enum(strs("p")).and("p"), "needs no addition", nil},
		{"existing pattern kept", "/$defs/Thing/properties/rate", pattern(`^[0-9]{2}$`), "",
			func(n map[string]any) bool { return n["pattern"] == "^[0-9]+$" }},
		{"pattern on integer fails", "/$defs/Thing/properties/count", pattern(`^x$`), "type", nil},
		{"length", "/$defs/Thing/properties/rate", length(3, 3), "",
			func(n map[string]any) bool { return jsonEqual(n["minLength"], 3) && jsonEqual(n["maxLength"], 3) }},
		{"format", "/$defs/Thing/properties/kind", format("email"), "",
			func(n map[string]any) bool { return n["format"] == "email" }},
		{"required", "/$defs/Thing", required("mode", "count"), "",
			func(n map[string]any) bool { return jsonEqual(n["required"], []any{"count", "mode"}) }},
		{"required unknown property fails", "/$defs/Thing", required("nope"), "not a property", nil},
		{"requireWhen", "/$defs/Thing", requireWhen("mode", []string{"a"}, "rate"), "",
			func(n map[string]any) bool { a, _ := n["allOf"].([]any); return len(a) == 1 }},
		{"const already there", "/$defs/Thing/properties/fixed", constant("x"), "", nil},
		{"const differs fails", "/$defs/Thing/properties/fixed", constant("y"), "expected", nil},
		{"missing target fails", "/$defs/Thing/properties/absent", enum(strs("a")), "target missing", nil},
		{"endpoint by operation", "/endpoints/GetThing/responseBody/properties/data", required("thing"), "",
			func(n map[string]any) bool { return jsonEqual(n["required"], []any{"thing"}) }},
		{"unknown operation fails", "/endpoints/Nope/responseBody", required("x"), "no endpoint", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := synthetic(t)
			err := applyPatchTable(r, []patch{{c.at, c.op, "test"}}, io.Discard)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("want error containing %q, got %v", c.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				node, _ := resolveSchema(r, c.at)
				if !c.check(node) {
					b, _ := json.Marshal(node)
					t.Errorf("unexpected result %s", b)
				}
			}
		})
	}
}

func TestCheckEndpoints(t *testing.T) {
	for _, c := range []struct {
		path    string
		params  []any
		wantErr string
	}{
		{"/api/things/{id}", []any{map[string]any{"name": "id"}}, ""},
		{"/api/products/{guid}/relatedProducts", []any{map[string]any{"name": "guid"}}, ""},
		{"/api_orders_{id}_thing.yaml", []any{map[string]any{"name": "id"}}, "malformed path"},
		{"/api/things/", nil, "malformed path"},
		{"/api/things/{id}", nil, "placeholders"},
	} {
		r := synthetic(t)
		r.byOp["GetThing"]["path"] = c.path
		r.byOp["GetThing"]["pathParams"] = c.params
		err := checkEndpoints(r)
		if (c.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.wantErr)) {
			t.Errorf("%s: want error %q, got %v", c.path, c.wantErr, err)
		}
	}
}

func TestRewriteRefs(t *testing.T) {
	r := synthetic(t)
	got, err := rewriteRefs(r, map[string]any{"items": map[string]any{"$ref": "#/$defs/Errors.Item"}})
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(got, map[string]any{"items": map[string]any{"$ref": "../defs.json#/$defs/Errors.Item"}}) {
		t.Errorf("got %v", got)
	}
	for _, bad := range []string{"#/$defs/Missing", "other.json#/x", "#/definitions/Thing"} {
		if _, err := rewriteRefs(r, map[string]any{"$ref": bad}); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

func TestRenderSynthetic(t *testing.T) {
	r := synthetic(t)
	r.doc["oauth"] = map[string]any{
		"codeExchange":   map[string]any{"requestBody": map[string]any{"type": "object"}, "responseBody": map[string]any{"type": "object"}},
		"apiAccessToken": map[string]any{"responseBody": map[string]any{"type": "object"}},
	}
	r.doc["jobs"] = map[string]any{"record": map[string]any{"type": "object"}, "statuses": []any{"pending"}}
	r.doc["webhooks"] = map[string]any{"payload": map[string]any{"$ref": "#/$defs/Thing"}, "events": []any{"a:b"}}
	r.doc["valueObjects"] = map[string]any{}
	out, err := render(r)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range out.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	want := "defs.json endpoints/GetThing.response.json index.json jobs/job.json oauth/access-token.response.json oauth/token.request.json oauth/token.response.json webhooks/payload.json"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("files:\n got %s\nwant %s", got, want)
	}
	resp := string(out.Files["endpoints/GetThing.response.json"])
	for _, s := range []string{
		`"$id": "https://sandbox.local/schemas/endpoints/GetThing.response.json"`,
		`"$schema": "https://json-schema.org/draft/2020-12/schema"`,
		`"$ref": "../defs.json#/$defs/Thing"`,
	} {
		if !strings.Contains(resp, s) {
			t.Errorf("response file lacks %s:\n%s", s, resp)
		}
	}
	if !strings.HasSuffix(resp, "}\n") || strings.Contains(resp, "\t") {
		t.Error("file is not two-space indented with a trailing newline")
	}
	if !strings.Contains(string(out.Files["index.json"]), `"request": null`) {
		t.Error("index.json: missing request null")
	}
	// The reference's required flag reaches the index, for the API's
	// query check; optional parameters are not listed there.
	if idx := string(out.Files["index.json"]); !strings.Contains(idx, "\"requiredQueryParams\": [\n        \"from\"\n      ]") {
		t.Errorf("index.json: required query parameter from not listed:\n%s", idx)
	}
}

func TestIsGenerated(t *testing.T) {
	for rel, want := range map[string]bool{
		"index.json": true, "defs.json": true, "endpoints/X.request.json": true, "oauth/token.request.json": true,
		"schemas.go": false, "scenario.schema.json": false, "endpoints/sub/x.json": false, "endpoints/README.md": false,
	} {
		if got := IsGenerated(rel); got != want {
			t.Errorf("IsGenerated(%q) = %v", rel, got)
		}
	}
}

// realReference returns the path of the shared reference, or skips.
func realReference(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
	ref := filepath.Join(dir, "..", "shared", "reference", "api.json")
	if _, err := os.Stat(ref); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("reference %s not present (expected at <repo>/../shared)", ref)
	}
	return ref
}

func TestGenerateIsDeterministic(t *testing.T) {
	ref := realReference(t)
	var log bytes.Buffer
	a, err := Generate(ref, &log)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(ref, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != len(b.Files) {
		t.Fatalf("file counts differ: %d vs %d", len(a.Files), len(b.Files))
	}
	for name, content := range a.Files {
		if !bytes.Equal(content, b.Files[name]) {
			t.Errorf("%s differs between runs", name)
		}
	}
	for _, want := range []string{
		"corrected path of CreateProformaInvoiceFromOrder", "constraint patches:",
		// Request-side widening on the current reference (requestside.go):
		// every request-side entity with a value object is request-only.
		"request encoding: integer value object as digit string: 19 fields",
		`request encoding: null value object as "": 154 fields`,
		"0 entities copied to <Def>@request",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}

// TestGenerateFailsOnDrift edits a copy of the reference the way an upstream
// change would and expects generation to stop.
func TestGenerateFailsOnDrift(t *testing.T) {
	ref := realReference(t)
	for _, c := range []struct {
		name    string
		edit    func(doc map[string]any)
		wantErr string
	}{
		{"proforma path fixed upstream", func(doc map[string]any) {
			for _, e := range doc["endpoints"].([]any) {
				if m := e.(map[string]any); m["operation"] == "CreateProformaInvoiceFromOrder" {
					m["path"] = "/api/orders/{code}/proforma-invoice"
				}
			}
		}, "remove the correction"},
		{"new broken path", func(doc map[string]any) {
			doc["endpoints"].([]any)[0].(map[string]any)["path"] = "/api_abandoned-carts_snapshot.yaml"
		}, "malformed path"},
		{"patch target removed", func(doc map[string]any) {
			delete(doc["$defs"].(map[string]any)["Product"].(map[string]any)["properties"].(map[string]any), "visibility")
		}, "target missing"},
		{"patch type changed", func(doc map[string]any) {
			doc["$defs"].(map[string]any)["OrderCreate"].(map[string]any)["properties"].(map[string]any)["billingMethodCode"] = map[string]any{"type": "string"}
		}, "integer code list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := readJSON(ref)
			if err != nil {
				t.Fatal(err)
			}
			doc := v.(map[string]any)
			c.edit(doc)
			b, err := encodeJSON(doc)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "api.json")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Generate(p, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("want error containing %q, got %v", c.wantErr, err)
			}
		})
	}
}

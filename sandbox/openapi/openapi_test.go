package openapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/openapi"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// TestDocument: every reference endpoint is an operation, every $ref
// resolves, and every schema of the document compiles as JSON Schema
// 2020-12 (OpenAPI 3.1's dialect).
func TestDocument(t *testing.T) {
	doc, err := openapi.Build(openapi.Options{BaseURL: "http://127.0.0.1:1", Headers: sandbox.NewHeaders("Service"),
		Status: func(op string) int {
			if op == "CreateBrand" {
				return 201
			}
			return 0
		}})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		OpenAPI    string                               `json:"openapi"`
		Paths      map[string]map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", d.OpenAPI)
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, item := range d.Paths {
		for _, op := range item {
			id, _ := op["operationId"].(string)
			if ids[id] {
				t.Fatalf("operationId %s twice", id)
			}
			ids[id] = true
		}
	}
	for _, e := range cat.Endpoints {
		op, ok := d.Paths[e.Path][strings.ToLower(e.Method)]
		if !ok || op["operationId"] != e.Operation {
			t.Fatalf("%s %s (%s) missing", e.Method, e.Path, e.Operation)
		}
	}
	if len(ids) != len(cat.Endpoints) {
		t.Fatalf("%d operations, want %d", len(ids), len(cat.Endpoints))
	}
	if _, ok := d.Paths["/api/brands"]["post"]["responses"].(map[string]any)["201"]; !ok {
		t.Fatal("CreateBrand's documented 201 is missing")
	}
	for _, m := range bytesFind(raw, `"$ref":"`) {
		name := strings.TrimPrefix(m, "#/components/schemas/")
		if _, ok := d.Components.Schemas[name]; !ok || name == m {
			t.Fatalf("$ref %s does not resolve", m)
		}
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource("https://sandbox.local/openapi.json", bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	for name := range d.Components.Schemas {
		if _, err := c.Compile("https://sandbox.local/openapi.json#/components/schemas/" + jsonPointer(name)); err != nil {
			t.Fatalf("component %s: %v", name, err)
		}
	}
}

func jsonPointer(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// bytesFind lists the string values following a marker.
func bytesFind(raw []byte, marker string) []string {
	var out []string
	for {
		i := bytes.Index(raw, []byte(marker))
		if i < 0 {
			return out
		}
		raw = raw[i+len(marker):]
		j := bytes.IndexByte(raw, '"')
		out = append(out, string(raw[:j]))
	}
}

// TestServed: the control plane serves the document with the sandbox's
// address and header names.
func TestServed(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{HeaderPrefix: "Acme"})
	resp, err := http.Get(s.URL + openapi.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var d map[string]any
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	if d["servers"].([]any)[0].(map[string]any)["url"] != s.URL {
		t.Fatalf("servers %v, want %s", d["servers"], s.URL)
	}
	if !bytes.Contains(raw, []byte(`"Acme-Private-API-Token"`)) {
		t.Fatal("the header prefix is not used")
	}
}

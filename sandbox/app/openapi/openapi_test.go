package openapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/openapi"
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
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
		Info    struct {
			License struct{ Name, Identifier string }
		}
		Tags       []struct{ Name, Description string }
		Components struct {
			Schemas   map[string]any `json:"schemas"`
			Responses map[string]any `json:"responses"`
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
	// Query parameters: required as the reference says, typed as the API checks them.
	required := 0
	for _, e := range cat.Endpoints {
		params, _ := d.Paths[e.Path][strings.ToLower(e.Method)]["parameters"].([]any)
		for _, p := range params {
			pm := p.(map[string]any)
			if pm["in"] != "query" {
				continue
			}
			if pm["required"] == true {
				required++
				if !slices.Contains(e.RequiredQueryParams, pm["name"].(string)) {
					t.Errorf("%s: query parameter %s documented required", e.Operation, pm["name"])
				}
			}
		}
	}
	if required != 10 {
		t.Errorf("%d required query parameters documented, the reference has 10", required)
	}
	for _, p := range d.Paths["/api/discount-coupons/snapshot"]["get"]["parameters"].([]any) {
		if pm := p.(map[string]any); pm["name"] == "template" && pm["schema"].(map[string]any)["format"] != "uuid" {
			t.Errorf("template: schema %v, want a uuid", pm["schema"])
		}
	}
	if _, ok := d.Paths["/api/brands"]["post"]["responses"].(map[string]any)["201"]; !ok {
		t.Fatal("CreateBrand's documented 201 is missing")
	}
	referenced := map[string]bool{}
	for _, m := range bytesFind(raw, `"$ref":"`) {
		referenced[m] = true
		var ok bool
		if name, isSchema := strings.CutPrefix(m, "#/components/schemas/"); isSchema {
			_, ok = d.Components.Schemas[name]
		} else if name, isResp := strings.CutPrefix(m, "#/components/responses/"); isResp {
			_, ok = d.Components.Responses[name]
		}
		if !ok {
			t.Fatalf("$ref %s does not resolve", m)
		}
	}
	for name := range d.Components.Schemas {
		if !referenced["#/components/schemas/"+name] {
			t.Errorf("component schema %s is never used", name)
		}
	}
	for name := range d.Components.Responses {
		if !referenced["#/components/responses/"+name] {
			t.Errorf("component response %s is never used", name)
		}
	}
	if d.Info.License.Name == "" || d.Info.License.Identifier == "" {
		t.Error("info.license lacks a name or an identifier")
	}
	for _, tag := range d.Tags {
		if tag.Description == "" {
			t.Errorf("tag %s has no description", tag.Name)
		}
	}
	if len(d.Tags) != 64 {
		t.Errorf("%d tags, want the reference's 64 groups", len(d.Tags))
	}
	// Every operation documents its error answers; a few by name.
	for path, item := range d.Paths {
		for method, op := range item {
			answers := op["responses"].(map[string]any)
			n := 0
			for status := range answers {
				if strings.HasPrefix(status, "4") {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s %s documents no 4xx answer", method, path)
			}
		}
	}
	for _, tc := range []struct {
		method, path string
		want, not    []string
	}{
		{"get", "/api/orders/{code}", []string{"401", "403", "404", "422", "429", "503"}, []string{"409", "413", "423"}},
		{"get", "/api/orders", []string{"400", "401", "403", "422", "429"}, []string{"404", "409", "423"}},
		{"post", "/api/brands", []string{"400", "401", "403", "409", "413", "422", "423", "429"}, []string{"404"}},
	} {
		answers := d.Paths[tc.path][tc.method]["responses"].(map[string]any)
		for _, st := range tc.want {
			if _, ok := answers[st]; !ok {
				t.Errorf("%s %s: %s not documented", tc.method, tc.path, st)
			}
		}
		for _, st := range tc.not {
			if _, ok := answers[st]; ok {
				t.Errorf("%s %s: %s documented but never answered", tc.method, tc.path, st)
			}
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

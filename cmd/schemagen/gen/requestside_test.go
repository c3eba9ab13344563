package gen

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// encodingReference is a small reference with one entity shared by a request
// and a response (Doc), one request-only entity (DocCreate) and one entity
// without value objects (Note).
func encodingReference(t *testing.T) *reference {
	t.Helper()
	raw := `{
	  "valueObjects": {
	    "TypeVarSymbol": {"type": "integer", "x-sdk-request-encoding": "string", "x-value-object": "TypeVarSymbol"},
	    "TypeVarSymbolNullable": {"type": ["integer", "null"], "x-sdk-request-encoding": "string", "x-value-object": "TypeVarSymbolNullable"},
	    "TypeDate": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "x-value-object": "TypeDate"},
	    "TypeDateNullable": {"type": ["string", "null"], "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "x-value-object": "TypeDateNullable"},
	    "TypeGuidUnlimited": {"type": "string", "maxLength": 36, "x-value-object": "TypeGuidUnlimited"}
	  },
	  "$defs": {
	    "Doc": {"type": "object", "properties": {
	      "varSymbol": {"type": "integer", "x-sdk-request-encoding": "string", "x-value-object": "TypeVarSymbol"},
	      "dueDate": {"type": ["string", "null"], "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "x-value-object": "TypeDateNullable", "deprecated": true},
	      "taxDate": {"type": ["string", "null"], "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "x-value-object": "TypeDate"},
	      "note": {"anyOf": [{"$ref": "#/$defs/Note"}, {"type": "null"}]}
	    }},
	    "DocCreate": {"type": "object", "properties": {
	      "doc": {"$ref": "#/$defs/Doc"},
	      "specSymbol": {"type": ["integer", "null"], "x-sdk-request-encoding": "string", "x-value-object": "TypeVarSymbolNullable"},
	      "guid": {"type": ["string", "null"], "maxLength": 36, "x-value-object": "TypeGuidUnlimited"}
	    }},
	    "Note": {"type": "object", "properties": {"text": {"type": "string"}}}
	  },
	  "endpoints": [
	    {"method": "POST", "path": "/api/docs", "operation": "CreateDoc", "group": "Docs",
	     "pageable": false, "async": false, "snapshot": false, "responseKind": "json",
	     "pathParams": [], "queryParams": [],
	     "requestBody": {"type": "object", "properties": {"data": {"$ref": "#/$defs/DocCreate"}}},
	     "responseBody": {"type": "object", "properties": {"data": {"type": "object", "properties": {"doc": {"$ref": "#/$defs/Doc"}}}}}}
	  ],
	  "oauth": {
	    "codeExchange": {"requestBody": {"type": "object"}, "responseBody": {"type": "object"}},
	    "apiAccessToken": {"responseBody": {"type": "object"}}
	  },
	  "jobs": {"record": {"type": "object"}, "statuses": ["pending"]},
	  "webhooks": {"payload": {"type": "object"}, "events": ["a:b"]}
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

func TestRelaxRequestEncodingStructure(t *testing.T) {
	r := encodingReference(t)
	origDoc := deepCopy(r.defs["Doc"])
	var log bytes.Buffer
	res, err := relaxRequestEncoding(r, &log)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(r.defs["Doc"], origDoc) {
		t.Error("the shared entity Doc was modified; it must stay strict for responses")
	}
	if !jsonEqual(res.copied, []string{"Doc"}) || !jsonEqual(res.inPlace, []string{"DocCreate"}) {
		t.Errorf("copied %v, in place %v", res.copied, res.inPlace)
	}
	if _, ok := r.defs["Note@request"]; ok {
		t.Error("Note has no value object and must not be copied")
	}
	if got := len(res.fields[requestEncodings[0].name]); got != 2 {
		t.Errorf("integer rewrites: %d, want 2 (Doc@request.varSymbol, DocCreate.specSymbol)", got)
	}
	if got := len(res.fields[requestEncodings[1].name]); got != 2 {
		t.Errorf(`"" rewrites: %d, want 2 (Doc@request.dueDate, DocCreate.specSymbol)`, got)
	}
	if res.requests != 1 {
		t.Errorf("request bodies affected: %d", res.requests)
	}
	check := func(at string, want any) {
		t.Helper()
		got, err := resolve(r, at)
		if err != nil {
			t.Fatal(err)
		}
		if !jsonEqual(got, want) {
			b, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s:\n got %s\nwant %s", at, b, w)
		}
	}
	check("/$defs/DocCreate/properties/doc/$ref", "#/$defs/Doc@request")
	check("/endpoints/CreateDoc/requestBody/properties/data/$ref", "#/$defs/DocCreate")
	check("/endpoints/CreateDoc/responseBody/properties/data/properties/doc/$ref", "#/$defs/Doc")
	check("/$defs/Doc@request/properties/note/anyOf/0/$ref", "#/$defs/Note")
	check("/$defs/Doc@request/properties/varSymbol/type", []any{"integer", "string"})
	check("/$defs/Doc@request/properties/varSymbol/pattern", integerStringPattern)
	check("/$defs/Doc@request/properties/dueDate/deprecated", true)
	check("/$defs/Doc@request/properties/dueDate/x-value-object", "TypeDateNullable")
	check("/$defs/Doc@request/properties/dueDate/anyOf/1", map[string]any{"const": ""})
	check("/$defs/Doc@request/properties/dueDate/anyOf/0/format", "date")
	// A nullable field holding a value object that does not accept null:
	// the SDK sends a JSON null, not "".
	check("/$defs/Doc@request/properties/taxDate", origDoc.(map[string]any)["properties"].(map[string]any)["taxDate"])
	check("/$defs/DocCreate/properties/guid/type", []any{"string", "null"})
	check("/$defs/DocCreate/properties/specSymbol/anyOf/0/type", []any{"integer", "string", "null"})
	for _, want := range []string{"/$defs/Doc@request/properties/varSymbol", "request encoding: 1 request bodies affected; 1 entities copied"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

// TestRelaxRequestEncodingCompiles renders the synthetic reference and
// validates instances against the rendered files, so the "@request" key is
// proven to work as a $ref fragment.
func TestRelaxRequestEncodingCompiles(t *testing.T) {
	r := encodingReference(t)
	if _, err := relaxRequestEncoding(r, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := checkRefs(r); err != nil {
		t.Fatal(err)
	}
	out, err := render(r)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	for name, b := range out.Files {
		if name == indexFile {
			continue
		}
		if err := c.AddResource(BaseURL+name, bytes.NewReader(b)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	compile := func(rel string) *jsonschema.Schema {
		sch, err := c.Compile(BaseURL + rel)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		return sch
	}
	req := compile("endpoints/CreateDoc.request.json")
	resp := compile("endpoints/CreateDoc.response.json")
	for _, c := range []struct {
		name     string
		sch      *jsonschema.Schema
		instance string
		valid    bool
	}{
		{"request varSymbol integer", req, `{"data":{"doc":{"varSymbol":123}}}`, true},
		{"request varSymbol digit string", req, `{"data":{"doc":{"varSymbol":"123"}}}`, true},
		{"request varSymbol negative string", req, `{"data":{"doc":{"varSymbol":"-7"}}}`, true},
		{"request varSymbol not digits", req, `{"data":{"doc":{"varSymbol":"12a"}}}`, false},
		{"request varSymbol empty (value object does not accept null)", req, `{"data":{"doc":{"varSymbol":""}}}`, false},
		{"request dueDate empty", req, `{"data":{"doc":{"dueDate":""}}}`, true},
		{"request dueDate null", req, `{"data":{"doc":{"dueDate":null}}}`, true},
		{"request dueDate impossible", req, `{"data":{"doc":{"dueDate":"2023-02-29"}}}`, false},
		{"request taxDate empty (value object does not accept null)", req, `{"data":{"doc":{"taxDate":""}}}`, false},
		{"request specSymbol empty (nullable integer value object)", req, `{"data":{"specSymbol":""}}`, true},
		{"request specSymbol digit string", req, `{"data":{"specSymbol":"42"}}`, true},
		{"response varSymbol digit string", resp, `{"data":{"doc":{"varSymbol":"123"}}}`, false},
		{"response varSymbol integer", resp, `{"data":{"doc":{"varSymbol":123}}}`, true},
		{"response dueDate empty", resp, `{"data":{"doc":{"dueDate":""}}}`, false},
	} {
		v, err := decodeJSON([]byte(c.instance))
		if err != nil {
			t.Fatal(err)
		}
		err = c.sch.Validate(v)
		if c.valid && err != nil {
			t.Errorf("%s: valid instance rejected: %v", c.name, err)
		}
		if !c.valid && err == nil {
			t.Errorf("%s: invalid instance accepted", c.name)
		}
	}
}

func TestRelaxRequestEncodingFailsOnDrift(t *testing.T) {
	docCreate := func(r *reference) map[string]any {
		return r.defs["DocCreate"].(map[string]any)["properties"].(map[string]any)
	}
	for _, c := range []struct {
		name    string
		edit    func(r *reference)
		wantErr string
	}{
		{"unknown value object", func(r *reference) {
			docCreate(r)["guid"].(map[string]any)["x-value-object"] = "TypeNope"
		}, "not in the reference's valueObjects"},
		{"unknown encoding", func(r *reference) {
			docCreate(r)["specSymbol"].(map[string]any)["x-sdk-request-encoding"] = "base64"
			r.doc["valueObjects"].(map[string]any)["TypeVarSymbolNullable"].(map[string]any)["x-sdk-request-encoding"] = "base64"
		}, "unknown x-sdk-request-encoding"},
		{"field and value object disagree", func(r *reference) {
			delete(docCreate(r)["specSymbol"].(map[string]any), "x-sdk-request-encoding")
		}, "disagree"},
		{"string-encoded integer with a bound", func(r *reference) {
			docCreate(r)["specSymbol"].(map[string]any)["minimum"] = json.Number("1")
		}, `already has "minimum"`},
		{"nullable value object on a non-nullable field", func(r *reference) {
			docCreate(r)["specSymbol"].(map[string]any)["type"] = "integer"
		}, "accepts null but the field"},
		{"reference already has a request copy", func(r *reference) {
			r.defs["Doc@request"] = map[string]any{}
		}, "already has request-side copy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := encodingReference(t)
			c.edit(r)
			_, err := relaxRequestEncoding(r, io.Discard)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("want error containing %q, got %v", c.wantErr, err)
			}
		})
	}
}

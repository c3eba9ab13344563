package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

type fakeAuth struct{}

func (fakeAuth) Identify(tok string, private bool) auth.Identity {
	var t *auth.Token
	switch tok {
	case "all":
		t = &auth.Token{Kind: auth.KindPrivate, EshopID: 7, AllGroups: true}
	case "read":
		t = &auth.Token{Kind: auth.KindPrivate, EshopID: 7, Rights: map[string]string{"Things": "read"}}
	default:
		return auth.Identity{Err: sandbox.Errorf(sandbox.KindUnauthorized, sandbox.CodeInvalidToken, "access-token", "bad")}
	}
	return auth.Identity{Token: t, Principal: &auth.Principal{Token: t}}
}

const thingSchema = `{"type":"object","properties":{"data":{"type":"object","properties":{"name":{"type":"string"},"items":{"type":"array","items":{"type":"object","properties":{"vatRate":{"type":"string","pattern":"^[0-9]+\\.[0-9]{2}$"}}}}}}}}`

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource("thing.json", strings.NewReader(thingSchema)); err != nil {
		t.Fatal(err)
	}
	sch := c.MustCompile("thing.json")
	s := NewServer(Options{Headers: sandbox.NewHeaders("Service"), IDs: sandbox.NewIDs(42), Auth: fakeAuth{},
		RequestSchema: func(op string) *jsonschema.Schema {
			if op == "CreateThing" {
				return sch
			}
			return nil
		}})
	err := s.HandleRoutes([]Route{
		{Operation: "GetThings", Method: "GET", Path: "/api/things", Group: "Things", Handler: func(r *Request) (any, error) {
			page, per, err := r.Paging(20, 50)
			if err != nil {
				return nil, err
			}
			inc, err := r.Includes([]string{"images", "filteringParameters"})
			if err != nil {
				return nil, err
			}
			return map[string]any{"page": page, "perPage": per, "include": inc, "eshop": r.Eshop}, nil
		}},
		{Operation: "GetThingSpecial", Method: "GET", Path: "/api/things/special", Group: "Things", Handler: func(r *Request) (any, error) {
			return "special", nil
		}},
		{Operation: "GetThing", Method: "GET", Path: "/api/things/{id}", Group: "Things", Handler: func(r *Request) (any, error) {
			if r.Var("id") == "boom" {
				panic("kaboom")
			}
			if r.Var("id") == "fail" {
				return nil, io.ErrUnexpectedEOF
			}
			return map[string]any{"id": r.Var("id")}, nil
		}},
		{Operation: "CreateThing", Method: "POST", Path: "/api/things", Group: "Things", Handler: func(r *Request) (any, error) {
			b, err := r.Body()
			if err != nil {
				return nil, err
			}
			return &Result{Status: 201, Data: b["data"]}, nil
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

type env struct {
	Data     json.RawMessage `json:"data"`
	Errors   []ErrorItem     `json:"errors"`
	Metadata *EnvelopeMeta   `json:"metadata"`
}

func call(t *testing.T, ts *httptest.Server, method, path, token, ct, body string) (*http.Response, env, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	if token != "" {
		req.Header.Set("Service-Private-API-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e env
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatalf("%s %s: not an envelope: %s", method, path, raw)
	}
	return resp, e, string(raw)
}

var uuidShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestEnvelopeAndErrors(t *testing.T) {
	ts := newTestServer(t)
	const js = "application/json"
	tests := []struct {
		name, method, path, token, ct, body string
		status                              int
		code, instance                      string
		msgHas                              string
	}{
		{"ok", "GET", "/api/things", "all", js, "", 200, "", "", ""},
		{"literal path before variable", "GET", "/api/things/special", "all", js, "", 200, "", "", ""},
		{"missing token", "GET", "/api/things", "", js, "", 401, sandbox.CodeMissingToken, "access-token", ""},
		{"invalid token", "GET", "/api/things", "nope", js, "", 401, sandbox.CodeInvalidToken, "access-token", ""},
		{"no write right", "POST", "/api/things", "read", js, `{"data":{}}`, 403, sandbox.CodeNoRights, "access-token", "write"},
		{"missing content type", "GET", "/api/things", "all", "", "", 422, sandbox.CodeInvalidContentType, "Content-Type", "required"},
		{"wrong content type", "GET", "/api/things", "all", "text/plain", "", 422, sandbox.CodeInvalidContentType, "Content-Type", "text/plain"},
		{"unknown path", "GET", "/api/nothing", "all", js, "", 404, sandbox.CodeNotFound, "unknown", "/api/nothing"},
		{"wrong method", "DELETE", "/api/things", "all", js, "", 404, sandbox.CodeNotFound, "unknown", "DELETE"},
		{"panic is a 500", "GET", "/api/things/boom", "all", js, "", 500, sandbox.CodeInternal, "unknown", "request id"},
		{"internal error hidden", "GET", "/api/things/fail", "all", js, "", 500, sandbox.CodeInternal, "unknown", "logged"},
		{"page zero", "GET", "/api/things?page=0", "all", js, "", 400, sandbox.CodeInvalidParameter, "page", "at least 1"},
		{"page text", "GET", "/api/things?page=two", "all", js, "", 400, sandbox.CodeInvalidParameter, "page", "two"},
		{"perPage negative", "GET", "/api/things?itemsPerPage=-5", "all", js, "", 400, sandbox.CodeInvalidParameter, "itemsPerPage", ""},
		{"unknown include", "GET", "/api/things?include=images,secrets", "all", js, "", 400, sandbox.CodeInvalidParameter, "include", "secrets"},
		{"malformed json", "POST", "/api/things", "all", js, `{"data": {`, 422, sandbox.CodeInvalidJSON, "body", "not valid JSON"},
		{"syntax error line", "POST", "/api/things", "all", js, "{\n\"data\": nope}", 422, sandbox.CodeInvalidJSON, "body", "line 2"},
		{"empty body", "POST", "/api/things", "all", js, ``, 422, sandbox.CodeInvalidJSON, "body", "empty"},
		{"not an object", "POST", "/api/things", "all", js, `[1,2]`, 422, sandbox.CodeSchemaMismatch, "body", "object"},
		{"trailing data", "POST", "/api/things", "all", js, `{"data":{}} {}`, 422, sandbox.CodeInvalidJSON, "body", "after"},
		{"invalid utf8", "POST", "/api/things", "all", js, "{\"data\":{\"name\":\"\xff\"}}", 422, sandbox.CodeInvalidJSON, "body", "UTF-8"},
		{"schema mismatch names field", "POST", "/api/things", "all", js, `{"data":{"items":[{"vatRate":"21.00"},{"vatRate":21}]}}`, 422, sandbox.CodeSchemaMismatch, "data.items[1].vatRate", "data.items[1].vatRate"},
		{"schema ok", "POST", "/api/things", "all", "application/json; charset=utf-8", `{"data":{"name":"x","items":[{"vatRate":"21.00"}]}}`, 201, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, e, raw := call(t, ts, tc.method, tc.path, tc.token, tc.ct, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, raw)
			}
			if e.Metadata == nil || !uuidShape.MatchString(e.Metadata.RequestID) || resp.Header.Get("X-Request-ID") != e.Metadata.RequestID {
				t.Fatalf("request id: header %q, metadata %+v", resp.Header.Get("X-Request-ID"), e.Metadata)
			}
			if !strings.Contains(raw, `"errors":`) || !strings.Contains(raw, `"data":`) {
				t.Fatalf("envelope sections missing: %s", raw)
			}
			if tc.code == "" {
				if e.Errors != nil || string(e.Data) == "null" {
					t.Fatalf("success must have data and errors null: %s", raw)
				}
				return
			}
			if string(e.Data) != "null" || len(e.Errors) != 1 {
				t.Fatalf("error must have data null and one error: %s", raw)
			}
			got := e.Errors[0]
			if got.ErrorCode != tc.code || got.Instance != tc.instance || got.Message == "" || !strings.Contains(got.Message, tc.msgHas) {
				t.Fatalf("error = %+v, want code %s instance %s message containing %q", got, tc.code, tc.instance, tc.msgHas)
			}
			if strings.Contains(got.Message, "kaboom") || strings.Contains(got.Message, "unexpected EOF") {
				t.Fatalf("internal detail leaked: %s", got.Message)
			}
		})
	}
}

func TestPagingAndInclude(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		query   string
		page    int
		perPage int
		include map[string]bool
	}{
		{"", 1, 20, map[string]bool{}},
		{"?page=3&itemsPerPage=5", 3, 5, map[string]bool{}},
		{"?itemsPerPage=500", 1, 50, map[string]bool{}},
		{"?include=FILTERINGPARAMETERS,%20images", 1, 20, map[string]bool{"images": true, "filteringParameters": true}},
		{"?include=images,,images", 1, 20, map[string]bool{"images": true}},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			_, e, raw := call(t, ts, "GET", "/api/things"+tc.query, "all", "application/json", "")
			var got struct {
				Page    int             `json:"page"`
				PerPage int             `json:"perPage"`
				Include map[string]bool `json:"include"`
				Eshop   int             `json:"eshop"`
			}
			if err := json.Unmarshal(e.Data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Page != tc.page || got.PerPage != tc.perPage || len(got.Include) != len(tc.include) || got.Eshop != 7 {
				t.Fatalf("got %+v: %s", got, raw)
			}
			for k := range tc.include {
				if !got.Include[k] {
					t.Fatalf("include %s missing: %s", k, raw)
				}
			}
		})
	}
}

func TestVendorMediaType(t *testing.T) {
	ts := newTestServer(t)
	resp, _, _ := call(t, ts, "GET", "/api/things", "all", "application/vnd.service.v1.0", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/vnd.service.v1.0+json" {
		t.Fatalf("status %d content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, _, _ = call(t, ts, "GET", "/api/things", "all", "application/json", "")
	if resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
}

func TestPointerToField(t *testing.T) {
	tests := map[string]string{
		"":                        "",
		"/data":                   "data",
		"/data/items/0/vatRate":   "data.items[0].vatRate",
		"/data/a~1b/c~0d":         "data.a/b.c~d",
		"/data/billingAddress/12": "data.billingAddress[12]",
	}
	for in, want := range tests {
		if got := PointerToField(in); got != want {
			t.Errorf("PointerToField(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewPaginator(t *testing.T) {
	tests := []struct{ total, page, per, on, pages int }{
		{0, 1, 20, 0, 0},
		{1, 1, 20, 1, 1},
		{40, 2, 20, 20, 2},
		{41, 3, 20, 1, 3},
	}
	for _, tc := range tests {
		p := NewPaginator(tc.total, tc.page, tc.per, tc.on)
		if p.PageCount != tc.pages || p.TotalCount != tc.total || p.ItemsOnPage != tc.on || p.ItemsPerPage != tc.per || p.Page != tc.page {
			t.Errorf("%+v -> %+v", tc, p)
		}
	}
}

func TestRenderShapes(t *testing.T) {
	doc := []byte(`{"_seq":3,"name":"Stan","url":"{eshop_url}/stan/","images":[{"name":"a.jpg","_x":1}],"price":"10.50",
		"_translations":{"en":{"name":"Tent","variants":[{"name":"Green"}]}},"variants":[{"name":"Zelená","code":"T-1"}]}`)
	m, err := Render(doc, View{Language: "en", EshopURL: "http://h/eshops/1", Sections: []string{"images"}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(m)
	want := `{"images":null,"name":"Tent","price":"10.50","url":"http://h/eshops/1/stan/","variants":[{"code":"T-1","name":"Green"}]}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	m, _ = Render(doc, View{Sections: []string{"images"}, Include: map[string]bool{"images": true}, Fields: []string{"name", "images"}})
	out, _ = json.Marshal(m)
	if string(out) != `{"images":[{"name":"a.jpg"}],"name":"Stan"}` {
		t.Fatalf("default language projection: %s", out)
	}
}

func TestEncodedJSONFastPath(t *testing.T) {
	s := NewServer(Options{Headers: sandbox.NewHeaders("Service"), IDs: sandbox.NewIDs(7), Auth: fakeAuth{}})
	_ = s.HandleRoutes([]Route{{Operation: "GetRaw", Method: "GET", Path: "/api/raw", Group: "Things", Handler: func(r *Request) (any, error) {
		return EncodedJSON(`{"b":[1,2],"a":"x"}`), nil
	}}})
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, e, raw := call(t, ts, "GET", "/api/raw", "all", "application/json", "")
	if resp.StatusCode != 200 || string(e.Data) != `{"b":[1,2],"a":"x"}` || e.Errors != nil || e.Metadata.RequestID != resp.Header.Get("X-Request-ID") {
		t.Fatalf("fast path: %s", raw)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil || len(m) != 3 {
		t.Fatalf("not one envelope object: %s", raw)
	}
}

// TestDecodeBody: one typed decoder for every handler: strict about
// fields, clear about what is wrong, and an empty body is "absent".
func TestDecodeBody(t *testing.T) {
	s := NewServer(Options{Headers: sandbox.NewHeaders("Service"), IDs: sandbox.NewIDs(3)})
	_ = s.HandleRoutes([]Route{{Operation: "sandbox.thing", Method: "POST", Path: "/_sandbox/thing", Public: true, NoContentType: true,
		Handler: func(r *Request) (any, error) {
			var in struct {
				Name string `json:"name"`
				N    int    `json:"n"`
			}
			present, err := r.DecodeBody(&in)
			if err != nil {
				return nil, err
			}
			return map[string]any{"present": present, "name": in.Name, "n": in.N}, nil
		}}})
	ts := httptest.NewServer(s)
	defer ts.Close()
	tests := []struct {
		body, want string
		status     int
	}{
		{``, `"present":false`, 200},
		{`{"name":"a","n":2}`, `"name":"a","present":true`, 200},
		{`{"name":"a","extra":1}`, `unknown field \"extra\"`, 422},
		{`[1]`, `must be a JSON object`, 422},
		{`{"name":`, `not valid JSON`, 422},
		{`{"n":"x"}`, `does not match`, 422},
	}
	for _, tc := range tests {
		resp, _, raw := call(t, ts, "POST", "/_sandbox/thing", "", "application/json", tc.body)
		if resp.StatusCode != tc.status || !strings.Contains(raw, tc.want) {
			t.Errorf("%q: %d %s", tc.body, resp.StatusCode, raw)
		}
	}
}

// TestDecode: the one body decoder bounds size (413) and nesting (422),
// keeps numbers exact, tells an absent body from an empty one, and
// answers the spec's 422 codes for syntax and shape.
func TestDecode(t *testing.T) {
	type thing struct {
		N json.Number `json:"n"`
	}
	deep := strings.Repeat("[", MaxBodyDepth+1) + strings.Repeat("]", MaxBodyDepth+1)
	for _, tc := range []struct {
		name    string
		raw     string
		into    func() any
		d       Decoding
		kind    sandbox.Kind
		code    string
		present bool
	}{
		{"empty, required", ``, func() any { return &map[string]any{} }, Decoding{}, sandbox.KindUnprocessable, sandbox.CodeInvalidJSON, false},
		{"empty, optional", ` `, func() any { return &map[string]any{} }, Decoding{Optional: true}, 0, "", false},
		{"over the limit", `{"a":"` + strings.Repeat("x", 100) + `"}`, func() any { return &map[string]any{} }, Decoding{Limit: 64}, sandbox.KindTooLarge, sandbox.CodeTooManyEntities, true},
		{"too deep", `{"a":` + deep + `}`, func() any { var v any; return &v }, Decoding{}, sandbox.KindUnprocessable, sandbox.CodeInvalidJSON, true},
		{"a string in a brace is no nesting", `{"a":"` + deep + `"}`, func() any { return &map[string]any{} }, Decoding{}, 0, "", true},
		{"not an object", `[1]`, func() any { var v any; return &v }, Decoding{}, sandbox.KindUnprocessable, sandbox.CodeSchemaMismatch, true},
		{"any value allowed", `"all"`, func() any { var s string; return &s }, Decoding{AnyValue: true}, 0, "", true},
		{"trailing data", `{} {}`, func() any { return &map[string]any{} }, Decoding{}, sandbox.KindUnprocessable, sandbox.CodeInvalidJSON, true},
		{"unknown field of a struct", `{"n":1,"m":2}`, func() any { return &thing{} }, Decoding{}, sandbox.KindUnprocessable, sandbox.CodeSchemaMismatch, true},
		{"exact number", `{"n":12345678901234567890.123456789}`, func() any { return &thing{} }, Decoding{}, 0, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			into := tc.into()
			present, err := Decode([]byte(tc.raw), into, tc.d)
			if present != tc.present {
				t.Errorf("present = %v, want %v", present, tc.present)
			}
			if tc.code == "" {
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if th, ok := into.(*thing); ok && th.N.String() != "12345678901234567890.123456789" {
					t.Fatalf("number %s, not exact", th.N)
				}
				return
			}
			se := sandbox.AsError(err)
			if err == nil || se.Kind != tc.kind || se.Code != tc.code {
				t.Fatalf("error %#v, want kind %d %s", err, tc.kind, tc.code)
			}
		})
	}
}

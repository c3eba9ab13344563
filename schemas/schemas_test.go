package schemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/eshop-sandbox/sandbox/cmd/schemagen/gen"
)

// compiled is shared by the tests that only read; built once.
var (
	compiledOnce sync.Once
	compiledSet  *Set
	compiledErr  error
)

func set(t testing.TB) *Set {
	t.Helper()
	compiledOnce.Do(func() { compiledSet, compiledErr = Compile() })
	if compiledErr != nil {
		t.Fatal(compiledErr)
	}
	return compiledSet
}

func decode(t testing.TB, s string) any {
	t.Helper()
	v, err := Decode(strings.NewReader(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	return v
}

// compileURL compiles an arbitrary location of the embedded tree (for
// example one property of a $defs entity) with the Set's compiler.
func compileURL(t testing.TB, s *Set, url string) *jsonschema.Schema {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	sch, err := s.compiler.Compile(url)
	if err != nil {
		t.Fatalf("compile %s: %v", url, err)
	}
	return sch
}

func TestCatalogue(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(cat.Endpoints); got != 328 {
		t.Fatalf("endpoints: got %d, want 328", got)
	}
	var req, resp, snap, raw int
	ops := map[string]bool{}
	routes := map[string]bool{}
	pathRE := regexp.MustCompile(`^/api(/([A-Za-z0-9]+(-[A-Za-z0-9]+)*|\{[A-Za-z][A-Za-z0-9]*\}))+$`)
	for _, e := range cat.Endpoints {
		if ops[e.Operation] {
			t.Errorf("duplicate operation %s", e.Operation)
		}
		ops[e.Operation] = true
		if routes[e.Method+" "+e.Path] {
			t.Errorf("duplicate route %s %s", e.Method, e.Path)
		}
		routes[e.Method+" "+e.Path] = true
		if !pathRE.MatchString(e.Path) || strings.Contains(e.Path, ".yaml") || strings.Contains(e.Path, "_") {
			t.Errorf("%s: malformed path %q", e.Operation, e.Path)
		}
		if e.PathParams == nil || e.QueryParams == nil {
			t.Errorf("%s: nil parameter list", e.Operation)
		}
		if e.Request != "" {
			req++
		}
		if e.Response != "" {
			resp++
		}
		if e.SnapshotItem != "" {
			snap++
		}
		if e.ResponseKind == "raw" {
			raw++
		}
		if e.Snapshot != (e.SnapshotItem != "") {
			t.Errorf("%s: snapshot=%v but snapshotItem=%q", e.Operation, e.Snapshot, e.SnapshotItem)
		}
	}
	// Counts from the reference README.
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"request schemas", req, 129},
		{"response schemas", resp, 317},
		{"snapshot items", snap, 15},
		{"raw responses", raw, 11},
		{"webhook events", len(cat.Events), 111},
		{"job statuses", len(cat.JobStatuses), 5},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %d, want %d", c.name, c.got, c.want)
		}
	}
	var proforma *Endpoint
	for i := range cat.Endpoints {
		if cat.Endpoints[i].Operation == "CreateProformaInvoiceFromOrder" {
			proforma = &cat.Endpoints[i]
		}
	}
	if proforma == nil || proforma.Method != "POST" || proforma.Path != "/api/orders/{code}/proforma-invoice" {
		t.Errorf("corrected proforma endpoint: got %+v", proforma)
	}
}

func TestEveryEndpointSchemaCompiles(t *testing.T) {
	s, err := Compile()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := s.CompileAll(); err != nil {
		t.Fatal(err)
	}
	t.Logf("CompileAll: %v for %d files and %d entities", time.Since(start), len(s.files), len(s.defs()))

	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range cat.Endpoints {
		for _, c := range []struct {
			kind string
			file string
			sch  *jsonschema.Schema
		}{
			{"request", e.Request, s.Request(e.Operation)},
			{"response", e.Response, s.Response(e.Operation)},
			{"snapshot item", e.SnapshotItem, s.SnapshotItem(e.Operation)},
		} {
			if (c.file != "") != (c.sch != nil) {
				t.Errorf("%s %s: file %q but schema %v", e.Operation, c.kind, c.file, c.sch)
			}
			if c.file != "" && c.sch.Location != BaseURL+c.file+"#" && c.sch.Location != BaseURL+c.file {
				t.Errorf("%s %s: schema location %s, want %s", e.Operation, c.kind, c.sch.Location, BaseURL+c.file)
			}
		}
	}
	for _, f := range []string{
		"oauth/token.request.json", "oauth/token.response.json", "oauth/access-token.response.json",
		"jobs/job.json", "webhooks/payload.json", "defs.json",
	} {
		if _, err := s.File(f); err != nil {
			t.Errorf("File(%q): %v", f, err)
		}
	}
	if _, err := s.File("index.json"); err == nil {
		t.Error(`File("index.json") should fail: the catalogue is not a schema`)
	}
	if s.Request("NoSuchOperation") != nil || s.Response("GetListOfOrders") == nil || s.Request("GetListOfOrders") != nil {
		t.Error("Request/Response nil-ness is wrong")
	}
}

func TestDef(t *testing.T) {
	s := set(t)
	for _, name := range []string{"Product", "Errors.Item", "Order", "ItemSurchargeParameters.Item.ParameterName"} {
		sch, err := s.Def(name)
		if err != nil || sch == nil {
			t.Errorf("Def(%q): %v", name, err)
		}
		again, _ := s.Def(name)
		if again != sch {
			t.Errorf("Def(%q) is not cached", name)
		}
	}
	if _, err := s.Def("NoSuchEntity"); err == nil {
		t.Error("Def(NoSuchEntity) should fail")
	}
	errItem, _ := s.Def("Errors.Item")
	if err := errItem.Validate(decode(t, `{"errorCode":"expired-token","message":"m","instance":"access-token"}`)); err != nil {
		t.Errorf("valid error item rejected: %v", err)
	}
	if err := errItem.Validate(decode(t, `{"errorCode":"expired-token"}`)); err == nil {
		t.Error("error item without message/instance accepted")
	}
}

// TestPatchedConstraints has a passing and a failing instance for every
// kind of constraint the generator adds (see cmd/schemagen/gen/patches.go).
func TestPatchedConstraints(t *testing.T) {
	s := set(t)
	defProp := func(def, prop string) func() *jsonschema.Schema {
		return func() *jsonschema.Schema {
			return compileURL(t, s, BaseURL+"defs.json#/$defs/"+def+"/properties/"+prop)
		}
	}
	req := func(op string) func() *jsonschema.Schema { return func() *jsonschema.Schema { return s.Request(op) } }
	resp := func(op string) func() *jsonschema.Schema { return func() *jsonschema.Schema { return s.Response(op) } }
	file := func(p string) func() *jsonschema.Schema {
		return func() *jsonschema.Schema {
			sch, err := s.File(p)
			if err != nil {
				t.Fatal(err)
			}
			return sch
		}
	}
	order := func(data string) string { return `{"data":` + data + `}` }
	shipping := `{"itemType":"shipping","vatRate":"21.00","itemPriceWithVat":"99.00"}`
	code255 := strings.Repeat("c", 255)
	token := func(code string) string {
		return `{"client_id":"id","client_secret":"secret","redirect_uri":"https://addon.example/install","code":"` + code + `","grant_type":"authorization_code","scope":"api"}`
	}
	surcharge := func(extra string) string {
		return `{"data":{"surchargeParameter":{"code":"c","currency":"CZK","id":1,"includingVat":true,"name":"n","required":false,` +
			`"description":null,"displayName":null,"googleMapping":null` + extra + `}},"errors":null,"metadata":{"requestId":"r"}}`
	}

	cases := []struct {
		name     string
		schema   func() *jsonschema.Schema
		instance string
		valid    bool
	}{
		{"product visibility visible", defProp("Product", "visibility"), `"visible"`, true},
		{"product visibility secret", defProp("Product", "visibility"), `"secret"`, false},
		{"product visibility null on entity", defProp("Product", "visibility"), `null`, false},
		{"product update visibility null", defProp("ProductUpdate", "visibility"), `null`, true},
		{"create product visibility", req("CreateProduct"), `{"data":{"visibility":"cash-desk-only"}}`, true},
		{"create product visibility unknown", req("CreateProduct"), `{"data":{"visibility":"secret"}}`, false},
		{"create product type bazar", req("CreateProduct"), `{"data":{"type":"bazar"}}`, true},
		{"create product type deprecated gift-certificate", req("CreateProduct"), `{"data":{"type":"gift-certificate"}}`, true},
		{"create product type unknown", req("CreateProduct"), `{"data":{"type":"digital"}}`, false},
		{"product type service", defProp("Product", "type"), `"service"`, true},
		{"product type unknown", defProp("Product", "type"), `"digital"`, false},
		{"order item productType null", defProp("OrderItem", "productType"), `null`, true},
		{"order item itemType deposit", defProp("OrderItem", "itemType"), `"deposit"`, true},
		{"order item itemType unknown", defProp("OrderItem", "itemType"), `"freebie"`, false},

		{"create order minimal item", req("CreateOrder"), order(`{"items":[` + shipping + `]}`), true},
		{"create order itemType unknown", req("CreateOrder"), order(`{"items":[{"itemType":"freebie","vatRate":"21.00"}]}`), false},
		{"create order item without itemType", req("CreateOrder"), order(`{"items":[{"vatRate":"21.00"}]}`), false},
		{"create order item without vatRate", req("CreateOrder"), order(`{"items":[{"itemType":"shipping"}]}`), false},
		{"create order vatRate 1 decimal", req("CreateOrder"), order(`{"items":[{"itemType":"shipping","vatRate":"21.0"}]}`), false},
		{"create order vatRate integer string", req("CreateOrder"), order(`{"items":[{"itemType":"shipping","vatRate":"21"}]}`), false},
		{"create order priceRatio 4 decimals", req("CreateOrder"), order(`{"items":[{"itemType":"billing","vatRate":"0.00","priceRatio":"0.9700"}]}`), true},
		{"create order priceRatio 2 decimals", req("CreateOrder"), order(`{"items":[{"itemType":"billing","vatRate":"0.00","priceRatio":"0.97"}]}`), false},
		{"create order product with code", req("CreateOrder"), order(`{"items":[{"itemType":"product","code":"P-1","vatRate":"21.00"}]}`), true},
		{"create order product without code", req("CreateOrder"), order(`{"items":[{"itemType":"product","vatRate":"21.00"}]}`), false},
		{"create order gift with null code", req("CreateOrder"), order(`{"items":[{"itemType":"gift","code":null,"vatRate":"0.00"}]}`), false},
		{"create order billingMethodCode 4", req("CreateOrder"), order(`{"billingMethodCode":4}`), true},
		{"create order billingMethodCode null", req("CreateOrder"), order(`{"billingMethodCode":null}`), true},
		{"create order billingMethodCode 5", req("CreateOrder"), order(`{"billingMethodCode":5}`), false},
		{"create order email", req("CreateOrder"), order(`{"email":"buyer@example.com"}`), true},
		{"create order email malformed", req("CreateOrder"), order(`{"email":"not-an-email"}`), false},
		{"create order vatMode", req("CreateOrder"), order(`{"vatMode":"Reverse charge"}`), true},
		{"create order vatMode wrong case", req("CreateOrder"), order(`{"vatMode":"reverse charge"}`), false},
		{"create order item request itemType", req("CreateOrderItem"), `{"data":{"itemType":"generic-item"}}`, true},
		{"create order item request itemType unknown", req("CreateOrderItem"), `{"data":{"itemType":"thing"}}`, false},

		{"billing method id 2", defProp("BillingMethod", "id"), `2`, true},
		{"billing method id 9", defProp("BillingMethod", "id"), `9`, false},
		{"invoice from order billingMethodId 9", req("CreateInvoiceFromOrder"), `{"data":{"billingMethodId":9}}`, false},
		{"invoice vatMode OSS", defProp("Invoice", "vatMode"), `"One Stop Shop"`, true},
		{"invoice vatMode unknown", defProp("Invoice", "vatMode"), `"OSS"`, false},
		{"category productOrdering", defProp("Category", "productOrdering"), `"category-priority-desc"`, true},
		{"category productOrdering unknown", defProp("Category", "productOrdering"), `"random"`, false},
		{"template location", req("CreateAndEditHtmlCodes"), `{"data":{"snippets":[{"location":"order-confirmed","html":"<p>"}]}}`, true},
		{"template location unknown", req("CreateAndEditHtmlCodes"), `{"data":{"snippets":[{"location":"footer","html":"<p>"}]}}`, false},
		{"endpoint list access", resp("GetListOfAvailableEndpoints"), `{"data":{"endpoints":[{"access":"both","action":null,"description":"d","endpoint":"e","group":{"id":1,"description":"g"}}]},"errors":null,"metadata":null}`, true},
		{"endpoint list access unknown", resp("GetListOfAvailableEndpoints"), `{"data":{"endpoints":[{"access":"admin","action":"add","description":"d","endpoint":"e","group":{"id":1,"description":"g"}}]},"errors":null,"metadata":null}`, false},
		{"surcharge PATCH response complete", resp("UpdateSurchargeParameter"), surcharge(`,"priority":null`), true},
		{"surcharge PATCH response without priority", resp("UpdateSurchargeParameter"), surcharge(``), false},

		{"oauth code of 255", file("oauth/token.request.json"), token(code255), true},
		{"oauth code of 254", file("oauth/token.request.json"), token(code255[1:]), false},
		{"oauth code of 256", file("oauth/token.request.json"), token(code255 + "c"), false},
		{"oauth wrong grant_type", file("oauth/token.request.json"), strings.Replace(token(code255), "authorization_code", "password", 1), false},
		{"job status completed", file("jobs/job.json"), `{"jobId":"j","endpoint":"/api/orders/snapshot","status":"completed"}`, true},
		{"job status unknown", file("jobs/job.json"), `{"jobId":"j","endpoint":"/api/orders/snapshot","status":"done"}`, false},
		{"webhook payload", file("webhooks/payload.json"), `{"eshopId":1,"event":"order:create","eventCreated":"2024-01-31T12:00:00+0100","eventInstance":"2024000001"}`, true},
		{"webhook payload unknown event", file("webhooks/payload.json"), `{"eshopId":1,"event":"order:explode","eventCreated":null,"eventInstance":"1"}`, false},

		// Body correction: the spurious "schema" wrapper is gone.
		{"customer remark", req("CreateCustomerRemark"), `{"data":{"rating":"positive","remark":"r"}}`, true},
		{"customer remark wrong type", req("CreateCustomerRemark"), `{"data":{"remark":5}}`, false},

		// Format assertions are on: a real date passes, an impossible one fails.
		{"date format", req("CreateProformaInvoiceFromOrder"), `{"data":{"dueDate":"2024-02-29"}}`, true},
		{"date format impossible", req("CreateProformaInvoiceFromOrder"), `{"data":{"dueDate":"2023-02-29"}}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sch := c.schema()
			if sch == nil {
				t.Fatal("no schema")
			}
			err := sch.Validate(decode(t, c.instance))
			if c.valid && err != nil {
				t.Errorf("valid instance rejected: %v", err)
			}
			if !c.valid && err == nil {
				t.Error("invalid instance accepted")
			}
		})
	}
}

// TestSDKRequestEncoding proves that request schemas accept what the
// official SDK really sends (reference README "Encoding quirks": integer
// value objects as digit strings, a null held by a nullable value object as
// "") while response schemas keep the canonical form. See
// cmd/schemagen/gen/requestside.go.
func TestSDKRequestEncoding(t *testing.T) {
	s := set(t)
	req := func(op string) func() *jsonschema.Schema { return func() *jsonschema.Schema { return s.Request(op) } }
	defProp := func(def, prop string) func() *jsonschema.Schema {
		return func() *jsonschema.Schema {
			return compileURL(t, s, BaseURL+"defs.json#/$defs/"+def+"/properties/"+prop)
		}
	}
	at := func(file, pointer string) func() *jsonschema.Schema {
		return func() *jsonschema.Schema { return compileURL(t, s, BaseURL+file+"#"+pointer) }
	}
	data := func(fields string) string { return `{"data":{` + fields + `}}` }
	orderItem := func(extra string) string {
		return `{"data":{"items":[{"itemType":"shipping","vatRate":"21.00"` + extra + `}]}}`
	}
	const dateTime = `"2024-01-31T12:00:00+0100"`

	cases := []struct {
		name     string
		schema   func() *jsonschema.Schema
		instance string
		valid    bool
	}{
		// (a) integer value objects: the integer, or a string of digits.
		{"invoice from order varSymbol digit string", req("CreateInvoiceFromOrder"), data(`"varSymbol":"123"`), true},
		{"invoice from order varSymbol integer", req("CreateInvoiceFromOrder"), data(`"varSymbol":123`), true},
		{"invoice from order varSymbol null", req("CreateInvoiceFromOrder"), data(`"varSymbol":null`), true},
		{"invoice from order varSymbol 12a", req("CreateInvoiceFromOrder"), data(`"varSymbol":"12a"`), false},
		{"invoice from order varSymbol decimal", req("CreateInvoiceFromOrder"), data(`"varSymbol":"1.5"`), false},
		{"invoice from order varSymbol padded", req("CreateInvoiceFromOrder"), data(`"varSymbol":" 12"`), false},
		{"invoice from order specSymbol digit string", req("CreateInvoiceFromOrder"), data(`"specSymbol":"0042"`), true},
		// TypeVarSymbol does not accept null: the SDK sends JSON null, never "".
		{"invoice from order varSymbol empty", req("CreateInvoiceFromOrder"), data(`"varSymbol":""`), false},
		{"proforma from order varSymbol digit string", req("CreateProformaInvoiceFromOrder"), data(`"varSymbol":"123"`), true},
		{"proforma from order varSymbol 12a", req("CreateProformaInvoiceFromOrder"), data(`"varSymbol":"12a"`), false},
		{"update proof payment varSymbol digit string", req("UpdateProofPayment"), data(`"varSymbol":"2024000001"`), true},
		{"create order consumptionTaxId digit string", req("CreateOrder"), orderItem(`,"consumptionTaxId":"7"`), true},
		{"create order consumptionTaxId integer", req("CreateOrder"), orderItem(`,"consumptionTaxId":7`), true},
		{"create order consumptionTaxId 7x", req("CreateOrder"), orderItem(`,"consumptionTaxId":"7x"`), false},
		{"create order item consumptionTaxId digit string", req("CreateOrderItem"), data(`"itemType":"product","consumptionTaxId":"3"`), true},

		// (b) a null held by a nullable value object, sent as "".
		{"proforma from order creationTime empty", req("CreateProformaInvoiceFromOrder"), data(`"creationTime":""`), true},
		{"proforma from order creationTime canonical", req("CreateProformaInvoiceFromOrder"), data(`"creationTime":` + dateTime), true},
		{"proforma from order creationTime null", req("CreateProformaInvoiceFromOrder"), data(`"creationTime":null`), true},
		{"proforma from order creationTime with colon offset", req("CreateProformaInvoiceFromOrder"), data(`"creationTime":"2024-01-31T12:00:00+01:00"`), false},
		{"proforma from order creationTime blank", req("CreateProformaInvoiceFromOrder"), data(`"creationTime":" "`), false},
		{"proforma from order dueDate empty (format date)", req("CreateProformaInvoiceFromOrder"), data(`"dueDate":""`), true},
		{"proforma from order dueDate impossible", req("CreateProformaInvoiceFromOrder"), data(`"dueDate":"2023-02-29"`), false},
		{"proforma from order specSymbol empty (nullable integer)", req("CreateProformaInvoiceFromOrder"), data(`"specSymbol":""`), true},
		{"create order customerGuid empty (format uuid)", req("CreateOrder"), data(`"customerGuid":""`), true},
		{"create order customerGuid malformed", req("CreateOrder"), data(`"customerGuid":"nope"`), false},
		{"create order consumptionTaxId empty (nullable integer)", req("CreateOrder"), orderItem(`,"consumptionTaxId":""`), true},
		{"product review date empty", req("CreateProductReview"), data(`"date":""`), true},
		{"update product hsCode empty", req("UpdateProduct"), data(`"hsCode":""`), true},
		{"update product hsCode letters", req("UpdateProduct"), data(`"hsCode":"abcdef"`), false},
		// TypeCurrencyCode (not nullable) on a nullable field: null yes, "" no.
		{"proof payment currencyCode empty", req("CreateProofPayment"), data(`"currencyCode":""`), false},

		// Responses of the same entities stay canonical.
		{"response ProformaInvoice creationTime empty", defProp("ProformaInvoice", "creationTime"), `""`, false},
		{"response ProformaInvoice creationTime canonical", defProp("ProformaInvoice", "creationTime"), dateTime, true},
		{"response ProformaInvoice creationTime null", defProp("ProformaInvoice", "creationTime"), `null`, true},
		{"response ProformaInvoice dueDate empty", defProp("ProformaInvoice", "dueDate"), `""`, false},
		{"response ProformaInvoice varSymbol digit string", defProp("ProformaInvoice", "varSymbol"), `"123"`, false},
		{"response ProformaInvoice varSymbol integer", defProp("ProformaInvoice", "varSymbol"), `123`, true},
		{"response Invoice varSymbol digit string", defProp("Invoice", "varSymbol"), `"123"`, false},
		{"response invoice list varSymbol digit string", at("endpoints/GetListOfInvoices.response.json", "/properties/data/properties/invoices/items/properties/varSymbol"), `"123"`, false},
		{"response invoice list varSymbol empty", at("endpoints/GetListOfInvoices.response.json", "/properties/data/properties/invoices/items/properties/varSymbol"), `""`, false},
		{"response invoice list varSymbol null", at("endpoints/GetListOfInvoices.response.json", "/properties/data/properties/invoices/items/properties/varSymbol"), `null`, true},
		{"snapshot invoice varSymbol digit string", defProp("InvoiceSnapshot", "varSymbol"), `"123"`, false},
		{"response Order creationTime empty", defProp("Order", "creationTime"), `""`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sch := c.schema()
			if sch == nil {
				t.Fatal("no schema")
			}
			err := sch.Validate(decode(t, c.instance))
			if c.valid && err != nil {
				t.Errorf("valid instance rejected: %v", err)
			}
			if !c.valid && err == nil {
				t.Error("invalid instance accepted")
			}
		})
	}
}

// TestResponsesStayCanonical checks the whole embedded tree: no schema
// reachable from a response, snapshot line, job record or webhook payload
// carries the request-side widening (an integer value object typed as
// string, or a "" alternative).
func TestResponsesStayCanonical(t *testing.T) {
	load := func(p string) any {
		raw, err := FS.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Decode(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	defs := load("defs.json").(map[string]any)["$defs"].(map[string]any)
	widened := func(n map[string]any) bool {
		if _, ok := n["x-sdk-request-encoding"]; ok {
			for _, ty := range typeList(n["type"]) {
				if ty == "string" {
					return true
				}
			}
		}
		return jsonEqualString(n["const"], "")
	}
	var problems []string
	seen := map[string]bool{}
	var walk func(v any, where string)
	walk = func(v any, where string) {
		switch n := v.(type) {
		case map[string]any:
			if widened(n) {
				problems = append(problems, where)
			}
			if ref, ok := n["$ref"].(string); ok {
				key := ref[strings.LastIndex(ref, "/")+1:]
				if !seen[key] {
					seen[key] = true
					walk(defs[key], "defs.json#/$defs/"+key)
				}
			}
			for k, x := range n {
				walk(x, where+"/"+k)
			}
		case []any:
			for _, x := range n {
				walk(x, where)
			}
		}
	}
	files := 0
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") || p == "index.json" || p == "defs.json" {
			return err
		}
		if strings.HasSuffix(p, ".request.json") {
			return nil
		}
		files++
		walk(load(p), p+"#")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 300 {
		t.Fatalf("only %d response-side files found", files)
	}
	sort.Strings(problems)
	for _, p := range problems {
		t.Errorf("response side carries the request-side widening: %s", p)
	}
	// And the request side really is widened somewhere.
	if n := strings.Count(string(mustRead(t, "endpoints/CreateInvoiceFromOrder.request.json")), integerPatternJSON); n != 2 {
		t.Errorf("CreateInvoiceFromOrder.request.json: %d string-encoded integer fields, want 2 (varSymbol, specSymbol)", n)
	}
}

const integerPatternJSON = `"pattern": "^-?[0-9]+$"`

func typeList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func jsonEqualString(v any, s string) bool {
	got, ok := v.(string)
	return ok && got == s
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	raw, err := FS.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestFormatsCauseNoFalseFailures proves that AssertFormat is safe: every
// format used by the embedded schemas is known, and a canonical value that
// satisfies the accompanying pattern also satisfies the format.
func TestFormatsCauseNoFalseFailures(t *testing.T) {
	samples := map[string]string{
		"uuid":  `"0f8fad5b-d9cb-469f-a165-70867728950e"`,
		"date":  `"2024-01-31"`,
		"email": `"buyer@example.com"`,
		// sandbox test --json writes Go's time.Time (RFC 3339, nanoseconds).
		"date-time": `"2024-01-31T10:00:00.123456789Z"`,
	}
	type pair struct{ format, pattern string }
	seen := map[pair]bool{}
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "index.json" {
			return err
		}
		raw, err := FS.ReadFile(p)
		if err != nil {
			return err
		}
		v, err := Decode(bytes.NewReader(raw))
		if err != nil {
			return err
		}
		var walk func(any)
		walk = func(v any) {
			switch n := v.(type) {
			case map[string]any:
				if f, ok := n["format"].(string); ok {
					pat, _ := n["pattern"].(string)
					seen[pair{f, pat}] = true
				}
				for _, x := range n {
					walk(x)
				}
			case []any:
				for _, x := range n {
					walk(x)
				}
			}
		}
		walk(v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range seen {
		sample, ok := samples[p.format]
		if !ok {
			t.Errorf("format %q is not covered by this test; check it before keeping AssertFormat on", p.format)
			continue
		}
		c := newCompiler()
		probe := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string", "format": p.format}
		if p.pattern != "" {
			probe["pattern"] = p.pattern
		}
		doc, err := json.Marshal(probe)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(BaseURL+"probe.json", bytes.NewReader(doc)); err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		sch, err := c.Compile(BaseURL + "probe.json")
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		if err := sch.Validate(decode(t, sample)); err != nil {
			t.Errorf("format %q with pattern %q rejects %s: %v", p.format, p.pattern, sample, err)
		}
	}
	t.Logf("format/pattern combinations checked: %d", len(seen))
}

func TestConcurrentUse(t *testing.T) {
	s, err := Compile() // fresh set: exercises the lazy compilation under -race
	if err != nil {
		t.Fatal(err)
	}
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(cat.Endpoints); i += 8 {
				e := cat.Endpoints[i]
				if sch := s.Response(e.Operation); sch != nil {
					_ = sch.Validate(map[string]any{"data": nil, "errors": nil, "metadata": nil})
				}
				if sch := s.Request(e.Operation); sch != nil {
					_ = sch.Validate(map[string]any{"data": map[string]any{}})
				}
				if p, err := s.Def("Product"); err != nil {
					t.Error(err)
				} else {
					_ = p.Validate(map[string]any{"guid": "x"})
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestDecode(t *testing.T) {
	v, err := Decode(strings.NewReader(`{"n": 9007199254740993}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(map[string]any)["n"]; got != any(json.Number("9007199254740993")) {
		t.Errorf("number decoded as %T %v", got, got)
	}
	if _, err := Decode(strings.NewReader(`{} {}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

// TestGeneratedOutputIsUpToDate re-runs the generator and compares its
// output byte for byte with the committed files.
func TestGeneratedOutputIsUpToDate(t *testing.T) {
	if gen.BaseURL != BaseURL {
		t.Fatalf("gen.BaseURL %q != schemas.BaseURL %q", gen.BaseURL, BaseURL)
	}
	pkgDir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := pkgDir
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatal("repository root (go.mod) not found above " + pkgDir)
		}
		root = parent
	}
	reference := filepath.Join(root, "..", "shared", "reference", "api.json")
	if _, err := os.Stat(reference); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("reference %s not present (it lives beside the repository, at <repo>/../shared); cannot check that schemas/ is up to date", reference)
	}

	tmp := t.TempDir()
	if err := gen.Run(gen.Options{Reference: reference, Out: tmp}); err != nil {
		t.Fatal(err)
	}
	fresh := map[string]bool{}
	err = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tmp, p)
		rel = filepath.ToSlash(rel)
		fresh[rel] = true
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(pkgDir, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			t.Errorf("%s: missing from schemas/ (%v)", rel, err)
		case !bytes.Equal(got, want):
			t.Errorf("%s: differs from a fresh generation", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(pkgDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(pkgDir, p)
		rel = filepath.ToSlash(rel)
		if gen.IsGenerated(rel) && !fresh[rel] {
			t.Errorf("%s: stale file, no longer generated", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if t.Failed() {
		t.Log("run: go run ./cmd/schemagen -reference ../shared/reference/api.json -out schemas")
	}
}

func BenchmarkCompile(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Compile(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileAll(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := Compile()
		if err != nil {
			b.Fatal(err)
		}
		if err := s.CompileAll(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFirstCreateOrderRequest(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := Compile()
		if err != nil {
			b.Fatal(err)
		}
		if s.Request("CreateOrder") == nil {
			b.Fatal("no schema")
		}
	}
}

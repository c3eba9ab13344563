package fidelity

import (
	"net/url"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// target is one read endpoint both sides are asked: its operation, path
// template, the include sections it is asked with (all of them, so that
// every section's shape is compared) and the query parameters the
// reference requires (the changes logs' from).
type target struct {
	Operation string
	Template  string
	Include   string
	Query     url.Values
}

// requiredValues are the values sent for the query parameters the
// reference marks required on the endpoints asked: a from long before any
// record, so the whole log answers.
var requiredValues = map[string]string{"from": "2000-01-01T00:00:00+0100"}

// source says where a path variable's value comes from when the list
// above it in the path does not name it: a literal, or a gjson path into
// the answer of another endpoint (itself resolved first).
type source struct {
	Literal  string
	Template string // the endpoint read
	Path     string // gjson path into its whole answer
}

// sources are the variables the path prefix does not lead to.
var sources = map[string]map[string]source{
	"GetDetailOfBrand":                           {"code": {Template: "/api/brands", Path: "data.brands.0.indexName"}},
	"GetProductDetailByCode":                     {"code": {Template: "/api/products/{guid}", Path: "data.variants.0.code"}},
	"GetProofPaymentDetailByOrderCode":           {"code": {Template: "/api/proof-payments", Path: `data.items.#(orderCode%"*").orderCode`}},
	"GetProofPaymentDetailByProformaInvoiceCode": {"code": {Template: "/api/proof-payments", Path: `data.items.#(proformaInvoiceCode%"*").proformaInvoiceCode`}},
	"GetSalesChannelsDetailById":                 {"id": {Template: "/api/sales-channels", Path: "data.salesChannels.0.id"}},
	"GetParametricCategoryAvailableParameters":   {"categoryGuid": {Template: "/api/parametric-categories", Path: "data.parametricCategories.0.guid"}},
	"GetShipmentShippingOptionsByOrderCode":      {"code": {Template: "/api/orders", Path: "data.orders.0.code"}},
	"GetListOfProductImages":                     {"gallery": {Literal: "shop"}},
}

// unreadable are the read endpoints whose identifiers no read endpoint
// gives: a payment code is known to the payment add-on, a shipping
// request to the shipping add-on.
var unreadable = map[string]string{
	"GetInformationAboutPayment":              "a payment code is only known to the payment add-on",
	"GetShippingRequestForCartDetails":        "a shipping request is only known to the shipping add-on",
	"GetShippingRequestForGettingOrderStatus": "a shipping request is only known to the shipping add-on",
}

// targets lists every read endpoint of the catalogue that answers JSON at
// once (snapshots start jobs, downloads answer files: neither is asked),
// in catalogue order.
func targets(cat *schemas.Catalogue, reg *registry.Registry) []target {
	var out []target
	for _, e := range cat.Endpoints {
		if e.Method != "GET" || e.Async || e.ResponseKind != "json" {
			continue
		}
		t := target{Operation: e.Operation, Template: e.Path, Query: url.Values{}}
		if hasParam(e.QueryParams, "include") {
			t.Include = includeOf(e.Operation, reg)
		}
		for _, q := range e.RequiredQueryParams {
			t.Query.Set(q, requiredValues[q])
		}
		out = append(out, t)
	}
	return out
}

func hasParam(params []string, p string) bool {
	for _, x := range params {
		if x == p {
			return true
		}
	}
	return false
}

// includeOf is every include section an endpoint knows.
func includeOf(op string, reg *registry.Registry) string {
	if op == "GetEshopInfo" {
		return strings.Join(eshop.Sections, ",")
	}
	row, o, ok := reg.Op(op)
	if !ok {
		return ""
	}
	return strings.Join(registry.SectionNames(row.SectionsOf(o)), ",")
}

// lists maps a path template to the list endpoint serving it (for
// "/api/orders" GetListOfOrders), to find the identifiers below it.
func lists(cat *schemas.Catalogue) map[string]string {
	out := map[string]string{}
	for _, e := range cat.Endpoints {
		if e.Method == "GET" && !e.Async && e.ResponseKind == "json" {
			out[e.Path] = e.Operation
		}
	}
	return out
}

// isVar reports whether a path segment is a {variable}.
func isVar(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

// fill puts escaped values into a template's variables.
func fill(tpl string, vals map[string]string) string {
	segs := strings.Split(tpl, "/")
	for i, s := range segs {
		if isVar(s) {
			if v, ok := vals[s[1:len(s)-1]]; ok {
				segs[i] = url.PathEscape(v)
			}
		}
	}
	return strings.Join(segs, "/")
}

// withQuery adds the target's query (include and the required
// parameters) to a path.
func withQuery(path string, t target) string {
	q := url.Values{}
	for k, vs := range t.Query {
		q[k] = vs
	}
	if t.Include != "" {
		q.Set("include", t.Include)
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// idFields are the item fields tried for a path variable, most specific
// first: the variable's own name, then the identifier its name suggests.
func idFields(name string) []string {
	out := []string{name}
	switch {
	case strings.HasSuffix(name, "Guid"):
		out = append(out, "guid")
	case strings.HasSuffix(name, "Id"):
		out = append(out, "id")
	}
	return append(out, "code", "guid", "id")
}

// sortedKeys returns a map's keys in order.
func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

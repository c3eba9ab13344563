package gen

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// This file holds the constraints that the interface specification
// (/work/shared/spec/interface-spec.md) or the reference README states but
// that api.json does not encode. They are applied to the decoded reference
// before any file is rendered, so they reach defs.json and the endpoint
// files alike.
//
// Rules every patch follows:
//   - the target must exist, otherwise generation fails (drift in the
//     reference must be noticed, not silently skipped);
//   - a patch only narrows: an enum is intersected with an existing enum, a
//     nullable type keeps accepting null, a pattern the reference already has
//     is kept;
//   - values must fit the reference's existing type (a string enum on an
//     integer field is an error).
//
// The one deliberate widening, accepting the SDK's request encoding of
// value objects (integers as digit strings, null as ""), is not a patch:
// it applies to request schemas only and lives in requestside.go.

// Code lists from the spec section "Code lists".
var (
	productVisibility = strs("hidden", "visible", "blocked", "show-registered", "block-unregistered", "cash-desk-only", "detail-only")
	// "gift-certificate" is deprecated in the spec but still a valid value.
	productTypes   = strs("product", "bazar", "service", "gift-certificate", "product-set")
	orderItemTypes = strs("product", "bazar", "service", "shipping", "billing", "discount-coupon", "volume-discount",
		"gift", "gift-certificate", "generic-item", "product-set", "product-set-item", "deposit")
	categoryProductSorting = strs("default", "most-selling", "cheapest", "most-expensive", "oldest", "newest",
		"alphabetically", "alphabetically-desc", "product-code", "product-code-desc", "category-priority", "category-priority-desc")
	// "Invoice billing method ids": 1 cash on delivery, 2 wire transfer, 3 cash, 4 card.
	billingMethodIDs = ints(1, 2, 3, 4)
	vatModes         = strs("Normal", "One Stop Shop", "Mini One Stop Shop", "Reverse charge", "Outside the EU")
	eshopURLIdents   = strs("admin-orders-list", "admin-customers-list", "oauth")
	// Spec "Endpoints" (Templates): the three fixed insertion points.
	templateLocations = strs("common-header", "common-footer", "order-confirmed")
	// Spec "Endpoint list item".
	endpointAccess = strs("read", "write", "both")
	endpointAction = strs("add", "edit", "delete")
	// Spec "Order item": code is required for these item types.
	itemTypesNeedingCode = []string{"product", "bazar", "service", "gift", "product-set"}
)

// Shorthands for the table below.
const (
	dataProps  = "/requestBody/properties/data/properties/"
	respData   = "/responseBody/properties/data/properties/"
	srcCodes   = "spec Code lists"
	srcItem    = "spec Order item"
	srcOrder   = "spec Order creation request"
	srcLimits  = "spec Limits / Authentication (OAuth code: 255 characters)"
	srcReadme  = "reference README"
	srcSurchg  = "spec Surcharge parameter"
	srcEndList = "spec Endpoint list item"
	srcTempl   = "spec Endpoints (Templates: three fixed locations)"
)

// patches is the table of constraints added to the reference. Locations use
// the notation of resolve: a JSON pointer into api.json where the token after
// /endpoints is the operation name.
var patches = []patch{
	// --- Product visibility: every product entity (detail, snapshot line,
	// list item, create/update requests, related-product link).
	{"/$defs/Product/properties/visibility", enum(productVisibility), srcCodes + ": Product visibility"},
	{"/$defs/ProductSnapshot/properties/visibility", enum(productVisibility), srcCodes + ": Product visibility"},
	{"/$defs/ProductUpdate/properties/visibility", enum(productVisibility), srcCodes + ": Product visibility"},
	{"/$defs/RelatedProduct/properties/visibility", enum(productVisibility), srcCodes + ": Product visibility"},
	{"/endpoints/GetListOfProducts" + respData + "products/items/properties/visibility", enum(productVisibility), srcCodes + ": Product visibility"},
	{"/endpoints/CreateProduct" + dataProps + "visibility", enum(productVisibility), srcCodes + ": Product visibility"},

	// --- Product types: the same entities, plus an order item's copy of
	// its product's type.
	{"/$defs/Product/properties/type", enum(productTypes), srcCodes + ": Product types"},
	{"/$defs/ProductSnapshot/properties/type", enum(productTypes), srcCodes + ": Product types"},
	{"/$defs/ProductUpdate/properties/type", enum(productTypes), srcCodes + ": Product types"},
	{"/$defs/OrderItem/properties/productType", enum(productTypes), srcCodes + ": Product types"},
	{"/endpoints/GetListOfProducts" + respData + "products/items/properties/type", enum(productTypes), srcCodes + ": Product types"},
	{"/endpoints/CreateProduct" + dataProps + "type", enum(productTypes), srcCodes + ": Product types"},

	// --- Order item types: order creation items, order item entities and
	// the order item create/update requests. Document items (invoice,
	// credit/delivery note, cart) are deliberately left open.
	{"/$defs/OrderCreate.Items.Item/properties/itemType", enum(orderItemTypes), srcCodes + ": Order item types"},
	{"/$defs/OrderItem/properties/itemType", enum(orderItemTypes), srcCodes + ": Order item types"},
	{"/$defs/Order.Completion.Item/properties/itemType", enum(orderItemTypes), srcCodes + ": Order item types"},
	{"/endpoints/CreateOrderItem" + dataProps + "itemType", enum(orderItemTypes), srcCodes + ": Order item types"},
	{"/endpoints/UpdateOrderItem" + dataProps + "itemType", enum(orderItemTypes), srcCodes + ": Order item types"},

	// --- Order creation request ("data" of POST /api/orders).
	{"/$defs/OrderCreate/properties/billingMethodCode", enum(billingMethodIDs), srcOrder + " (billingMethodCode 1..4)"},
	{"/$defs/OrderCreate/properties/email", format("email"), srcOrder + " (email: format e-mail)"},
	// The order header change (PATCH /api/orders/{code}/head) sends the
	// same e-mail and is checked as creation checks it.
	{"/endpoints/UpdateOrderHead" + dataProps + "email", format("email"), srcOrder + " (email: format e-mail; the header change checks what creation checks)"},
	{"/$defs/OrderCreate.Items.Item", required("itemType", "vatRate"), srcItem + " (itemType, vatRate required)"},
	{"/$defs/OrderCreate.Items.Item/properties/vatRate", pattern(`^[0-9]+\.[0-9]{2}$`), srcItem + " (vatRate: decimal with 2 places)"},
	{"/$defs/OrderCreate.Items.Item/properties/priceRatio", pattern(`^[0-9]+\.[0-9]{4}$`), srcItem + " (priceRatio: decimal with 4 places)"},
	{"/$defs/OrderCreate.Items.Item", requireWhen("itemType", itemTypesNeedingCode, "code"), srcItem + " (code required for product, bazar, service, gift, product-set)"},

	// --- Invoice billing method ids wherever a billing method id is sent
	// or returned.
	{"/$defs/BillingMethod/properties/id", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateInvoiceFromOrder" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateInvoiceFromProformaInvoice" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateProformaInvoiceFromOrder" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateCreditNoteFromInvoice" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateCreditNoteFromProofOfPayment" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/UpdateCreditNote" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/UpdateOrderStatus" + dataProps + "billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/CreateProofPayment" + dataProps + "invoiceBillingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/UpdateProofPayment" + dataProps + "invoiceBillingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},
	{"/endpoints/GetEshopDocumentSettings" + respData + "defaultSettings/properties/billingMethodId", enum(billingMethodIDs), srcCodes + ": Invoice billing method ids"},

	// --- VAT modes: every vatMode property (orders, documents, proof
	// payments).
	{"/$defs/Order/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/OrderCreate/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/OrderSnapshot/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/Invoice/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/InvoiceSnapshot/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/CreditNote/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/CreditNoteSnapshot/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/ProformaInvoice/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/ProformaInvoiceSnapshot/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/ProofPaymentDetail/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/ProofPaymentSnapshot/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},
	{"/$defs/ProofPaymentsList/properties/vatMode", enum(vatModes), srcCodes + ": VAT modes"},

	// --- Category product sorting: the category's productOrdering.
	{"/$defs/Category/properties/productOrdering", enum(categoryProductSorting), srcCodes + ": Category product sorting"},
	{"/$defs/CategoryUpdate/properties/productOrdering", enum(categoryProductSorting), srcCodes + ": Category product sorting"},
	{"/endpoints/CreateProductCategory" + dataProps + "productOrdering", enum(categoryProductSorting), srcCodes + ": Category product sorting"},

	// --- Address idents in e-shop info (GET /api/eshop, data.urls[].ident).
	{"/endpoints/GetEshopInfo" + respData + "urls/items/properties/ident", enum(eshopURLIdents), srcCodes + ": Address idents in e-shop info"},

	// --- Templates (HTML code insertion) locations.
	{"/endpoints/GetListingOfHtmlCodes" + respData + "snippets/items/properties/location", enum(templateLocations), srcTempl},
	{"/endpoints/CreateAndEditHtmlCodes" + dataProps + "snippets/items/properties/location", enum(templateLocations), srcTempl},
	{"/endpoints/CreateAndEditHtmlCodes" + respData + "snippets/items/properties/location", enum(templateLocations), srcTempl},

	// --- Endpoint list item (GET /api/system/endpoints).
	{"/endpoints/GetListOfAvailableEndpoints" + respData + "endpoints/items/properties/access", enum(endpointAccess), srcEndList + " (access)"},
	{"/endpoints/GetListOfAvailableEndpoints" + respData + "endpoints/items/properties/action", enum(endpointAction), srcEndList + " (action; null when approved)"},

	// --- Surcharge parameter PATCH response: "All are required keys except
	// the inner googleMapping fields" (the reference only requires the
	// non-nullable ones).
	{"/endpoints/UpdateSurchargeParameter" + respData + "surchargeParameter", required("code", "currency", "description", "displayName", "googleMapping", "id", "includingVat", "name", "priority", "required"), srcSurchg},

	// --- OAuth code exchange (POST {eshop_url}/action/ApiOAuthServer/token).
	{"/oauth/codeExchange/requestBody/properties/code", length(255, 255), srcLimits},
	{"/oauth/codeExchange/requestBody/properties/grant_type", constant("authorization_code"), srcReadme + " (fixed grant_type)"},
	{"/oauth/codeExchange/requestBody/properties/scope", constant("api"), srcReadme + " (fixed scope)"},

	// --- Job statuses (README "Jobs"; list taken from jobs.statuses).
	{"/jobs/record/properties/status", enumFrom("/jobs/statuses"), srcReadme + " (job statuses)"},
	{"/endpoints/GetJobDetail" + respData + "job/properties/status", enumFrom("/jobs/statuses"), srcReadme + " (job statuses)"},
	{"/endpoints/GetListOfJobs" + respData + "jobs/items/properties/status", enumFrom("/jobs/statuses"), srcReadme + " (job statuses)"},

	// --- Webhook event names (spec "Events"; the complete list is the
	// reference's webhooks.events, a superset of the spec's table).
	{"/$defs/NotificationData/properties/event", enumFrom("/webhooks/events"), "spec Events / webhooks.events"},
	{"/$defs/Webhook/properties/event", enumFrom("/webhooks/events"), "spec Events / webhooks.events"},
	// Registration also takes the spec's own names where the reference
	// spells a kind otherwise (sandbox/shop/webhooks Aliases lists the pairs;
	// notifications carry the reference's name).
	{"/endpoints/RegisterNewWebhook/requestBody/properties/data/items/properties/event", enumFrom("/webhooks/events").and(specEventNames...),
		"spec Events / webhooks.events, plus the spec's names the reference spells otherwise"},
}

// specEventNames are the event kinds of the spec's Events table that the
// reference's webhooks.events spells otherwise: productReview:create is
// the reference's productReview:created.
var specEventNames = strs("productReview:create")

// patch is one row of the table: where, what, and on whose authority.
type patch struct {
	at  string
	op  patchOp
	src string
}

// patchOp edits one schema node and describes what it did.
type patchOp interface {
	apply(r *reference, node map[string]any) (result string, err error)
}

func applyPatches(r *reference, log io.Writer) error {
	return applyPatchTable(r, patches, log)
}

func applyPatchTable(r *reference, table []patch, log io.Writer) error {
	var failures []string
	added, present := 0, 0
	patched := map[string]bool{}
	fmt.Fprintf(log, "constraint patches (%d):\n", len(table))
	for _, p := range table {
		node, err := resolveSchema(r, p.at)
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: target missing: %v", p.at, err))
			continue
		}
		result, err := p.op.apply(r, node)
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v", p.at, err))
			continue
		}
		if strings.HasPrefix(result, "already present") {
			present++
		} else {
			added++
		}
		patched[p.at] = true
		fmt.Fprintf(log, "  %s: %s  [%s]\n", p.at, result, p.src)
	}
	if len(failures) > 0 {
		return fmt.Errorf("constraint patches failed (the reference drifted?):\n  %s", strings.Join(failures, "\n  "))
	}
	fmt.Fprintf(log, "constraint patches: %d applied, %d already present in the reference\n", added, present)
	reviewUnpatched(r, table, patched, log)
	return nil
}

// reviewUnpatched lists properties that share a name with an enum patch
// target but were not patched, so that a new occurrence (or a deliberate
// omission) is visible in the generator output.
func reviewUnpatched(r *reference, table []patch, patched map[string]bool, log io.Writer) {
	generic := map[string]bool{"type": true, "status": true, "id": true, "location": true, "access": true, "action": true, "event": true}
	kinds := map[string]string{} // property name -> JSON type of its enum values
	for _, p := range table {
		e, ok := p.op.(*enumOp)
		if !ok {
			continue
		}
		name := p.at[strings.LastIndex(p.at, "/")+1:]
		if generic[name] {
			continue
		}
		kinds[name] = e.kind
	}
	var lines []string
	walkProperties(r, func(loc, name string, node map[string]any) {
		kind, ok := kinds[name]
		if !ok || patched[loc] || !hasType(node, kind) {
			return
		}
		lines = append(lines, fmt.Sprintf("  %s (%v)", loc, node["type"]))
	})
	if len(lines) == 0 {
		return
	}
	sort.Strings(lines)
	fmt.Fprintf(log, "review: %d properties share a name with a patched code list but were left open on purpose:\n%s\n", len(lines), strings.Join(lines, "\n"))
}

// walkProperties calls fn for every property schema in the reference, with
// its location in resolve notation.
func walkProperties(r *reference, fn func(loc, name string, node map[string]any)) {
	var walk func(v any, loc string)
	walk = func(v any, loc string) {
		switch t := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(t) {
				child := loc + "/" + escapePointerToken(k)
				if props, ok := asObject(t[k]); ok && k == "properties" {
					for _, name := range sortedKeys(props) {
						ploc := child + "/" + escapePointerToken(name)
						if node, ok := asObject(props[name]); ok {
							fn(ploc, name, node)
						}
						walk(props[name], ploc)
					}
					continue
				}
				walk(t[k], child)
			}
		case []any:
			for i, x := range t {
				walk(x, fmt.Sprintf("%s/%d", loc, i))
			}
		}
	}
	for _, k := range sortedKeys(r.doc) {
		if k == "endpoints" {
			for _, e := range r.endpoints {
				op, _ := asString(e["operation"])
				walk(e, "/endpoints/"+op)
			}
			continue
		}
		walk(r.doc[k], "/"+escapePointerToken(k))
	}
}

// ---- operations ----------------------------------------------------------

// enumOp restricts a scalar to a code list. A nullable type keeps null in
// the enum; an existing enum is intersected with the list.
type enumOp struct {
	values []any
	from   string // when set, the values are read from this reference location
	extra  []any  // values added to those read from the reference
	kind   string // "string" or "integer"
}

func enum(values []any) *enumOp {
	kind := "string"
	if _, ok := values[0].(json.Number); ok {
		kind = "integer"
	}
	return &enumOp{values: values, kind: kind}
}

func enumFrom(loc string) *enumOp { return &enumOp{from: loc, kind: "string"} }

// and adds values to a code list read from the reference (the spec's
// names of kinds the reference spells otherwise). Still a narrowing: the
// reference leaves such a field any string.
func (e *enumOp) and(extra ...any) *enumOp {
	e.extra = append(e.extra, extra...)
	return e
}

func (e *enumOp) apply(r *reference, node map[string]any) (string, error) {
	values := e.values
	if e.from != "" {
		var err error
		if values, err = lookupArray(r, e.from); err != nil {
			return "", err
		}
	}
	for _, x := range e.extra {
		for _, v := range values {
			if jsonEqual(v, x) {
				return "", fmt.Errorf("%v is already in the code list; it needs no addition", x)
			}
		}
	}
	values = append(append([]any{}, values...), e.extra...)
	if len(values) == 0 {
		return "", fmt.Errorf("empty code list")
	}
	if !hasType(node, e.kind) && !(e.kind == "integer" && hasType(node, "number")) {
		return "", fmt.Errorf("%s code list on a property of type %v", e.kind, node["type"])
	}
	if _, ok := node["const"]; ok {
		return "", fmt.Errorf("property already has a const")
	}
	var out []any
	note := ""
	if existing, ok := asArray(node["enum"]); ok {
		for _, v := range values {
			for _, x := range existing {
				if jsonEqual(v, x) {
					out = append(out, v)
					break
				}
			}
		}
		if len(out) == 0 {
			return "", fmt.Errorf("code list and existing enum %s do not intersect", quoteList(existing))
		}
		note = " (intersected with the reference's enum)"
	} else {
		out = append(out, values...)
	}
	if hasType(node, "null") {
		out = append(out, nil)
	}
	if old, ok := node["enum"]; ok && jsonEqual(old, out) {
		return "already present: enum " + quoteList(out), nil
	}
	node["enum"] = out
	return "enum " + abbreviate(out) + note, nil
}

func abbreviate(values []any) string {
	if len(values) > 14 {
		return fmt.Sprintf("%s … (%d values)", quoteList(values[:6]), len(values))
	}
	return quoteList(values)
}

// patternOp adds a pattern unless the reference already has one.
type patternOp struct{ pattern string }

func pattern(p string) *patternOp { return &patternOp{p} }

func (p *patternOp) apply(_ *reference, node map[string]any) (string, error) {
	if !hasType(node, "string") {
		return "", fmt.Errorf("pattern on a property of type %v", node["type"])
	}
	if old, ok := asString(node["pattern"]); ok {
		if old == p.pattern {
			return fmt.Sprintf("already present: pattern %q", old), nil
		}
		return fmt.Sprintf("already present: pattern %q kept (spec-derived %q not applied)", old, p.pattern), nil
	}
	node["pattern"] = p.pattern
	return fmt.Sprintf("pattern %q", p.pattern), nil
}

// formatOp adds a format assertion (package schemas compiles with
// AssertFormat enabled).
type formatOp struct{ format string }

func format(f string) *formatOp { return &formatOp{f} }

func (f *formatOp) apply(_ *reference, node map[string]any) (string, error) {
	if !hasType(node, "string") {
		return "", fmt.Errorf("format on a property of type %v", node["type"])
	}
	if old, ok := node["format"]; ok {
		if old == f.format {
			return fmt.Sprintf("already present: format %q", f.format), nil
		}
		return "", fmt.Errorf("reference has format %v, spec says %q", old, f.format)
	}
	node["format"] = f.format
	return fmt.Sprintf("format %q", f.format), nil
}

// lengthOp sets minLength/maxLength.
type lengthOp struct{ min, max int }

func length(lo, hi int) *lengthOp { return &lengthOp{lo, hi} }

func (l *lengthOp) apply(_ *reference, node map[string]any) (string, error) {
	if !hasType(node, "string") {
		return "", fmt.Errorf("length on a property of type %v", node["type"])
	}
	want := map[string]json.Number{
		"minLength": json.Number(fmt.Sprint(l.min)),
		"maxLength": json.Number(fmt.Sprint(l.max)),
	}
	same := true
	for k, v := range want {
		old, ok := node[k]
		if !ok {
			same = false
			continue
		}
		if !jsonEqual(old, v) {
			return "", fmt.Errorf("reference has %s %v, spec says %s", k, old, v)
		}
	}
	if same {
		return fmt.Sprintf("already present: minLength %d, maxLength %d", l.min, l.max), nil
	}
	for k, v := range want {
		node[k] = v
	}
	return fmt.Sprintf("minLength %d, maxLength %d", l.min, l.max), nil
}

// requiredOp adds property names to "required".
type requiredOp struct{ names []string }

func required(names ...string) *requiredOp { return &requiredOp{names} }

func (q *requiredOp) apply(_ *reference, node map[string]any) (string, error) {
	props, ok := asObject(node["properties"])
	if !ok {
		return "", fmt.Errorf("no properties")
	}
	set := map[string]bool{}
	old, _ := asArray(node["required"])
	for _, x := range old {
		if s, ok := asString(x); ok {
			set[s] = true
		}
	}
	var added []string
	for _, n := range q.names {
		if _, ok := props[n]; !ok {
			return "", fmt.Errorf("required %q is not a property", n)
		}
		if !set[n] {
			set[n] = true
			added = append(added, n)
		}
	}
	if len(added) == 0 {
		return fmt.Sprintf("already present: required %v", q.names), nil
	}
	all := make([]string, 0, len(set))
	for n := range set {
		all = append(all, n)
	}
	sort.Strings(all)
	list := make([]any, len(all))
	for i, n := range all {
		list[i] = n
	}
	node["required"] = list
	return fmt.Sprintf("required += %v", added), nil
}

// requireWhenOp makes one property required (as a non-null string) when
// another property has one of the given values, via allOf/if/then.
type requireWhenOp struct {
	prop   string
	values []string
	then   string
}

func requireWhen(prop string, values []string, then string) *requireWhenOp {
	return &requireWhenOp{prop, values, then}
}

func (w *requireWhenOp) apply(_ *reference, node map[string]any) (string, error) {
	props, ok := asObject(node["properties"])
	if !ok {
		return "", fmt.Errorf("no properties")
	}
	for _, n := range []string{w.prop, w.then} {
		p, ok := asObject(props[n])
		if !ok {
			return "", fmt.Errorf("%q is not a property", n)
		}
		if !hasType(p, "string") {
			return "", fmt.Errorf("%q is not a string property", n)
		}
	}
	cond := map[string]any{
		"if": map[string]any{
			"properties": map[string]any{w.prop: map[string]any{"enum": strs(w.values...)}},
			"required":   []any{w.prop},
		},
		"then": map[string]any{
			"properties": map[string]any{w.then: map[string]any{"type": "string"}},
			"required":   []any{w.then},
		},
	}
	all, _ := asArray(node["allOf"])
	for _, x := range all {
		if jsonEqual(x, cond) {
			return "already present: conditional required", nil
		}
	}
	node["allOf"] = append(all, cond)
	return fmt.Sprintf("allOf += if %s in %v then %s is a required string", w.prop, w.values, w.then), nil
}

// constOp asserts a fixed value: it is expected to be in the reference
// already; a different value is an error.
type constOp struct{ value any }

func constant(v any) *constOp { return &constOp{v} }

func (c *constOp) apply(_ *reference, node map[string]any) (string, error) {
	if old, ok := node["const"]; ok {
		if jsonEqual(old, c.value) {
			return fmt.Sprintf("already present: const %q", c.value), nil
		}
		return "", fmt.Errorf("reference has const %v, expected %v", old, c.value)
	}
	node["const"] = c.value
	return fmt.Sprintf("const %q", c.value), nil
}

func strs(values ...string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

func ints(values ...int) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = json.Number(fmt.Sprint(v))
	}
	return out
}

package crud

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// Hook completes one registry row, or one operation of a row, with the
// behaviour the table cannot state. Resource-level fields need Operation
// empty; operation-level fields need it set. New checks every hook
// against the registry, so a hook for a resource or operation the table
// does not have, or of the wrong kind, stops the sandbox at start.
//
// crud's own hooks (builtinHooks) need nothing but the generic reads and
// writes; the rules of a shop area come from that area's package through
// Deps.Hooks (products.Hooks, documents.Hooks), so crud imports nothing
// above it.
type Hook struct {
	Resource  string // registry row name
	Operation string // an operation of the row, for the operation-level fields

	// Resource level.
	Prepare  Prepare                                // adjusts a record after request data was merged into it
	Parent   func(c *Ctx, parent map[string]any)    // runs on the row's record before it is written back after its embedded records changed
	Download Download                               // draws the document the row's downloads answer
	Number   func(c *Ctx, k *Coll) (string, error)  // the next code of a numbered row (registry Numbered)
	Deleted  func(c *Ctx, k *Coll, id string) error // runs after a record of the row was deleted, in the same write

	// Operation level.
	ListDefaults ListDefaults // list-level fields a List answers besides its items
	ByParent     string       // for a Detail looked up By a foreign id: the row that id belongs to
}

// Download draws a record of a row with downloads, as the client sees it
// (rendered), as the file of the download's format (registry Op.Format:
// "pdf" or "isdoc").
type Download func(c *Ctx, shown map[string]any, format string) (*api.Raw, error)

// builtinHooks are the hooks crud completes the table with itself, one
// line per resource or operation; New adds Deps.Hooks to them.
var builtinHooks = []Hook{
	{Resource: "brands", Prepare: prepareBrand},
	{Resource: "categories", Prepare: prepareURLNamed("name")},
	{Resource: "parametric-categories", Prepare: prepareURLNamed("name")},
	{Resource: "articles", Prepare: prepareURLNamed("title")},
	{Resource: "article-sections", Prepare: prepareURLNamed("title")},
	{Resource: "pages", Prepare: prepareURLNamed("title")},
	{Resource: "customers", Prepare: prepareCustomer},
	{Resource: "customers/accounts", Prepare: prepareAccount},
	{Resource: "customer-groups", Prepare: prepareCustomerGroup},
	{Resource: "coupon-templates", Prepare: prepareCouponTemplate},
	{Resource: "quantity-discounts", Prepare: prepareGroupCodes},
	{Resource: "xy-discounts", Prepare: prepareGroupCodes},
	{Resource: "product-reviews", Prepare: prepareProductReview},
	{Resource: "shipping-methods", Prepare: prepareShippingMethod},
	{Resource: "unsubscribed-emails", Prepare: prepareNow("unsubscribedAt")},
	{Resource: "discussion-posts", Prepare: prepareNow("creationDate")},

	{Resource: "stocks", Operation: "GetListOfStocks", ListDefaults: stockDefaults},
	{Resource: "availabilities", Operation: "GetListOfProductsAvailabilities", ListDefaults: availabilityDefaults},
	{Resource: "shipping-methods", Operation: "GetListOfShippingMethods", ListDefaults: shippingDefaults},

	// An order code with no proof payment yet is an empty list, an
	// unknown order code a 404.
	{Resource: "proof-payments", Operation: "GetProofPaymentDetailByOrderCode", ByParent: "orders"},
	{Resource: "proof-payments", Operation: "GetProofPaymentDetailByProformaInvoiceCode", ByParent: "proforma-invoices"},
}

// hooks is the hook table indexed for the handlers: resource-level
// fields by row name, operation-level ones by operation.
type hooks struct {
	res map[string]*Hook
	op  map[string]*Hook
}

func (h *hooks) resource(name string) *Hook {
	if x := h.res[name]; x != nil {
		return x
	}
	return &Hook{}
}

func (h *hooks) operation(name string) *Hook {
	if x := h.op[name]; x != nil {
		return x
	}
	return &Hook{}
}

// indexHooks checks a hook table against the registry and indexes it:
// each hook names a row (and an operation of that row for the
// operation-level fields), sets only fields of its level, and no two
// hooks complete the same field of one resource or operation. Every
// downloadable row needs its Download, every numbered row its Number.
func indexHooks(reg *registry.Registry, table []Hook) (*hooks, error) {
	h := &hooks{res: map[string]*Hook{}, op: map[string]*Hook{}}
	for i := range table {
		x := table[i]
		row, ok := reg.Resource(x.Resource)
		if !ok {
			return nil, fmt.Errorf("crud hook %d: no registry row %q", i, x.Resource)
		}
		resLevel := x.Prepare != nil || x.Parent != nil || x.Download != nil || x.Number != nil || x.Deleted != nil
		opLevel := x.ListDefaults != nil || x.ByParent != ""
		if x.Operation == "" {
			if opLevel {
				return nil, fmt.Errorf("crud hook for %s: list defaults and by-parent lookups belong to an operation", x.Resource)
			}
			if !resLevel {
				return nil, fmt.Errorf("crud hook for %s sets nothing", x.Resource)
			}
			if err := h.addResource(reg, row, x); err != nil {
				return nil, err
			}
			continue
		}
		_, op, ok := reg.Op(x.Operation)
		if !ok || !hasOp(row, op) {
			return nil, fmt.Errorf("crud hook for %s: %s is not an operation of the row", x.Resource, x.Operation)
		}
		if resLevel {
			return nil, fmt.Errorf("crud hook for %s %s: prepare, parent, download, number and delete hooks belong to the resource", x.Resource, x.Operation)
		}
		if !opLevel {
			return nil, fmt.Errorf("crud hook for %s %s sets nothing", x.Resource, x.Operation)
		}
		if x.ListDefaults != nil && op.Kind != registry.List {
			return nil, fmt.Errorf("crud hook for %s %s: list defaults on a %s operation", x.Resource, x.Operation, op.Kind)
		}
		if x.ByParent != "" {
			if op.Kind != registry.Detail || op.By == "" {
				return nil, fmt.Errorf("crud hook for %s %s: a by-parent lookup needs a Detail op with By", x.Resource, x.Operation)
			}
			if _, ok := reg.Resource(x.ByParent); !ok {
				return nil, fmt.Errorf("crud hook for %s %s: by-parent names no registry row %q", x.Resource, x.Operation, x.ByParent)
			}
		}
		if h.op[x.Operation] != nil {
			return nil, fmt.Errorf("crud hook for %s %s: the operation is hooked twice", x.Resource, x.Operation)
		}
		h.op[x.Operation] = &x
	}
	for _, row := range reg.Resources() {
		if row.Op(registry.Download) != nil && h.resource(row.Name).Download == nil {
			return nil, fmt.Errorf("registry row %s has downloads but no download hook", row.Name)
		}
		if row.Numbered && h.resource(row.Name).Number == nil {
			return nil, fmt.Errorf("registry row %s is numbered but has no number hook", row.Name)
		}
	}
	return h, nil
}

// addResource merges a resource-level hook into the row's entry.
func (h *hooks) addResource(reg *registry.Registry, row *registry.Resource, x Hook) error {
	cur := h.res[row.Name]
	if cur == nil {
		cur = &Hook{Resource: row.Name}
		h.res[row.Name] = cur
	}
	twice := func(field string) error {
		return fmt.Errorf("crud hook for %s: %s is set twice", row.Name, field)
	}
	if x.Prepare != nil {
		if cur.Prepare != nil {
			return twice("prepare")
		}
		cur.Prepare = x.Prepare
	}
	if x.Parent != nil {
		if cur.Parent != nil {
			return twice("parent")
		}
		if !isParent(reg, row.Name) {
			return fmt.Errorf("crud hook for %s: a parent hook on a row no other row embeds into", row.Name)
		}
		cur.Parent = x.Parent
	}
	if x.Download != nil {
		if cur.Download != nil {
			return twice("download")
		}
		if row.Op(registry.Download) == nil {
			return fmt.Errorf("crud hook for %s: a download hook on a row without downloads", row.Name)
		}
		cur.Download = x.Download
	}
	if x.Number != nil {
		if cur.Number != nil {
			return twice("number")
		}
		if !row.Numbered {
			return fmt.Errorf("crud hook for %s: a number hook on a row that is not numbered", row.Name)
		}
		cur.Number = x.Number
	}
	if x.Deleted != nil {
		if cur.Deleted != nil {
			return twice("deleted")
		}
		cur.Deleted = x.Deleted
	}
	return nil
}

func hasOp(row *registry.Resource, op *registry.Op) bool {
	for _, o := range row.Ops {
		if o == op {
			return true
		}
	}
	return false
}

func isParent(reg *registry.Registry, name string) bool {
	for _, r := range reg.Resources() {
		if r.Parent != nil && r.Parent.Resource == name {
			return true
		}
	}
	return false
}

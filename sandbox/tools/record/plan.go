package record

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// table is one fixture collection file recorded the generic way: its
// records are the items of a list endpoint, each read again through its
// detail endpoint (with every include section) when the resource has one.
type table struct {
	Row        *registry.Resource
	List       *registry.Op
	ListPath   string
	Detail     *registry.Op // nil: the list item is the record
	DetailPath string       // with {Var}
	Include    string       // include sections of the detail (or the list without one)
}

// child fills a metadata array of each record of a parent table from a
// paged list endpoint under the parent (a price list's prices, a stock's
// supplies, a mailing list's addresses).
type child struct {
	Row    *registry.Resource // the child row (Parent.Field is the array)
	List   *registry.Op
	Path   string // with the parent's variable
	Var    string // the variable of Path
	Parent string // parent row name
}

// plan is what a recording reads, derived from the registry (so a new
// row is recorded without a change here) and the endpoint catalogue.
type plan struct {
	Tables   []table
	Children []child
	Paths    map[string]string // operation -> path template
	Settings []*registry.Op    // the settings documents (Fixed singletons)
}

// Special files: recorded by their own code (extras.go), or not at all.
const (
	rowSettings         = "settings"
	rowPaymentMethods   = "payment-methods"
	rowOrderHistory     = "order-history"
	rowStockMovements   = "stock-movements"
	rowShippingRequests = "shipping-requests"
)

// NotRecorded names what a recording cannot read through the API, with
// the reason; docs/record-and-diff.md and the command's summary show it.
var NotRecorded = []struct{ What, Why string }{
	{"credentials.json", "tokens and add-on secrets are never readable; a fresh private token with every right is generated"},
	{"shipping-requests.json", "a shipping request is only known to the shipping add-on it was sent to"},
	{"_role, _sendEmail, _paymentResults (order statuses)", "the API does not say which status cancels or mails; the sandbox's defaults apply"},
	{"_online, _addon (payment methods), _branches (shipping methods), _carrier (shipments)", "the gateway add-ons and pickup points are not readable"},
	{"_priorities (categories), _invoiceCode (proforma invoices)", "written by the sandbox's own API calls"},
	{"webhooks, jobs, files, add-on installs", "the state of add-ons, not of the e-shop"},
}

func newPlan(reg *registry.Registry, cat *schemas.Catalogue) (*plan, error) {
	p := &plan{Paths: map[string]string{}}
	for _, e := range cat.Endpoints {
		if e.Method == "GET" {
			p.Paths[e.Operation] = e.Path
		}
	}
	for _, row := range reg.Resources() {
		if row.Parent != nil {
			if strings.HasPrefix(row.Parent.Field, "_") {
				if op := row.Op(registry.List); op != nil && p.Paths[op.Operation] != "" {
					path := p.Paths[op.Operation]
					vars := pathVars(path)
					if len(vars) != 1 {
						return nil, fmt.Errorf("record: %s: %s has %d path variables, want the parent's one", row.Name, op.Operation, len(vars))
					}
					p.Children = append(p.Children, child{Row: row, List: op, Path: path, Var: vars[0], Parent: row.Parent.Resource})
				}
			}
			continue
		}
		switch row.Name {
		case rowSettings:
			for _, op := range row.Ops {
				if op.Kind == registry.Detail && op.Fixed != "" && p.Paths[op.Operation] != "" {
					p.Settings = append(p.Settings, op)
				}
			}
			continue
		case rowPaymentMethods, rowOrderHistory, rowStockMovements, rowShippingRequests:
			continue
		}
		list := row.Op(registry.List)
		if list == nil || p.Paths[list.Operation] == "" || len(pathVars(p.Paths[list.Operation])) > 0 {
			continue // no list of its own: recorded by extras or not readable
		}
		t := table{Row: row, List: list, ListPath: p.Paths[list.Operation]}
		for _, op := range row.Ops {
			if op.Kind == registry.Detail && op.Var != "" && op.By == "" && op.Fixed == "" && p.Paths[op.Operation] != "" {
				t.Detail, t.DetailPath = op, p.Paths[op.Operation]
				break
			}
		}
		include := row.SectionsOf(list)
		if t.Detail != nil {
			include = row.SectionsOf(t.Detail)
		}
		t.Include = strings.Join(registry.SectionNames(include), ",")
		p.Tables = append(p.Tables, t)
	}
	sort.SliceStable(p.Tables, func(i, j int) bool { return p.Tables[i].Row.Name < p.Tables[j].Row.Name })
	return p, nil
}

// pathVars lists the {variables} of a path template.
func pathVars(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}

// fill puts escaped values into a path template's variables.
func fill(path string, vars map[string]string) string {
	for k, v := range vars {
		path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
	}
	return path
}

// withQuery adds query parameters (empty values skipped) to a path.
func withQuery(path string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// Package registry is the declarative table of the sandbox's resources:
// which store collection backs a resource, the field that identifies a
// record, the reference entity a fixture record must match, how it is
// listed (array key, paging defaults and maxima, filters) and shown
// (include sections), and which events it emits. Routes and the generic
// list and detail handlers are generated from these rows; hand-written
// handlers exist only where behaviour demands it.
package registry

import (
	"fmt"
	"sort"
	"strings"
)

// Resource is one row of the table.
type Resource struct {
	Name    string // store collection and fixture file name, e.g. "products"
	IDField string // top-level field holding the record's identifier
	Def     string // reference $defs entity each record must match ("" = no check)

	List   *List   // the list endpoint, nil when there is none
	Detail *Detail // the detail endpoint, nil when there is none

	Events Events // event kinds emitted by writes
}

// List describes a resource's list endpoint.
type List struct {
	Operation  string   // reference operation, e.g. GetListOfProducts
	Key        string   // array key in data, e.g. "products"
	Paged      bool     // answers with a paginator
	PerPage    int      // default itemsPerPage
	MaxPerPage int      // larger values are replaced by this
	Filters    []Filter // query filters
	// Item, when set, adds computed fields of the list item shape that
	// the stored detail record does not hold (e.g. a product's mainImage).
	Item func(record map[string]any) map[string]any
}

// Detail describes a resource's detail endpoint.
type Detail struct {
	Operation string    // reference operation, e.g. GetProductDetail
	Var       string    // path variable holding the id, e.g. "guid"
	Key       string    // "" when data is the record itself, else e.g. "order"
	Sections  []Section // include sections
}

// Section is one include section: a name the client writes in include and
// the field paths it controls. "items[].mainImage" means the mainImage of
// every element of items.
type Section struct {
	Name   string
	Fields []string
}

// Events names the event kinds a resource's writes emit.
type Events struct {
	Create, Update, Delete string
}

// Registry holds the rows, indexed by name and operation.
type Registry struct {
	rows []*Resource
	by   map[string]*Resource
	ops  map[string]*Resource
}

// New validates rows and indexes them. Duplicate names or operations are
// a programming error reported at start-up.
func New(rows []*Resource) (*Registry, error) {
	r := &Registry{by: map[string]*Resource{}, ops: map[string]*Resource{}}
	for _, row := range rows {
		if row.Name == "" || row.IDField == "" {
			return nil, fmt.Errorf("registry: row %+v needs a name and an id field", row)
		}
		if _, dup := r.by[row.Name]; dup {
			return nil, fmt.Errorf("registry: resource %q defined twice", row.Name)
		}
		r.by[row.Name] = row
		for _, op := range row.operations() {
			if prev, dup := r.ops[op]; dup {
				return nil, fmt.Errorf("registry: operation %s bound to both %s and %s", op, prev.Name, row.Name)
			}
			r.ops[op] = row
		}
		if row.List != nil && row.List.Paged && (row.List.PerPage < 1 || row.List.MaxPerPage < row.List.PerPage) {
			return nil, fmt.Errorf("registry: %s: paged list needs 1 <= PerPage <= MaxPerPage", row.Name)
		}
		r.rows = append(r.rows, row)
	}
	return r, nil
}

func (row *Resource) operations() []string {
	var ops []string
	if row.List != nil {
		ops = append(ops, row.List.Operation)
	}
	if row.Detail != nil {
		ops = append(ops, row.Detail.Operation)
	}
	return ops
}

// Resource returns a row by name.
func (r *Registry) Resource(name string) (*Resource, bool) {
	row, ok := r.by[name]
	return row, ok
}

// Resources returns every row in table order.
func (r *Registry) Resources() []*Resource { return r.rows }

// Names returns the resource names, sorted, for messages.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.rows))
	for _, row := range r.rows {
		out = append(out, row.Name)
	}
	sort.Strings(out)
	return out
}

// SectionNames lists the include names of a detail endpoint.
func (d *Detail) SectionNames() []string {
	out := make([]string, len(d.Sections))
	for i, s := range d.Sections {
		out[i] = s.Name
	}
	return out
}

// HidePaths returns the field paths to null out for the sections the
// client did not ask for.
func (d *Detail) HidePaths(include map[string]bool) []string {
	var out []string
	for _, s := range d.Sections {
		if !include[s.Name] {
			out = append(out, s.Fields...)
		}
	}
	return out
}

// FieldPath splits "items[].mainImage" into its steps.
func FieldPath(p string) []string { return strings.Split(p, ".") }

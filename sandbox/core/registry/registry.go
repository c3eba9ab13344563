// Package registry is the declarative table of the sandbox's resources:
// which store collection backs a resource, the field that identifies a
// record, whether it lives inside a parent record, the reference entity a
// fixture record must match, and one row per endpoint of the resource
// (its operation, the generic behaviour it gets, the response key, list
// paging and filters, include sections). Routes and the generic handlers
// of sandbox/core/crud are generated from these rows; the few operations whose
// behaviour the table cannot express are marked Action and served by a
// behaviour package. The rows are split by area (rows_*.go).
package registry

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Kind is the generic behaviour an endpoint gets.
type Kind string

// The behaviours sandbox/core/crud implements.
const (
	List       Kind = "list"        // GET a collection: paging, filters, include
	Detail     Kind = "detail"      // GET one record (or the records matching Op.By)
	Create     Kind = "create"      // POST one record
	Update     Kind = "update"      // PATCH: merge into the record; with language, into its translation
	Replace    Kind = "replace"     // PUT: replace the whole set of embedded records
	Delete     Kind = "delete"      // DELETE one record
	DeleteAll  Kind = "delete-all"  // DELETE every embedded record of a parent
	Changes    Kind = "changes"     // GET the change log (from, changeType)
	BulkCreate Kind = "bulk-create" // POST several records; skipped rows answer 200 with errors
	BulkUpdate Kind = "bulk-update" // PATCH several records by id
	BulkDelete Kind = "bulk-delete" // DELETE several records by id
	Download   Kind = "download"    // GET a record as a PDF or ISDOC file
	Action     Kind = "action"      // hand-written behaviour (a behaviour package serves it)
	Batch      Kind = "batch"       // an asynchronous batch file whose every line goes through the Single op (sandbox/shop/jobs)
)

// Answer says what a write answers with.
type Answer string

// Answers of writes.
const (
	AnswerRecord Answer = ""       // the written record (default)
	AnswerParent Answer = "parent" // the parent record of an embedded resource
	AnswerAll    Answer = "all"    // the whole list (the collection, or the parent's array)
	AnswerNone   Answer = "none"   // data null
)

// Resource is one row of the table: a kind of record and its endpoints.
type Resource struct {
	Name    string // store collection and fixture file name, e.g. "products"
	IDField string // field holding the record's identifier
	Def     string // reference $defs entity each fixture record must match ("" = none)
	// Parent, when set, makes this an embedded resource: its records are
	// the elements of an array field of a parent record.
	Parent *Parent
	// Alt lists other fields (gjson paths) whose value also identifies a
	// record in a path, e.g. a brand's guid besides its index name.
	Alt []string
	// IDFrom lists request fields whose value becomes a new record's id
	// (first non-empty wins); SlugFrom names the field slugged into a
	// string id when none is given. Integer ids come from a sequence and
	// GUIDs are generated.
	IDFrom   []string
	SlugFrom string
	// Numbered marks a numbered collection (a document kind): a new
	// record's code comes from the collection's one number sequence
	// (documents.NextCode), which the order flow and the accounting
	// actions draw from too.
	Numbered bool
	// LangFields are the texts a PATCH with language writes into the
	// translation; LangID says the path identifier may be given in the
	// selected language (spec, common query parameters, rule 3).
	LangFields []string
	LangID     bool
	// Refs and Rename map request fields onto record fields.
	Refs   []Ref
	Rename map[string]string
	// Sections are the include sections of the resource's GET endpoints.
	Sections []Section
	// Events emitted by the generic writes.
	Events Events
	// ChangeKey is the identifier key of the change log's items ("guid",
	// "code", "email"); "" keeps no change log.
	ChangeKey string
	// BulkMax is the most entities one bulk request may name (413 above).
	BulkMax int
	// Item adds computed fields of the list item shape.
	Item func(record map[string]any) map[string]any
	// Ops are the resource's endpoints.
	Ops []*Op
}

// Parent places an embedded resource inside its parent record.
type Parent struct {
	Resource string // parent row name
	Var      string // path variable holding the parent's id
	Field    string // array field of the parent record holding the elements
	// Events are emitted on the parent (its id as instance) for writes of
	// an element, e.g. customer:update for a customer's account.
	Events bool
}

// Ref turns a reference in a request (brandCode, categoryGuids) into the
// embedded object the record holds (brand {code, name}). An unknown
// reference answers 404 naming the field.
type Ref struct {
	Field    string   // request field
	Into     string   // record field
	Resource string   // referenced row
	Pick     []string // fields copied from the referenced record ("" = all)
	Many     bool     // the request holds a list of ids
}

// Events names the event kinds a resource's writes emit.
type Events struct {
	Create, Update, Delete string
	// Mass events accompany bulk writes (spec, Events rule 5).
	MassCreate, MassUpdate, MassDelete string
}

// Op is one endpoint of a resource.
type Op struct {
	Operation string // reference operation, e.g. GetListOfProducts
	Kind      Kind
	Var       string // path variable holding the record's id
	Key       string // data key of the answer ("" = data is the record)
	// Paging of lists; PerPage 0 means the list is not paged.
	PerPage, MaxPerPage int
	Filters             []Filter
	// By, for Detail, finds records by this field instead of the id
	// (several when Key names an array).
	By string
	// Guards, for a delete, refuse (409) to delete a record other records
	// still use, unless the request's query flag says to.
	Guards []Guard
	// Requires, for a list, names the resource whose record the path
	// variable Var identifies: the list answers 404 when it does not
	// exist (the movements of an unknown stock).
	Requires string
	// Fixed, for singletons, is the record id the endpoint always uses.
	Fixed string
	// Body names the list inside data for bulk writes and Replace ("" =
	// data itself is the list).
	Body string
	// Answer says what a write answers with.
	Answer Answer
	// Sections, when set, replace the resource's include sections for
	// this endpoint (a list that hides what its detail shows).
	Sections []Section
	// Format of a Download: "pdf" or "isdoc".
	Format string
	// Status is the success status (0 = 200, or 201 for Create).
	Status int
	// Single, for a Batch, is the operation of the same row that each
	// line of the batch file is written through, exactly as one request
	// of it would be; Writes says what a line does to the record it names
	// (Create, Update or Delete), which picks the row's mass event.
	Single string
	Writes Kind
	// Lines, for a Batch, maps a path variable of the Single operation to
	// the line field holding it ("productGuid|guid": the first present
	// wins). Without an entry, the Single op's Var is the line's id field
	// and any other variable is the batch request's own path variable.
	Lines map[string]string
}

// Guard is a relation a delete must not break silently: records of
// Resource whose Path (a gjson path) holds the deleted id use it; the
// query flag Param=true deletes anyway (the reference's deleteUsed,
// deleteChildren, force).
type Guard struct {
	Param    string
	Resource string
	Path     string
}

// Paged reports whether the list answers with a paginator.
func (o *Op) Paged() bool { return o.PerPage > 0 }

// SuccessStatus is the status of a successful call.
func (o *Op) SuccessStatus() int {
	if o.Status != 0 {
		return o.Status
	}
	switch o.Kind {
	case Create, BulkCreate:
		return 201
	case Batch:
		return 202
	}
	return 200
}

// Section is one include section: a name the client writes in include and
// the field paths it controls. "items[].mainImage" means the mainImage of
// every element of items.
type Section struct {
	Name   string
	Fields []string
}

// Registry holds the rows, indexed by name and operation.
type Registry struct {
	rows []*Resource
	by   map[string]*Resource
	ops  map[string]*Op
	opOf map[string]*Resource
}

// New validates rows and indexes them. Duplicate names or operations, a
// parent or reference naming no row, and paging or bulk settings that
// make no sense are programming errors reported at start-up.
func New(rows []*Resource) (*Registry, error) {
	r := &Registry{by: map[string]*Resource{}, ops: map[string]*Op{}, opOf: map[string]*Resource{}}
	for _, row := range rows {
		if row.Name == "" || row.IDField == "" {
			return nil, fmt.Errorf("registry: row %q needs a name and an id field", row.Name)
		}
		if _, dup := r.by[row.Name]; dup {
			return nil, fmt.Errorf("registry: resource %q defined twice", row.Name)
		}
		r.by[row.Name] = row
		for _, op := range row.Ops {
			if op.Operation == "" || op.Kind == "" {
				return nil, fmt.Errorf("registry: %s: an op needs an operation and a kind", row.Name)
			}
			if prev, dup := r.opOf[op.Operation]; dup {
				return nil, fmt.Errorf("registry: operation %s bound to both %s and %s", op.Operation, prev.Name, row.Name)
			}
			if op.MaxPerPage < op.PerPage {
				return nil, fmt.Errorf("registry: %s %s: paged list needs PerPage <= MaxPerPage", row.Name, op.Operation)
			}
			switch op.Kind {
			case BulkCreate, BulkUpdate, BulkDelete:
				if row.BulkMax < 1 {
					return nil, fmt.Errorf("registry: %s %s: a bulk endpoint needs the resource's BulkMax", row.Name, op.Operation)
				}
			case Download:
				if op.Format != "pdf" && op.Format != "isdoc" {
					return nil, fmt.Errorf("registry: %s %s: download format %q (want pdf or isdoc)", row.Name, op.Operation, op.Format)
				}
			}
			r.ops[op.Operation] = op
			r.opOf[op.Operation] = row
		}
		r.rows = append(r.rows, row)
	}
	for _, row := range r.rows {
		for _, op := range row.Ops {
			if op.Kind == Batch {
				if err := r.checkBatch(row, op); err != nil {
					return nil, err
				}
			}
		}
		if row.Parent != nil {
			if _, ok := r.by[row.Parent.Resource]; !ok {
				return nil, fmt.Errorf("registry: %s: parent %q is not a row", row.Name, row.Parent.Resource)
			}
		}
		for _, ref := range row.Refs {
			if _, ok := r.by[ref.Resource]; !ok {
				return nil, fmt.Errorf("registry: %s: reference %s names no row %q", row.Name, ref.Field, ref.Resource)
			}
		}
	}
	return r, nil
}

// lineKinds are what a batch line can do to a record, by the kind of its
// Single op (Action: any).
var lineKinds = map[Kind]Kind{
	Create: Create, BulkCreate: Create,
	Update: Update, BulkUpdate: Update,
	Delete: Delete, BulkDelete: Delete,
	Action: "",
}

// checkBatch refuses a batch whose lines would not go through a single
// write of its own row.
func (r *Registry) checkBatch(row *Resource, op *Op) error {
	single, ok := r.ops[op.Single]
	if !ok || r.opOf[op.Single] != row {
		return fmt.Errorf("registry: %s %s: the batch's single operation %q is not an op of the row", row.Name, op.Operation, op.Single)
	}
	want, ok := lineKinds[single.Kind]
	if !ok {
		return fmt.Errorf("registry: %s %s: a batch line cannot go through a %s op (%s)", row.Name, op.Operation, single.Kind, op.Single)
	}
	switch {
	case op.Writes != Create && op.Writes != Update && op.Writes != Delete:
		return fmt.Errorf("registry: %s %s: a batch line writes create, update or delete, not %q", row.Name, op.Operation, op.Writes)
	case want != "" && want != op.Writes:
		return fmt.Errorf("registry: %s %s: lines go through %s, a %s, but the batch says they %s", row.Name, op.Operation, op.Single, single.Kind, op.Writes)
	}
	return nil
}

// MassEvent is the event a batch emits with the identifiers of the
// records its lines changed: the mass event of its row for what the
// lines write, or the parent's mass update when the row's events are the
// parent's (a product's images). "" when the row has none.
func (r *Registry) MassEvent(batch *Op) string {
	row, ok := r.opOf[batch.Single]
	if !ok {
		return ""
	}
	if row.Parent != nil && row.Parent.Events {
		return r.by[row.Parent.Resource].Events.MassUpdate
	}
	switch batch.Writes {
	case Create:
		return row.Events.MassCreate
	case Update:
		return row.Events.MassUpdate
	case Delete:
		return row.Events.MassDelete
	}
	return ""
}

// CheckEvents refuses a row naming an event the webhook catalogue does
// not have (known: schemas.LoadCatalogue().Events), so a typo stops the
// sandbox at start instead of emitting an event no one can subscribe to.
func (r *Registry) CheckEvents(known []string) error {
	set := make(map[string]bool, len(known))
	for _, k := range known {
		set[k] = true
	}
	for _, row := range r.rows {
		e := row.Events
		for _, name := range []string{e.Create, e.Update, e.Delete, e.MassCreate, e.MassUpdate, e.MassDelete} {
			if name != "" && !set[name] {
				return fmt.Errorf("registry row %s: event %q is not in the webhook catalogue", row.Name, name)
			}
		}
	}
	return nil
}

// Resource returns a row by name.
func (r *Registry) Resource(name string) (*Resource, bool) {
	row, ok := r.by[name]
	return row, ok
}

// Resources returns every row in table order.
func (r *Registry) Resources() []*Resource { return r.rows }

// Op returns the row and op of an operation.
func (r *Registry) Op(operation string) (*Resource, *Op, bool) {
	row, ok := r.opOf[operation]
	if !ok {
		return nil, nil, false
	}
	return row, r.ops[operation], true
}

// Names returns the names of the top-level resources (those with their
// own fixture file), sorted, for messages.
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.rows))
	for _, row := range r.rows {
		if row.Parent == nil {
			out = append(out, row.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Op returns the resource's op of a kind (the first), nil when none.
func (row *Resource) Op(k Kind) *Op {
	for _, op := range row.Ops {
		if op.Kind == k {
			return op
		}
	}
	return nil
}

// SectionsOf returns the include sections an endpoint of the resource
// knows.
func (row *Resource) SectionsOf(op *Op) []Section {
	if op != nil && op.Sections != nil {
		return op.Sections
	}
	return row.Sections
}

// SectionNames lists the include names of sections.
func SectionNames(sections []Section) []string {
	out := make([]string, len(sections))
	for i, s := range sections {
		out[i] = s.Name
	}
	return out
}

// HidePaths returns the field paths to null out for the sections the
// client did not ask for.
func HidePaths(sections []Section, include map[string]bool) []string {
	var out []string
	for _, s := range sections {
		if !include[s.Name] {
			out = append(out, s.Fields...)
		}
	}
	return out
}

// FieldPath splits "items[].mainImage" into its steps.
func FieldPath(p string) []string { return strings.Split(p, ".") }

// SectionNames lists the include names of the resource's own sections.
func (row *Resource) SectionNames() []string { return SectionNames(row.Sections) }

// HidePaths returns the field paths of the resource's sections the
// client did not ask for.
func (row *Resource) HidePaths(include map[string]bool) []string {
	return HidePaths(row.Sections, include)
}

// defaultLangFields are the texts a translation may hold when a row does
// not list its own.
var defaultLangFields = []string{"name", "title", "description", "shortDescription", "secondDescription", "additionalName",
	"metaTitle", "metaDescription", "metaTagDescription", "displayName", "content", "perex", "menuTitle", "linkText",
	"paramName", "paramValue", "text", "remark"}

// LangField reports whether a top-level field of the row's records is a
// text a language version may hold: one of LangFields, or when the row
// lists none, one of the usual text fields (name, title, description,
// ...). A PATCH with language writes these into the translation; a
// recording reads the rows that have them in every language.
func (r *Resource) LangField(f string) bool {
	if r.LangFields != nil {
		return slices.Contains(r.LangFields, f)
	}
	return slices.Contains(defaultLangFields, f)
}

package registry

// Rows is the resource table: every area's rows in one list. Adding a
// simple resource is one row in the area's file plus a fixture file; see
// README "Architecture".
func Rows() []*Resource {
	var rows []*Resource
	for _, area := range [][]*Resource{
		catalogueRows(),
		parameterRows(),
		productPartRows(),
		customerRows(),
		documentRows(),
		marketingRows(),
		contentRows(),
		logisticsRows(),
		orderRows(),
	} {
		rows = append(rows, area...)
	}
	return rows
}

// Paging every list uses (docs/choices.md: default 20, maximum 100).
const (
	PerPage    = 20
	MaxPerPage = 100
)

// Row builders keep the area files short: each returns one Op.

func list(op, key string, filters ...Filter) *Op {
	return &Op{Operation: op, Kind: List, Key: key, Filters: filters}
}

func paged(op, key string, filters ...Filter) *Op {
	return &Op{Operation: op, Kind: List, Key: key, PerPage: PerPage, MaxPerPage: MaxPerPage, Filters: filters}
}

func detail(op, v, key string) *Op { return &Op{Operation: op, Kind: Detail, Var: v, Key: key} }

func single(op, id, key string) *Op { return &Op{Operation: op, Kind: Detail, Fixed: id, Key: key} }

func create(op, key string) *Op { return &Op{Operation: op, Kind: Create, Key: key} }

func update(op, v, key string) *Op { return &Op{Operation: op, Kind: Update, Var: v, Key: key} }

func del(op, v string) *Op { return &Op{Operation: op, Kind: Delete, Var: v} }

func changes(op string) *Op {
	return &Op{Operation: op, Kind: Changes, Key: "changes", PerPage: PerPage, MaxPerPage: MaxPerPage}
}

func action(op string) *Op { return &Op{Operation: op, Kind: Action} }

// creating is an action that creates a record (201).
func creating(op string) *Op { return &Op{Operation: op, Kind: Action, Status: 201} }

// batch is an asynchronous batch whose every line goes through the single
// op of the same row and writes as the kind says.
func batch(op, single string, writes Kind) *Op {
	return &Op{Operation: op, Kind: Batch, Single: single, Writes: writes}
}

// line says which line field holds a path variable of a batch's single
// op ("productGuid|guid": the first present).
func (o *Op) line(variable, fields string) *Op {
	if o.Lines == nil {
		o.Lines = map[string]string{}
	}
	o.Lines[variable] = fields
	return o
}

func download(op, v, format string) *Op {
	return &Op{Operation: op, Kind: Download, Var: v, Format: format}
}

// answer sets what a write answers with.
func (o *Op) answer(a Answer) *Op { o.Answer = a; return o }

// body sets where a bulk or replace request holds its list.
func (o *Op) body(key string) *Op { o.Body = key; return o }

// guard makes a delete refuse to break a relation unless the query flag
// says so.
func (o *Op) guard(param, resource, path string) *Op {
	o.Guards = append(o.Guards, Guard{Param: param, Resource: resource, Path: path})
	return o
}

// sections gives an endpoint its own include sections.
func (o *Op) sections(s ...Section) *Op { o.Sections = s; return o }

// by makes a detail look records up by another field.
func (o *Op) by(field string) *Op { o.By = field; return o }

// Common filters.
func timeFilters(prefix, path string) []Filter {
	return []Filter{{Query: prefix + "From", Path: path, Op: TimeFrom}, {Query: prefix + "To", Path: path, Op: TimeTo}}
}

func eq(query, path string) Filter { return Filter{Query: query, Path: path, Op: Equal} }

package crud

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
)

// maxInt stands for "no limit" in unpaged lists.
const maxInt = int(^uint(0) >> 1)

func (e *Engine) list(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		page, perPage := 1, maxInt
		if op.Paged() {
			var err error
			if page, perPage, err = r.Paging(op.PerPage, op.MaxPerPage); err != nil {
				return nil, err
			}
		}
		if _, err := includes(r, row, op); err != nil {
			return nil, err
		}
		match, err := registry.Compile(op.Filters, varOrQuery(r))
		if err != nil {
			return nil, err
		}
		return e.viewCached(r, op, func(c *Ctx) (any, error) {
			var data any
			err := func() error {
				if op.Requires != "" {
					rk, err := c.CollOf(op.Requires)
					if err != nil {
						return err
					}
					if _, _, err := rk.Find(r.Var(op.Var)); err != nil {
						return err
					}
				}
				k, err := c.Coll(row)
				if err != nil {
					return err
				}
				recs, total, err := k.Page((page-1)*perPage, perPage, match)
				if err != nil {
					return err
				}
				items := make([]any, 0, len(recs))
				shown := make([]map[string]any, 0, len(recs))
				for _, rec := range recs {
					m, err := c.Render(rec)
					if err != nil {
						return err
					}
					if row.Item != nil {
						m = row.Item(m)
					}
					items = append(items, m)
					shown = append(shown, m)
				}
				out := map[string]any{op.Key: items}
				if op.Paged() {
					out["paginator"] = api.NewPaginator(total, page, perPage, len(items))
				}
				if x := e.hooks.operation(op.Operation).ListDefaults; x != nil {
					more, err := x(c, shown)
					if err != nil {
						return err
					}
					for key, v := range more {
						out[key] = v
					}
				}
				data = c.Gen.Conform(out, opNodeData(op))
				return nil
			}()
			return data, err
		})
	}
}

// opNodeData is the whole data node of an op.
func opNodeData(op *registry.Op) shape.Node { return shape.Response(op.Operation) }

// FieldEquals reports whether a gjson path of a stored document equals
// value (or, for an array, holds it); behaviour packages filter with it.
func FieldEquals(doc []byte, path, value string) bool { return fieldEquals(doc, path, value) }

// fieldEquals reports whether a gjson path of a document equals value (or,
// for an array, holds it).
func fieldEquals(doc []byte, path, value string) bool {
	v := gjson.GetBytes(doc, path)
	if v.IsArray() {
		hit := false
		v.ForEach(func(_, x gjson.Result) bool {
			hit = x.String() == value
			return !hit
		})
		return hit
	}
	return v.Exists() && v.String() == value
}

func (e *Engine) detail(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		include, err := includes(r, row, op)
		if err != nil {
			return nil, err
		}
		return e.viewCached(r, op, func(c *Ctx) (any, error) {
			k, err := c.Coll(row)
			if err != nil {
				return nil, err
			}
			hide := registry.HidePaths(row.SectionsOf(op), include)
			if op.By != "" {
				return c.detailBy(k, op, r.Var(op.Var), hide)
			}
			id := op.Fixed
			if id == "" {
				id = r.Var(op.Var)
			}
			_, rec, err := k.Find(id)
			if err != nil {
				return nil, err
			}
			return c.answerRecord(row, op, rec, hide)
		})
	}
}

// detailBy answers the records whose By field equals the path value: a
// list when the answer holds an array, else the first (404 when none);
// the include sections not asked for (hide) are null in each, as in a
// lookup by id.
func (c *Ctx) detailBy(k *Coll, op *registry.Op, value string, hide []string) (any, error) {
	recs, err := k.All(func(doc []byte) bool { return fieldEquals(doc, op.By, value) })
	if err != nil {
		return nil, err
	}
	if opNode(op).Is("array") {
		items := make([]any, 0, len(recs))
		for _, rec := range recs {
			m, err := c.Render(rec)
			if err != nil {
				return nil, err
			}
			HidePaths(m, hide)
			items = append(items, m)
		}
		if len(items) == 0 && !c.byParentExists(op, value) {
			return nil, sandbox.NotFound(value, "Nothing with %s %q exists in this e-shop.", op.By, value)
		}
		return c.wrap(op, items), nil
	}
	if len(recs) == 0 {
		return nil, sandbox.NotFound(value, "%s with %s %q does not exist in this e-shop.", singular(k.Row.Name), op.By, value)
	}
	return c.answerRecord(k.Row, op, recs[0], hide)
}

// byParentExists tells whether a lookup value names an existing record of
// the referenced resource (an order code with no proof payment yet is an
// empty list, an unknown order code a 404).
func (c *Ctx) byParentExists(op *registry.Op, value string) bool {
	ref := c.E.hooks.operation(op.Operation).ByParent
	if ref == "" {
		return true
	}
	row, ok := c.E.reg.Resource(ref)
	if !ok {
		return true
	}
	return c.Tx.Exists(c.R.Eshop, row.Name, value)
}

// HidePaths sets the given field paths to null; "items[].mainImage" walks
// every element of items.
func HidePaths(m map[string]any, paths []string) {
	for _, p := range paths {
		hide(m, strings.Split(p, "."))
	}
}

func hide(m map[string]any, steps []string) {
	if len(steps) == 0 || m == nil {
		return
	}
	step := steps[0]
	if strings.HasSuffix(step, "[]") {
		arr, _ := m[strings.TrimSuffix(step, "[]")].([]any)
		for _, el := range arr {
			if em, ok := el.(map[string]any); ok {
				hide(em, steps[1:])
			}
		}
		return
	}
	if len(steps) == 1 {
		if _, ok := m[step]; ok {
			m[step] = nil
		}
		return
	}
	child, _ := m[step].(map[string]any)
	hide(child, steps[1:])
}

// includes reads the include parameter against the endpoint's sections.
// An endpoint without known sections ignores include.
func includes(r *api.Request, row *registry.Resource, op *registry.Op) (map[string]bool, error) {
	secs := row.SectionsOf(op)
	if len(secs) == 0 {
		return map[string]bool{}, nil
	}
	if strings.TrimSpace(r.Query("include")) == "" {
		// Nothing asked for (most reads): no section list to build, no
		// map; a nil map reads as the empty one r.Includes would return.
		return nil, nil
	}
	return r.Includes(registry.SectionNames(secs))
}

// varOrQuery reads a filter value from a path variable of the same name
// (an image gallery) or else from the query.
func varOrQuery(r *api.Request) func(string) string {
	return func(name string) string {
		if v := r.Var(name); v != "" {
			return v
		}
		return r.Query(name)
	}
}

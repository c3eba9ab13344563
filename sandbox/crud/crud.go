// Package crud generates the generic list and detail handlers of every
// registry row: paging, filters, include sections, language variants and
// projection onto the reference's list item shape. Behaviour that the
// table cannot express lives in the behaviour packages instead.
package crud

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// Deps are what the generic handlers need.
type Deps struct {
	Store *store.Store
	Site  *eshop.Site
}

// Handlers returns the generic handlers of every row, keyed by operation.
// It fails when a row names a list whose item shape the schemas lack.
func Handlers(reg *registry.Registry, d Deps) (map[string]api.HandlerFunc, error) {
	out := map[string]api.HandlerFunc{}
	for _, row := range reg.Resources() {
		if row.List != nil {
			fields, err := ItemFields(row.List.Operation, row.List.Key)
			if err != nil {
				return nil, fmt.Errorf("registry row %s: %w", row.Name, err)
			}
			out[row.List.Operation] = listHandler(row, fields, d)
		}
		if row.Detail != nil {
			out[row.Detail.Operation] = detailHandler(row, d)
		}
	}
	return out, nil
}

func listHandler(row *registry.Resource, fields []string, d Deps) api.HandlerFunc {
	l := row.List
	var sectionNames []string
	if row.Detail != nil {
		sectionNames = row.Detail.SectionNames()
	}
	return func(r *api.Request) (any, error) {
		page, perPage := 1, 0
		if l.Paged {
			var err error
			if page, perPage, err = r.Paging(l.PerPage, l.MaxPerPage); err != nil {
				return nil, err
			}
		}
		if _, err := r.Includes(sectionNames); err != nil {
			return nil, err
		}
		match, err := registry.Compile(l.Filters, r.Query)
		if err != nil {
			return nil, err
		}
		var items []any
		var total int
		err = d.Store.View(func(tx *store.Tx) error {
			c, err := eshop.NewContext(tx, r, d.Site)
			if err != nil {
				return err
			}
			offset, limit := (page-1)*perPage, perPage
			if !l.Paged {
				offset, limit = 0, int(^uint(0)>>1)
			}
			docs, n, err := tx.Page(r.Eshop, row.Name, offset, limit, match)
			if err != nil {
				return err
			}
			total = n
			items = make([]any, 0, len(docs))
			v := c.View()
			for _, doc := range docs {
				m, err := api.Render(doc, v)
				if err != nil {
					return fmt.Errorf("%s record: %w", row.Name, err)
				}
				if l.Item != nil {
					m = l.Item(m)
				}
				items = append(items, project(m, fields))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		data := map[string]any{l.Key: items}
		if l.Paged {
			data["paginator"] = api.NewPaginator(total, page, perPage, len(items))
		}
		return data, nil
	}
}

func project(m map[string]any, fields []string) map[string]any {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		out[f] = m[f]
	}
	return out
}

func detailHandler(row *registry.Resource, d Deps) api.HandlerFunc {
	det := row.Detail
	names := det.SectionNames()
	return func(r *api.Request) (any, error) {
		include, err := r.Includes(names)
		if err != nil {
			return nil, err
		}
		id := r.Var(det.Var)
		var rec map[string]any
		err = d.Store.View(func(tx *store.Tx) error {
			c, err := eshop.NewContext(tx, r, d.Site)
			if err != nil {
				return err
			}
			rec, err = Load(tx, r.Eshop, row, id, c)
			return err
		})
		if err != nil {
			return nil, err
		}
		HidePaths(rec, det.HidePaths(include))
		if det.Key == "" {
			return rec, nil
		}
		return map[string]any{det.Key: rec}, nil
	}
}

// Load reads one record and renders it for the context; a missing record
// answers 404 naming the resource and the identifier.
func Load(tx *store.Tx, eshopID int, row *registry.Resource, id string, c *eshop.Context) (map[string]any, error) {
	doc, err := tx.Get(eshopID, row.Name, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "%s %s %q does not exist in this e-shop.", singular(row.Name), row.IDField, id)
	}
	if err != nil {
		return nil, err
	}
	return api.Render(doc, c.View())
}

func singular(name string) string {
	name = strings.ReplaceAll(name, "-", " ")
	name = strings.TrimSuffix(name, "s")
	return strings.ToUpper(name[:1]) + name[1:]
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

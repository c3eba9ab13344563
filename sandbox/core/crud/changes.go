package crud

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
)

// changes answers a resource's "last changes" endpoint from its change
// log (changelog.ParseQuery reads from and changeType).
func (e *Engine) changes(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		page, perPage, err := r.Paging(op.PerPage, op.MaxPerPage)
		if err != nil {
			return nil, err
		}
		q, err := changelog.ParseQuery(r.Query, page, perPage)
		if err != nil {
			return nil, err
		}
		if row.Parent == nil {
			if err := changelog.Ensure(e.d.Store, r.Eshop, row.Name); err != nil {
				return nil, err
			}
		}
		var data any
		err = e.View(r, func(c *Ctx) error {
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			entries, total, err := changelog.Page(c.Tx, r.Eshop, k.logName(), q)
			if err != nil {
				return err
			}
			items := make([]any, 0, len(entries))
			for _, en := range entries {
				items = append(items, map[string]any{row.ChangeKey: en.ID, "changeType": en.Type, "changeTime": en.At})
			}
			data = c.Gen.Conform(map[string]any{op.Key: items, "paginator": api.NewPaginator(total, page, perPage, len(items))},
				shape.Response(op.Operation))
			return nil
		})
		return data, err
	}
}

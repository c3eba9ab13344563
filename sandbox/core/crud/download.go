package crud

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// download answers a record of the row as a file: the row's Download
// hook draws it from the record as the client sees it.
func (e *Engine) download(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	draw := e.hooks.resource(row.Name).Download // New checked that every download has one
	return func(r *api.Request) (any, error) {
		var out *api.Raw
		err := e.View(r, func(c *Ctx) error {
			k, err := c.Coll(row)
			if err != nil {
				return err
			}
			_, rec, err := k.Find(r.Var(op.Var))
			if err != nil {
				return err
			}
			shown, err := c.Render(rec)
			if err != nil {
				return err
			}
			out, err = draw(c, shown, op.Format)
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

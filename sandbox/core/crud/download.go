package crud

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
)

// Media types of the downloads.
const (
	PDFType   = "application/pdf"
	ISDOCType = "application/xml; charset=utf-8"
)

func (e *Engine) download(row *registry.Resource, op *registry.Op) api.HandlerFunc {
	kind := e.hooks.resource(row.Name).Document // New checked that every download has one
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
			info, err := c.EshopInfo()
			if err != nil {
				return err
			}
			doc := documents.FromRecord(kind, shown, info)
			if op.Format == "pdf" {
				out = &api.Raw{ContentType: PDFType, Body: documents.PDF(doc)}
				return nil
			}
			body, err := documents.ISDOC(doc)
			if err != nil {
				return sandbox.Invalid(doc.Code, "%s", err.Error())
			}
			out = &api.Raw{ContentType: ISDOCType, Body: body}
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
}

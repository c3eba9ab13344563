package catalog

import (
	"fmt"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// deleteVariant answers DELETE /api/products/code/{code}: the variant
// leaves its product (productVariant:delete, product:update); a product
// losing its last variant is deleted (product:delete).
func (h *handlers) deleteVariant(r *api.Request) (any, error) {
	code := r.Var("code")
	err := h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("products")
		if err != nil {
			return err
		}
		recs, err := k.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", code) })
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return sandbox.NotFound(code, "No product variant has code %q in this e-shop.", code)
		}
		p := recs[0]
		guid, _ := p["guid"].(string)
		vars, _ := p["variants"].([]any)
		var keep []any
		for _, v := range vars {
			if m, ok := v.(map[string]any); ok && m["code"] == code {
				continue
			}
			keep = append(keep, v)
		}
		c.Emit("productVariant:delete", code)
		if len(keep) == 0 {
			_, err := c.DeleteOne(k, guid)
			return err
		}
		p["variants"] = keep
		p["changeTime"] = c.Now()
		return k.Save(guid, p, crud.Edited)
	})
	return nil, err
}

// copyProduct answers POST /api/products/{guid}/copy: a new product with
// a new GUID, the given name and visibility, and variant codes made
// unique with a "-COPY" suffix; copyProperties switched off (false) drop
// the images, categories and descriptive parameters.
func (h *handlers) copyProduct(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("products")
		if err != nil {
			return err
		}
		_, src, err := k.Find(r.Var("guid"))
		if err != nil {
			return err
		}
		p := crud.Clone(src).(map[string]any)
		delete(p, "_translations")
		guid := c.Gen.UUID()
		p["guid"] = guid
		now := c.Now()
		p["creationTime"], p["changeTime"] = now, now
		if name, _ := data["name"].(string); name != "" {
			p["name"] = name
		} else {
			p["name"] = fmt.Sprint(p["name"]) + " (copy)"
		}
		p["indexName"] = nil
		p["url"] = nil
		if vis, ok := data["isVisible"].(bool); ok {
			p["visibility"] = map[bool]string{true: "visible", false: "hidden"}[vis]
		}
		props, _ := data["copyProperties"].(map[string]any)
		for prop, fields := range map[string][]string{
			"images": {"images"}, "categories": {"categories"}, "descriptiveParameters": {"descriptiveParameters"},
			"relatedProducts": {"relatedProducts"}, "alternativeProducts": {"alternativeProducts"}, "gifts": {"gifts"},
		} {
			if b, ok := props[prop].(bool); ok && !b {
				for _, f := range fields {
					p[f] = []any{}
				}
			}
		}
		vars, _ := p["variants"].([]any)
		for _, v := range vars {
			m, _ := v.(map[string]any)
			code, err := uniqueCode(c, fmt.Sprint(m["code"]))
			if err != nil {
				return err
			}
			m["code"] = code
			m["ean"] = nil
		}
		rec, _, err := c.CreateOne(k, p)
		if err != nil {
			return err
		}
		shown, err := c.Render(rec)
		if err != nil {
			return err
		}
		out = &api.Result{Status: 201, Data: c.Answer(shown)}
		return nil
	})
	return out, err
}

// uniqueCode finds a free variant code: CODE-COPY, CODE-COPY2, ...
func uniqueCode(c *crud.Ctx, code string) (string, error) {
	k, err := c.CollOf("products")
	if err != nil {
		return "", err
	}
	base := strings.TrimSuffix(code, "-COPY") + "-COPY"
	for i := 1; ; i++ {
		cand := base
		if i > 1 {
			cand = fmt.Sprintf("%s%d", base, i)
		}
		recs, err := k.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", cand) })
		if err != nil {
			return "", err
		}
		if len(recs) == 0 {
			return cand, nil
		}
	}
}

package catalog

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// MaxPriorityRows is the most products one UpdateProductOrderInCategory
// request may order (413 above; the reference gives no number).
const MaxPriorityRows = 100

// categoryProducts lists the products of a category (default category or
// one of its categories) with their priority there, ordered by priority
// and then by the products' own order.
func categoryProducts(c *crud.Ctx, guid string) ([]map[string]any, map[string]any, error) {
	cats, err := c.CollOf("categories")
	if err != nil {
		return nil, nil, err
	}
	guid, cat, err := cats.Find(guid)
	if err != nil {
		return nil, nil, err
	}
	prio, _ := cat["_priorities"].(map[string]any)
	pk, err := c.CollOf("products")
	if err != nil {
		return nil, nil, err
	}
	recs, err := pk.All(func(doc []byte) bool {
		return crud.FieldEquals(doc, "categories.#.guid", guid) || crud.FieldEquals(doc, "defaultCategory.guid", guid)
	})
	if err != nil {
		return nil, nil, err
	}
	out := make([]map[string]any, 0, len(recs))
	for _, p := range recs {
		g, _ := p["guid"].(string)
		out = append(out, map[string]any{"productGuid": g, "priority": prio[g]})
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]["priority"]) < rank(out[j]["priority"]) })
	return out, cat, nil
}

func rank(v any) int64 {
	if v == nil {
		return 1 << 62
	}
	n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
	if err != nil {
		return 1 << 62
	}
	return n
}

// categoryOrder answers GET /api/categories/{categoryGuid}/productsPriority.
func (h *handlers) categoryOrder(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(registry.PerPage, registry.MaxPerPage)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.View(r, func(c *crud.Ctx) error {
		items, _, err := categoryProducts(c, r.Var("categoryGuid"))
		if err != nil {
			return err
		}
		total := len(items)
		from := min((page-1)*perPage, total)
		to := min(from+perPage, total)
		list := make([]any, 0, to-from)
		for _, it := range items[from:to] {
			list = append(list, it)
		}
		out = c.Answer(map[string]any{"categoryProducts": list, "paginator": api.NewPaginator(total, page, perPage, len(list))})
		return nil
	})
	return out, err
}

// updateCategoryOrder answers PATCH /api/categories/{categoryGuid}/productsPriority:
// rows name a product of the category by GUID or variant code and give
// its priority; rows naming no product of the category are skipped and
// reported with 200.
func (h *handlers) updateCategoryOrder(r *api.Request) (any, error) {
	rows, err := crud.BodyList(r, "")
	if err != nil {
		return nil, err
	}
	if len(rows) > MaxPriorityRows {
		return nil, sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "data",
			"The request names %d products; at most %d can be ordered in one request. Nothing was changed.", len(rows), MaxPriorityRows)
	}
	res := &api.Result{}
	err = h.e.Update(r, func(c *crud.Ctx) error {
		res.Errors = nil
		o, err := openOrder(c, r.Var("categoryGuid"))
		if err != nil {
			return err
		}
		for i, row := range rows {
			m, _ := row.(map[string]any)
			if err := o.set(m); err != nil {
				if sandbox.AsError(err).Kind == sandbox.KindInternal {
					return err
				}
				res.Errors = append(res.Errors, api.ErrorItem{ErrorCode: sandbox.CodeNotFound, Instance: fmt.Sprintf("data[%d]", i),
					Message: fmt.Sprintf("data[%d] skipped: %s", i, sandbox.AsError(err).Message)})
			}
		}
		res.Data = nil
		return o.save()
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// PriorityLine writes one row of UpdateProductOrderInCategory (a
// product's priority in the category the path names) as its own
// request: a line of the products-priority batch goes through the same
// code as the PATCH.
func PriorityLine(c *crud.Ctx, line map[string]any) (string, error) {
	o, err := openOrder(c, c.Var("categoryGuid"))
	if err != nil {
		return "", err
	}
	if err := o.set(line); err != nil {
		return "", err
	}
	return o.guid, o.save()
}

// categoryOrder is a category's product priorities being written: they
// live in the category record's "_priorities" (product guid -> priority).
type categoryOrder struct {
	c     *crud.Ctx
	guid  string
	cat   map[string]any
	prio  map[string]any
	inCat map[string]bool
}

func openOrder(c *crud.Ctx, guid string) (*categoryOrder, error) {
	items, cat, err := categoryProducts(c, guid)
	if err != nil {
		return nil, err
	}
	o := &categoryOrder{c: c, cat: cat, inCat: map[string]bool{}}
	o.guid, _ = cat["guid"].(string)
	for _, it := range items {
		o.inCat[it["productGuid"].(string)] = true
	}
	o.prio, _ = cat["_priorities"].(map[string]any)
	if o.prio == nil {
		o.prio = map[string]any{}
	}
	return o, nil
}

// set records the priority of the product a row names by productGuid or
// productCode; 404 when it names no product of the category.
func (o *categoryOrder) set(row map[string]any) error {
	guid, _ := row["productGuid"].(string)
	if guid == "" {
		if code, _ := row["productCode"].(string); code != "" {
			pk, err := o.c.CollOf("products")
			if err != nil {
				return err
			}
			recs, err := pk.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", code) })
			if err != nil {
				return err
			}
			if len(recs) > 0 {
				guid, _ = recs[0]["guid"].(string)
			}
		}
	}
	if !o.inCat[guid] {
		return sandbox.NotFound(guid, "no product of this category matches it.")
	}
	p := row["priority"]
	if p == nil {
		p = json.Number("0")
	}
	o.prio[guid] = p
	return nil
}

// save writes the priorities back and emits category:update.
func (o *categoryOrder) save() error {
	o.cat["_priorities"] = o.prio
	k, err := o.c.CollOf("categories")
	if err != nil {
		return err
	}
	// The row's update event: category:update.
	return k.Save(o.guid, o.cat, crud.Edited)
}

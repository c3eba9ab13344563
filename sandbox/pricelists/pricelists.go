// Package pricelists serves a price list's per-product prices: the paged
// detail listing and the multi-record PATCH, whose skipped rows answer 200
// with the rows named in errors (spec, Errors rule 2).
package pricelists

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
)

// Collection is the store collection of price lists; each record keeps
// its per-product prices in the metadata field "_prices".
const Collection = "pricelists"

// Paging of GET /api/pricelists/{id}.
const (
	PerPage    = 20
	MaxPerPage = 100
)

// Handlers returns the price-list handlers keyed by operation.
func Handlers(st *store.Store, site *eshop.Site) map[string]api.HandlerFunc {
	h := &handlers{st: st, site: site}
	return map[string]api.HandlerFunc{
		"GetPricelistDetail": h.detail,
		"UpdatePricelist":    h.update,
	}
}

type handlers struct {
	st   *store.Store
	site *eshop.Site
}

func load(tx *store.Tx, eshopID int, id string) (map[string]any, error) {
	raw, err := tx.Get(eshopID, Collection, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "Price list %q does not exist in this e-shop.", id)
	}
	if err != nil {
		return nil, err
	}
	return api.DecodeObject(raw)
}

func prices(rec map[string]any) []any {
	p, _ := rec["_prices"].([]any)
	return p
}

// detail answers GET /api/pricelists/{id}: the list's prices, paged, with
// the code and guid filters.
func (h *handlers) detail(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(PerPage, MaxPerPage)
	if err != nil {
		return nil, err
	}
	code, guid := r.Query("code"), r.Query("guid")
	var items []any
	total := 0
	err = h.st.View(func(tx *store.Tx) error {
		if _, err := eshop.NewContext(tx, r, h.site); err != nil {
			return err
		}
		rec, err := load(tx, r.Eshop, r.Var("id"))
		if err != nil {
			return err
		}
		items = []any{}
		for _, p := range prices(rec) {
			m, _ := p.(map[string]any)
			if code != "" && m["code"] != code {
				continue
			}
			if guid != "" && m["_productGuid"] != guid {
				continue
			}
			if total >= (page-1)*perPage && len(items) < perPage {
				api.StripMeta(m)
				items = append(items, m)
			}
			total++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"pricelist": items, "paginator": api.NewPaginator(total, page, perPage, len(items))}, nil
}

// priceFields are the row fields that change a variant's price.
var priceFields = []string{"price", "priceWithVat", "priceWithoutVat", "prices", "vatRate"}

// emitPriceEvents announces changed variant prices: productVariantPrice:update
// per variant code, and productVariantPrice:massUpdate with the list when
// one request changed several (spec, Events rule 5).
func emitPriceEvents(tx *store.Tx, eshopID int, codes []string) {
	for _, c := range codes {
		tx.Emit(sandbox.Event{EshopID: eshopID, Kind: "productVariantPrice:update", Instance: c})
	}
	if len(codes) > 1 {
		list, _ := json.Marshal(codes)
		tx.Emit(sandbox.Event{EshopID: eshopID, Kind: "productVariantPrice:massUpdate", Instance: string(list)})
	}
}

// updatable are the fields a PATCH row may change.
var updatable = []string{"price", "priceWithVat", "priceWithoutVat", "vatRate", "currencyCode", "includingVat", "orderableAmount", "sales", "prices"}

// update answers PATCH /api/pricelists/{id}: data is a list of rows keyed
// by product code. Rows naming an unknown code are skipped and reported
// in errors with HTTP 200; the others are written.
func (h *handlers) update(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	rows, ok := body["data"].([]any)
	if !ok || len(rows) == 0 {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "data", "Field data: a non-empty list of price rows (each with code) is required.")
	}
	var skipped []api.ErrorItem
	err = h.st.Update(func(tx *store.Tx) error {
		skipped = nil
		if _, err := eshop.NewContext(tx, r, h.site); err != nil {
			return err
		}
		id := r.Var("id")
		rec, err := load(tx, r.Eshop, id)
		if err != nil {
			return err
		}
		byCode := map[string]map[string]any{}
		for _, p := range prices(rec) {
			if m, ok := p.(map[string]any); ok {
				if c, ok := m["code"].(string); ok {
					byCode[c] = m
				}
			}
		}
		var priced []string
		for i, row := range rows {
			m, _ := row.(map[string]any)
			code, _ := m["code"].(string)
			target, ok := byCode[code]
			if code == "" || !ok {
				skipped = append(skipped, api.ErrorItem{ErrorCode: sandbox.CodeNotFound, Instance: code,
					Message: fmt.Sprintf("Row %d skipped: product code %q is not in price list %s.", i, code, id)})
				continue
			}
			for _, f := range priceFields {
				if _, ok := m[f]; ok {
					priced = append(priced, code)
					break
				}
			}
			for _, f := range updatable {
				if v, ok := m[f]; ok {
					if f == "priceWithVat" || f == "priceWithoutVat" {
						price, _ := target["price"].(map[string]any)
						if price == nil {
							price = map[string]any{}
							target["price"] = price
						}
						price[f] = v
						continue
					}
					target[f] = v
				}
			}
		}
		enc, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if _, err := tx.Put(r.Eshop, Collection, id, enc); err != nil {
			return err
		}
		emitPriceEvents(tx, r.Eshop, priced)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Data: map[string]any{}, Errors: skipped}, nil
}

package logistics

import (
	"fmt"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// MaxStockRows is the most rows one UpdateQuantityInStock request may
// carry (413 above; the reference gives no number).
const MaxStockRows = 100

// updateQuantity answers PATCH /api/stocks/{stockId}/movements. Each row
// names a variant by productCode and gives exactly one of the three row
// shapes of the reference (stockRow): amountChange changes the available
// amount by that much; quantity sets the available amount; realStock
// sets the physical stock (available plus reserved), keeping the
// reserved amount (claim), so the available amount becomes realStock
// minus claim. Rows apply in order, each seeing the ones before it. A row
// that gives none or several of them, a value that is not an amount
// (at most 3 decimal places; quantity and realStock not negative) or a
// code no variant has is skipped and reported with 200 (spec, Errors
// rule 2); the others are applied.
func (h *handlers) updateQuantity(r *api.Request) (any, error) {
	rows, err := crud.BodyList(r, "")
	if err != nil {
		return nil, err
	}
	if len(rows) > MaxStockRows {
		return nil, sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "data",
			"The request has %d rows; at most %d fit in one request. Nothing was changed.", len(rows), MaxStockRows)
	}
	res := &api.Result{}
	err = h.e.Update(r, func(c *crud.Ctx) error {
		res.Errors = nil
		sk, err := c.CollOf("stocks")
		if err != nil {
			return err
		}
		sid, stock, err := sk.Find(r.Var("stockId"))
		if err != nil {
			return err
		}
		stockID, _ := strconv.ParseInt(sid, 10, 64)
		pk, err := c.CollOf("products")
		if err != nil {
			return err
		}
		held := suppliesOf(stock)
		var lines []orders.StockLine
		for i, row := range rows {
			m, _ := row.(map[string]any)
			sr, err := readStockRow(i, m)
			if err != nil {
				res.Errors = append(res.Errors, skipped(i, err))
				continue
			}
			recs, err := pk.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", sr.code) })
			if err != nil {
				return err
			}
			if sr.code == "" || len(recs) == 0 {
				res.Errors = append(res.Errors, skipped(i, sandbox.NotFound(fmt.Sprintf("data[%d].productCode", i), "no product variant has code %q.", sr.code)))
				continue
			}
			s := held[sr.code]
			delta := sr.delta(s)
			held[sr.code] = supply{amount: s.amount.Add(delta), claim: s.claim}
			if delta.IsZero() {
				continue // already so: nothing moves
			}
			lines = append(lines, orders.StockLine{Code: sr.code, ProductGUID: str(recs[0]["guid"]), Delta: delta})
		}
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		return shop.MoveStock(stockID, "", lines)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// skipped reports a row the request skipped, with the error's code and
// the field it names.
func skipped(i int, err error) api.ErrorItem {
	item := api.ErrorItemOf(err)
	item.Message = fmt.Sprintf("data[%d] skipped: %s", i, item.Message)
	return item
}

// lastMove answers GET /api/stocks/{stockId}/movements/last: the newest
// movement's id and time (id 0 and the current time when the stock has
// none).
func (h *handlers) lastMove(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		sk, err := c.CollOf("stocks")
		if err != nil {
			return err
		}
		sid, _, err := sk.Find(r.Var("stockId"))
		if err != nil {
			return err
		}
		mk, err := c.CollOf("stock-movements")
		if err != nil {
			return err
		}
		recs, err := mk.All(func(doc []byte) bool { return crud.FieldEquals(doc, "_stockId", sid) })
		if err != nil {
			return err
		}
		last := map[string]any{"lastId": 0, "lastChangeTime": c.Now()}
		var best int64 = -1
		for _, m := range recs {
			id, _ := strconv.ParseInt(crud.IDString(m["id"]), 10, 64)
			if id > best {
				best = id
				last = map[string]any{"lastId": id, "lastChangeTime": m["changeTime"]}
			}
		}
		out = c.Answer(last)
		return nil
	})
	return out, err
}

package logistics

import (
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/orders"
)

// MaxStockRows is the most rows one UpdateQuantityInStock request may
// carry (413 above; the reference gives no number).
const MaxStockRows = 100

// updateQuantity answers PATCH /api/stocks/{stockId}/movements: each row
// changes a variant's amount in the stock by amountChange. Rows naming
// no variant are skipped and reported with 200.
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
		sid, _, err := sk.Find(r.Var("stockId"))
		if err != nil {
			return err
		}
		stockID, _ := strconv.ParseInt(sid, 10, 64)
		pk, err := c.CollOf("products")
		if err != nil {
			return err
		}
		var lines []orders.StockLine
		for i, row := range rows {
			m, _ := row.(map[string]any)
			code := str(m["productCode"])
			delta, err := decimal.NewFromString(crud.IDString(m["amountChange"]))
			if err != nil {
				res.Errors = append(res.Errors, skip(i, "amountChange must be a number"))
				continue
			}
			recs, err := pk.All(func(doc []byte) bool { return crud.FieldEquals(doc, "variants.#.code", code) })
			if err != nil {
				return err
			}
			if code == "" || len(recs) == 0 {
				res.Errors = append(res.Errors, skip(i, fmt.Sprintf("no product variant has code %q", code)))
				continue
			}
			lines = append(lines, orders.StockLine{Code: code, ProductGUID: str(recs[0]["guid"]), Delta: delta})
		}
		shop, err := orders.OpenShop(c.Tx, r.Eshop, h.site)
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

func skip(i int, why string) api.ErrorItem {
	return api.ErrorItem{ErrorCode: sandbox.CodeNotFound, Instance: fmt.Sprintf("data[%d]", i),
		Message: fmt.Sprintf("data[%d] skipped: %s.", i, why)}
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

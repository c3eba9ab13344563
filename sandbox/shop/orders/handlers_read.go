package orders

import (
	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/documents"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// pdf serves GET /api/orders/{code}/pdf: the order as a PDF document,
// drawn from the same record the JSON shows.
func (s *Service) pdf(r *api.Request) (any, error) {
	var body []byte
	err := s.view(r, func(sh *Shop) error {
		o, err := LoadOrder(sh.Tx, sh.ID, r.Var("code"))
		if err != nil {
			return err
		}
		rec, err := Render(o, sh.View())
		if err != nil {
			return err
		}
		info := map[string]any{}
		if raw, err := sh.Tx.Get(sh.ID, eshop.InfoCollection, "info"); err == nil {
			if m, err := decodeRecord(raw); err == nil {
				info = m
			}
		}
		body = documents.PDF(documents.FromRecord(documents.Order, rec, info))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{ContentType: "application/pdf", Body: body}, nil
}

// sources serves GET /api/orders/sources.
func (s *Service) sources(r *api.Request) (any, error) {
	var out []map[string]any
	err := s.view(r, func(sh *Shop) error {
		out = Sources(sh)
		return nil
	})
	return map[string]any{"sources": out}, err
}

// claims serves GET /api/orders/claims: the goods of open orders not yet
// completed (amountCompleted below amount). Orders in a status that
// resolves the stock claim, and canceled ones, count only with
// includeClosedAndCancelledOrders=true.
func (s *Service) claims(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(20, 100)
	if err != nil {
		return nil, err
	}
	all, err := r.BoolQuery("includeClosedAndCancelledOrders")
	if err != nil {
		return nil, err
	}
	product, order := r.Query("productCode"), r.Query("orderCode")
	var rows []any
	err = s.view(r, func(sh *Shop) error {
		return sh.Tx.Scan(sh.ID, Collection, func(code string, doc []byte) bool {
			if order != "" && code != order {
				return true
			}
			sid := gjsonGet(doc, "status.id").Int()
			st, _ := sh.Statuses.Find(int(sid))
			if !all && (st.ClaimResolved || st.Canceled()) {
				return true
			}
			for _, it := range gjsonGet(doc, "items").Array() {
				c := it.Get("code").String()
				if c == "" || !rules.IsGoods(it.Get("itemType").String()) || (product != "" && c != product) {
					continue
				}
				amt, _ := decimal.NewFromString(it.Get("amount").String())
				done, _ := decimal.NewFromString(it.Get("amountCompleted").String())
				if done.GreaterThanOrEqual(amt) {
					continue
				}
				rows = append(rows, map[string]any{"orderCode": code, "productCode": c, "statusId": sid,
					"amount": it.Get("amount").String(), "amountCompleted": nullIfEmpty(it.Get("amountCompleted").String())})
			}
			return true
		})
	})
	if err != nil {
		return nil, err
	}
	total := len(rows)
	from := min((page-1)*perPage, total)
	to := min(from+perPage, total)
	pageRows := append([]any{}, rows[from:to]...)
	return map[string]any{"orders": pageRows, "paginator": api.NewPaginator(total, page, perPage, len(pageRows))}, nil
}

package orders

import (
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/documents"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
)

// changes serves GET /api/orders/changes from the orders' change log
// (every order write records add, edit or delete; the seeded orders are
// backfilled from their times).
func (s *Service) changes(r *api.Request) (any, error) {
	page, perPage, err := r.Paging(20, 100)
	if err != nil {
		return nil, err
	}
	q, err := changelog.ParseQuery(r.Query, page, perPage)
	if err != nil {
		return nil, err
	}
	if err := changelog.Ensure(s.Store, r.Eshop, Collection); err != nil {
		return nil, err
	}
	var out map[string]any
	err = s.view(r, func(sh *Shop) error {
		entries, total, err := changelog.Page(sh.Tx, sh.ID, Collection, q)
		if err != nil {
			return err
		}
		items := make([]any, 0, len(entries))
		for _, en := range entries {
			items = append(items, map[string]any{"code": en.ID, "changeType": en.Type, "changeTime": en.At})
		}
		out = map[string]any{"changes": items, "paginator": api.NewPaginator(total, page, perPage, len(items))}
		return nil
	})
	return out, err
}

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

package orders

import (
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// history serves GET /api/orders/{code}/history; system=true lists only
// the e-shop's own entries, system=false only the remarks.
func (s *Service) history(r *api.Request) (any, error) {
	var filter *bool
	if v := r.Query("system"); v != "" {
		b, err := r.BoolQuery("system")
		if err != nil {
			return nil, err
		}
		filter = &b
	}
	var out []any
	err := s.view(r, func(sh *Shop) error {
		if !sh.Tx.Exists(sh.ID, Collection, r.Var("code")) {
			return sandbox.NotFound(r.Var("code"), "Order %q does not exist in this e-shop.", r.Var("code"))
		}
		list, err := sh.History(r.Var("code"))
		for _, h := range list {
			if filter != nil && (h["system"] == true) != *filter {
				continue
			}
			delete(h, "orderCode")
			out = append(out, h)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"orderHistory": orEmpty(out)}, nil
}

// createRemark serves POST /api/orders/{code}/history.
func (s *Service) createRemark(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	text := strings.TrimSpace(str(data["text"]))
	if text == "" {
		return nil, sandbox.Invalid("data.text", "Field data.text is required.")
	}
	typ := strings.TrimSpace(str(data["type"]))
	if typ == "" {
		typ = HistoryRemark
	}
	out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		if _, err := sh.AddHistory(o, typ, text, false); err != nil {
			return nil, err
		}
		sh.Emit(EventHistoryRemarks, str(o["code"]))
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: out}, nil
}

// deleteRemark serves DELETE /api/orders/{code}/history/{id}.
func (s *Service) deleteRemark(r *api.Request) (any, error) {
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		id := r.Var("id")
		if _, err := strconv.ParseInt(id, 10, 64); err != nil {
			return nil, sandbox.NotFound(id, "Order %s has no history entry %s.", str(o["code"]), id)
		}
		if err := sh.DeleteHistory(str(o["code"]), id); err != nil {
			return nil, err
		}
		sh.Emit(EventHistoryRemarks, str(o["code"]))
		return nil, nil
	})
}

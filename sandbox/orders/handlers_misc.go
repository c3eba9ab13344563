package orders

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/changelog"
	"github.com/eshop-sandbox/sandbox/sandbox/orders/rules"
)

// copyOrder serves POST /api/orders/{code}/copy: a new order with the
// same customer, addresses, methods and items, in the default status,
// unpaid, with its own code, GUID and item ids. It takes stock like a
// new order; no documents or e-mails (the spec is silent; every scope
// value copies the whole order).
func (s *Service) copyOrder(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(str(Data(body)["scope"])) == "" {
		return nil, sandbox.Invalid("data.scope", "Field data.scope is required.")
	}
	var out any
	err = s.update(r, func(sh *Shop) error {
		src, err := LoadOrder(sh.Tx, sh.ID, r.Var("code"))
		if err != nil {
			return err
		}
		raw, err := Encode(src)
		if err != nil {
			return err
		}
		o, err := decodeRecord(raw)
		if err != nil {
			return err
		}
		for k := range o {
			if strings.HasPrefix(k, "_") {
				delete(o, k)
			}
		}
		code, err := sh.NextCode(Collection)
		if err != nil {
			return err
		}
		st, err := sh.Statuses.Get(sh.Statuses.Default, "data")
		if err != nil {
			return err
		}
		o["code"], o["guid"], o["adminUrl"] = code, s.IDs.UUID(), "{eshop_url}/admin/orders/"+code+"/"
		o["creationTime"], o["changeTime"], o["status"], o["paid"] = sh.Time(), sh.Time(), st.Ref(), false
		o["paymentTransactions"], o["onlinePaymentLink"], o["externalCode"] = []any{}, nil, nil
		ids := map[int64]int64{}
		for _, it := range items(o) {
			id, err := sh.NextID(itemSeq)
			if err != nil {
				return err
			}
			old, _ := intOf(it["itemId"])
			ids[old] = id
			it["itemId"], it["status"] = id, st.Ref()
			delete(it, "_ownStatus")
			if rules.IsGoods(str(it["itemType"])) {
				it["amountCompleted"] = "0.000"
			}
			if _, err := decimal.NewFromString(str(it["amount"])); err == nil && str(it["code"]) != "" {
				_, it["_known"] = sh.catalog().ByCode(str(it["code"]))
			}
		}
		renumber(o, "completion", ids)
		renumber(o, "paymentMethods", ids)
		renumber(o, "shippings", ids)
		if _, err := sh.AddHistory(o, HistoryCreated, "Order created as a copy of "+str(src["code"])+".", true); err != nil {
			return err
		}
		stockID, _ := intOf(o["stockId"])
		if err := sh.TakeStock(o, stockID); err != nil {
			return err
		}
		if sh.NeedsPayment(o) {
			if _, err := sh.CurrentPaymentCode(o, func() string { return s.IDs.Token(32) }); err != nil {
				return err
			}
			o["onlinePaymentLink"] = PaymentLink(code)
		}
		sh.Emit(EventCreate, code)
		if err := sh.LogChange(Collection, code, changelog.Add); err != nil {
			return err
		}
		if err := SaveOrder(sh.Tx, sh.ID, o); err != nil {
			return err
		}
		out, err = orderData(sh, o)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: out}, nil
}

// renumber maps the itemId fields of an order list to the copy's ids.
func renumber(o map[string]any, key string, ids map[int64]int64) {
	list, _ := o[key].([]any)
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			if old, ok := intOf(m["itemId"]); ok {
				m["itemId"] = ids[old]
			}
		}
	}
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

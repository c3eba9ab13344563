package orders

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
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
		o := crud.Clone(src).(map[string]any)
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
				_, known, err := sh.Catalog().ByCode(str(it["code"]))
				if err != nil {
					return err
				}
				it["_known"] = known
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
		// order:create, the add entry and the store write.
		if err := sh.W.Save(Collection, code, o, crud.Added); err != nil {
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

package orders

import (
	"errors"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Handlers returns the order handlers keyed by reference operation.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	h := map[string]api.HandlerFunc{
		"CreateOrder":                        s.createOrder,
		"UpdateOrderStatus":                  s.updateStatus,
		"BulkOrderStatusChange":              s.bulkStatus,
		"UpdateOrderHead":                    s.updateHead,
		"UpdateRemarksForOrder":              s.updateNotes,
		"DeleteOrder":                        s.deleteOrder,
		"OrderCopy":                          s.copyOrder,
		"GetListOfOrderSources":              s.sources,
		"GetOrderClaims":                     s.claims,
		"DownloadOrderAsPdf":                 s.pdf,
		"GetListOfRemarksForOrder":           s.history,
		"CreateOrderRemark":                  s.createRemark,
		"DeleteOrderHistoryItem":             s.deleteRemark,
		"CreateOrderItem":                    s.createItem,
		"UpdateOrderItem":                    s.updateItem,
		"DeleteOrderItem":                    s.deleteItem,
		"CreateOrderItemSurchargeParameters": s.createSurcharge,
		"DeleteOrderItemSurchargeParameters": s.deleteSurcharge,
		"CreateOrderPayment":                 s.createPayment,
		"UpdateOrderPayment":                 s.updatePayment,
		"AddOrderShipping":                   s.createShipping,
		"UpdateOrderShipping":                s.updateShipping,
		"GetOrderGiftsList":                  s.gifts,
		"AddOrderGift":                       s.addGift,
		"DeleteOrderGift":                    s.deleteGift,
		"GetOrderGiftSettings":               s.giftSettings,
		"UpdateOrderGiftSettings":            s.updateGiftSettings,
		"CreateInvoiceFromOrder":             s.documentFromOrder(KindInvoice),
		"DeliveryNoteFromOrder":              s.documentFromOrder(KindDeliveryNote),
		"CreateProformaInvoiceFromOrder":     s.documentFromOrder(KindProforma),
	}
	for op, fn := range h {
		h[op] = envelope(fn)
	}
	return h
}

// envelope answers a MultiError with every failure in one 400 envelope.
func envelope(fn api.HandlerFunc) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		out, err := fn(r)
		var multi rules.MultiError
		if errors.As(err, &multi) {
			items := make([]api.ErrorItem, len(multi))
			for i, e := range multi {
				items[i] = api.ErrorItemOf(e)
			}
			return &api.Result{Status: api.StatusOf(multi[0]), Errors: items}, nil
		}
		return out, err
	}
}

// update runs fn on the request's e-shop in a write transaction after
// checking the language parameter.
func (s *Service) update(r *api.Request, fn func(sh *Shop) error) error {
	return s.Update(r.Eshop, func(sh *Shop) error {
		if _, err := sh.Meta.Language(r.Query("language")); err != nil {
			return err
		}
		return fn(sh)
	})
}

// view is update for reads.
func (s *Service) view(r *api.Request, fn func(sh *Shop) error) error {
	return s.View(r.Eshop, func(sh *Shop) error {
		if _, err := sh.Meta.Language(r.Query("language")); err != nil {
			return err
		}
		return fn(sh)
	})
}

// modify loads the order of the path and runs fn on it.
func (s *Service) modify(r *api.Request, fn func(sh *Shop, o map[string]any) (any, error)) (any, error) {
	var out any
	err := s.update(r, func(sh *Shop) error {
		o, err := LoadOrder(sh.Tx, sh.ID, r.Var("code"))
		if err != nil {
			return err
		}
		out, err = fn(sh, o)
		return err
	})
	return out, err
}

// orderData renders an order for a response: {"order": ...}.
func orderData(sh *Shop, o map[string]any) (any, error) {
	return answer("order", o, sh.View())
}

// Touch records an edit of an order: its change time moves on, and
// crud's write logs the edit, emits order:update and stores it.
func (sh *Shop) Touch(o map[string]any) error {
	o["changeTime"] = sh.Time()
	code := str(o["code"])
	if err := sh.W.Changing(Collection, code, crud.Edited); err != nil {
		return err
	}
	return sh.W.Save(Collection, code, o, crud.Edited)
}

func (s *Service) createOrder(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	flags, err := ReadFlags(r, body, rules.FlagNames...)
	if err != nil {
		return nil, err
	}
	data := Data(body)
	if _, ok := body["data"].(map[string]any); !ok {
		return nil, sandbox.Invalid("data", "The order goes in the body's data object.")
	}
	var o map[string]any
	var view api.View
	err = s.update(r, func(sh *Shop) (err error) {
		o, err = sh.CreateOrder(data, flags, s.IDs)
		view = sh.View()
		return err
	})
	if err != nil {
		return nil, err
	}
	// The answer is rendered after the commit: the order is this
	// request's own, and the write lock is free for the next one sooner.
	out, err := answer("order", o, view)
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: out}, nil
}

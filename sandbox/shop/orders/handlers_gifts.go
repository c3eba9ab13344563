package orders

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Gift settings the sandbox starts with when an e-shop has none stored
// (the spec is silent on productGifts' values; any text is kept).
var defaultGiftSettings = map[string]any{"productGifts": "all", "stockDependent": false, "wholesaleGiftsEnabled": false}

// gifts serves GET /api/orders/gifts: the e-shop's order gifts (gifts
// given with orders above a price), in priority order.
func (s *Service) gifts(r *api.Request) (any, error) {
	var out []any
	err := s.view(r, func(sh *Shop) error {
		var err error
		out, err = sh.giftList()
		return err
	})
	return map[string]any{"items": orEmpty(out)}, err
}

func (sh *Shop) giftList() ([]any, error) {
	var out []any
	var ferr error
	err := sh.Tx.Scan(sh.ID, GiftsCollection, func(_ string, doc []byte) bool {
		m, err := decodeRecord(doc)
		if err != nil {
			ferr = err
			return false
		}
		out = append(out, m)
		return true
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// addGift serves POST /api/orders/gifts: code must be a product code of
// the e-shop, currencyCode one of its currencies.
func (s *Service) addGift(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	var out []any
	err = s.update(r, func(sh *Shop) error {
		code := strings.TrimSpace(str(data["code"]))
		if code == "" {
			return sandbox.Invalid("data.code", "Field data.code is required (a product code).")
		}
		if _, ok, err := sh.Catalog().ByCode(code); err != nil {
			return err
		} else if !ok {
			return sandbox.Invalid("data.code", "Field data.code: product code %q does not exist in this e-shop.", code)
		}
		cur := strings.ToUpper(strings.TrimSpace(str(data["currencyCode"])))
		if cur == "" {
			cur = sh.Meta.DefaultCurrency
		}
		if !sh.Meta.HasCurrency(cur) {
			return sandbox.Invalid("data.currencyCode", "Field data.currencyCode: %q is not a currency of this e-shop.", cur)
		}
		var price any
		if v := data["orderPrice"]; v != nil && v != "" {
			d, err := decimal.NewFromString(str(v))
			if err != nil {
				return sandbox.Invalid("data.orderPrice", "Field data.orderPrice must be a decimal number.")
			}
			price = rules.Money(d)
		}
		incl := true
		if b, ok := data["includingVat"].(bool); ok {
			incl = b
		}
		id, err := sh.Tx.Next(sh.ID, GiftsCollection)
		if err != nil {
			return err
		}
		rec := map[string]any{"id": id, "code": code, "currencyCode": cur, "includingVat": incl, "orderPrice": price, "priority": id}
		if err := putOwn(sh.Tx, sh.ID, GiftsCollection, strconv.FormatInt(id, 10), rec); err != nil {
			return err
		}
		out, err = sh.giftList()
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: map[string]any{"items": orEmpty(out)}}, nil
}

// deleteGift serves DELETE /api/orders/gifts/{id}.
func (s *Service) deleteGift(r *api.Request) (any, error) {
	return nil, s.update(r, func(sh *Shop) error {
		id := r.Var("id")
		if !sh.Tx.Exists(sh.ID, GiftsCollection, id) {
			return sandbox.NotFound(id, "Order gift %q does not exist in this e-shop.", id)
		}
		return sh.Tx.Delete(sh.ID, GiftsCollection, id)
	})
}

func (sh *Shop) giftSettings() map[string]any {
	m, err := Get(sh.Tx, sh.ID, GiftSettings, "settings", "Gift settings")
	if err != nil {
		m = map[string]any{}
		for k, v := range defaultGiftSettings {
			m[k] = v
		}
	}
	return m
}

// giftSettings serves GET /api/orders/gifts/settings.
func (s *Service) giftSettings(r *api.Request) (any, error) {
	var out map[string]any
	err := s.view(r, func(sh *Shop) error { out = sh.giftSettings(); return nil })
	return out, err
}

// updateGiftSettings serves PATCH /api/orders/gifts/settings.
func (s *Service) updateGiftSettings(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	var out map[string]any
	err = s.update(r, func(sh *Shop) error {
		out = sh.giftSettings()
		if v, ok := data["productGifts"]; ok && v != nil {
			if strings.TrimSpace(str(v)) == "" {
				return sandbox.Invalid("data.productGifts", "Field data.productGifts must not be empty.")
			}
			out["productGifts"] = v
		}
		for _, k := range []string{"stockDependent", "wholesaleGiftsEnabled"} {
			if v, ok := data[k].(bool); ok {
				out[k] = v
			}
		}
		return putOwn(sh.Tx, sh.ID, GiftSettings, "settings", out)
	})
	return out, err
}

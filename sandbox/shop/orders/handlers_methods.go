package orders

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// methodItem describes the payment or the shipping side of an order:
// the item type, the method collection, the order's main-method field and
// its list of method items.
type methodItem struct {
	itemType, coll, main, list, key, what string
}

var (
	paymentSide  = methodItem{rules.TypeBilling, PaymentMethods, "paymentMethod", "paymentMethods", "paymentMethod", "payment method"}
	shippingSide = methodItem{rules.TypeShipping, ShippingMethods, "shipping", "shippings", "shipping", "shipping method"}
)

func (s *Service) createPayment(r *api.Request) (any, error) { return s.addMethodItem(r, paymentSide) }
func (s *Service) createShipping(r *api.Request) (any, error) {
	return s.addMethodItem(r, shippingSide)
}
func (s *Service) updatePayment(r *api.Request) (any, error) {
	return s.changeMethodItem(r, paymentSide)
}
func (s *Service) updateShipping(r *api.Request) (any, error) {
	return s.changeMethodItem(r, shippingSide)
}

// addMethodItem adds a billing or shipping item for a method (data.guid)
// with its price; the method becomes the order's main one when it has
// none.
func (s *Service) addMethodItem(r *api.Request, side methodItem) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		m, err := sh.method(side.coll, data["guid"], "data.guid", side.what, false, "")
		if err != nil {
			return nil, err
		}
		in := map[string]any{"itemType": side.itemType, "name": m["name"]}
		for k, v := range data {
			if k != "guid" {
				in[k] = v
			}
		}
		pm, sm := sh.methodOf(o, PaymentMethods), sh.methodOf(o, ShippingMethods)
		rec, err := sh.addItem(o, in, rules.Flags{}, pm, sm)
		if err != nil {
			return nil, err
		}
		sh.linkMethod(o, side, rec["itemId"], m)
		if err := sh.Touch(o); err != nil {
			return nil, err
		}
		return orderData(sh, o)
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: 201, Data: out}, nil
}

// linkMethod points the order's method list (and main method when unset
// or held by this item) at m.
func (sh *Shop) linkMethod(o map[string]any, side methodItem, itemID any, m map[string]any) {
	id, _ := intOf(itemID)
	list, _ := o[side.list].([]any)
	found := false
	for _, v := range list {
		if e, ok := v.(map[string]any); ok {
			if n, _ := intOf(e["itemId"]); n == id {
				e[side.key], found = ref(m), true
			}
		}
	}
	if !found {
		list = append(list, map[string]any{"itemId": id, side.key: ref(m)})
	}
	o[side.list] = list
	if o[side.main] == nil || len(list) == 1 {
		o[side.main] = ref(m)
	}
}

// changeMethodItem changes a billing or shipping item: its method
// (data.guid, which renames the item), price and status.
func (s *Service) changeMethodItem(r *api.Request, side methodItem) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		it, err := findItem(o, r.Var("id"), side.itemType)
		if err != nil {
			return nil, err
		}
		change := map[string]any{}
		for k, v := range data {
			if k != "guid" {
				change[k] = v
			}
		}
		if g := strings.TrimSpace(str(data["guid"])); g != "" {
			m, err := sh.method(side.coll, g, "data.guid", side.what, false, "")
			if err != nil {
				return nil, err
			}
			change["name"] = m["name"]
			sh.linkMethod(o, side, it["itemId"], m)
		}
		if err := sh.changeItem(o, it, change, false); err != nil {
			return nil, err
		}
		if err := sh.Touch(o); err != nil {
			return nil, err
		}
		return itemData(sh, it)
	})
}

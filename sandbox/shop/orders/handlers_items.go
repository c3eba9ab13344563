package orders

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// itemData renders one item: {"orderItem": ...}.
func itemData(sh *Shop, it map[string]any) (any, error) {
	return answer("orderItem", it, sh.View())
}

func (s *Service) createItem(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	flags, err := ReadFlags(r, body, rules.FlagProducts, rules.FlagStock)
	if err != nil {
		return nil, err
	}
	out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		if _, err := sh.addItem(o, Data(body), flags, sh.methodOf(o, PaymentMethods), sh.methodOf(o, ShippingMethods)); err != nil {
			return nil, err
		}
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

// methodOf returns the order's payment or shipping method record.
func (sh *Shop) methodOf(o map[string]any, coll string) map[string]any {
	key := "paymentMethod"
	if coll == ShippingMethods {
		key = "shipping"
	}
	ref, _ := o[key].(map[string]any)
	m, err := Get(sh.Tx, sh.ID, coll, str(ref["guid"]), "method")
	if err != nil {
		return nil
	}
	return m
}

func (s *Service) updateItem(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	skip, err := r.BoolQuery(rules.FlagGUIDChecks)
	if err != nil {
		return nil, err
	}
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		it, err := findItem(o, r.Var("id"), "")
		if err != nil {
			return nil, err
		}
		if err := sh.changeItem(o, it, Data(body), skip); err != nil {
			return nil, err
		}
		if err := sh.Touch(o); err != nil {
			return nil, err
		}
		return itemData(sh, it)
	})
}

func (s *Service) deleteItem(r *api.Request) (any, error) {
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		it, err := findItem(o, r.Var("id"), "")
		if err != nil {
			return nil, err
		}
		if err := sh.removeItem(o, it); err != nil {
			return nil, err
		}
		return nil, sh.Touch(o)
	})
}

// createSurcharge serves POST .../item/{id}/surcharge-parameters: the
// parameter is recorded on the item (specificSurchargeParameters and its
// text) with its price; the item's price is not changed (the spec is
// silent).
func (s *Service) createSurcharge(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		it, err := findItem(o, r.Var("id"), "")
		if err != nil {
			return nil, err
		}
		name := strings.TrimSpace(str(data["name"]))
		price := data["price"]
		if pc := strings.TrimSpace(str(data["parameterCode"])); pc != "" {
			param, err := Get(sh.Tx, sh.ID, "surcharge-parameters", pc, "Surcharge parameter")
			if err != nil {
				return nil, sandbox.Invalid("data.parameterCode", "Field data.parameterCode: surcharge parameter %q does not exist in this e-shop.", pc)
			}
			vi := str(data["valueIndex"])
			var value map[string]any
			vals, _ := param["values"].([]any)
			for _, v := range vals {
				if m, ok := v.(map[string]any); ok && str(m["valueIndex"]) == vi {
					value = m
				}
			}
			if value == nil {
				return nil, sandbox.Invalid("data.valueIndex", "Field data.valueIndex: surcharge parameter %q has no value %q.", pc, vi)
			}
			name = str(param["name"]) + ": " + str(value["description"])
			if price == nil {
				price = value["price"]
			}
		}
		if name == "" {
			return nil, sandbox.Invalid("data.name", "Send data.name, or data.parameterCode with data.valueIndex.")
		}
		id, err := sh.NextID("order-item-surcharges")
		if err != nil {
			return nil, err
		}
		list, _ := it["specificSurchargeParameters"].([]any)
		it["specificSurchargeParameters"] = append(list, map[string]any{"name": name, "price": price, "relationId": itoa(id)})
		texts, _ := it["surchargeParametersTexts"].([]any)
		it["surchargeParametersTexts"] = append(texts, name)
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

func (s *Service) deleteSurcharge(r *api.Request) (any, error) {
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		it, err := findItem(o, r.Var("id"), "")
		if err != nil {
			return nil, err
		}
		rel := r.Var("relationId")
		list, _ := it["specificSurchargeParameters"].([]any)
		var kept []any
		var removed map[string]any
		for _, v := range list {
			m, _ := v.(map[string]any)
			if str(m["relationId"]) == rel {
				removed = m
				continue
			}
			kept = append(kept, v)
		}
		if removed == nil {
			return nil, sandbox.NotFound(rel, "Item %s has no surcharge parameter %s.", r.Var("id"), rel)
		}
		it["specificSurchargeParameters"] = orEmpty(kept)
		texts, _ := it["surchargeParametersTexts"].([]any)
		var keptTexts []any
		for _, t := range texts {
			if str(t) != str(removed["name"]) {
				keptTexts = append(keptTexts, t)
			}
		}
		it["surchargeParametersTexts"] = orEmpty(keptTexts)
		return nil, sh.Touch(o)
	})
}

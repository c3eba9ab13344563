package orders

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// updateHead serves PATCH /api/orders/{code}/head: addresses and contact
// fields, merged field by field. A canceled order's head is frozen: 422
// (the spec says the header modification answers 422 in some cases).
func (s *Service) updateHead(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := Data(body)
	return s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
		if sh.OrderCanceled(o) {
			return nil, sandbox.Unprocessable("order-canceled", r.Var("code"), "Order %s is canceled; its head can no longer be changed.", r.Var("code"))
		}
		head, err := sh.changeHead(o, data)
		if err != nil {
			return nil, err
		}
		for k, v := range head {
			o[k] = v
		}
		if err := sh.Touch(o); err != nil {
			return nil, err
		}
		return orderData(sh, o)
	})
}

// changeHead works out an order's new header fields from the change and
// checks them as order creation checks the same fields, so nothing
// creation refuses can be stored through the header: the e-mail's format
// (the request schema, 422 schema-mismatch, before this runs), the
// e-shop's mandatory fields among those the change sends (400 naming each
// one), the creation time and the birth date (400 naming the field). It
// returns only the fields that change; the order is left untouched, so a
// refused change stores nothing.
func (sh *Shop) changeHead(o, data map[string]any) (map[string]any, error) {
	head := map[string]any{}
	mode := sh.StreetMode()
	for _, k := range []struct {
		name string
		keys []string
	}{{"billingAddress", billingAddressKeys}, {"deliveryAddress", addressKeys}} {
		in, ok := data[k.name].(map[string]any)
		if !ok {
			continue
		}
		cur, _ := o[k.name].(map[string]any)
		if cur == nil {
			cur = shape(nil, k.keys)
		}
		merged := crud.Clone(cur).(map[string]any)
		if _, combined := in["streetWithNr"]; combined {
			// The combined value replaces the stored street and number
			// unless the change sends them too (address rules 3 and 4).
			for _, part := range []string{"street", "houseNumber"} {
				if _, sent := in[part]; !sent {
					merged[part] = nil
				}
			}
		}
		for key, v := range in {
			merged[key] = v
		}
		_, sentStreet := in["street"]
		_, sentCombined := in["streetWithNr"]
		if sentStreet || sentCombined {
			rules.NormalizeStreet(merged, mode)
		}
		head[k.name] = shape(merged, k.keys)
	}
	for _, key := range []string{"email", "phone", "addressesEqual"} {
		if v, ok := data[key]; ok {
			head[key] = v
		}
	}
	if v, ok := data["email"]; ok {
		head["email"] = nullIfEmpty(strings.TrimSpace(str(v)))
	}
	if v, ok := data["birthDate"]; ok {
		d, err := rules.Date(v, "data.birthDate")
		if err != nil {
			return nil, err
		}
		head["birthDate"] = d
	}
	if v, ok := data["customerGuid"]; ok {
		g := strings.TrimSpace(str(v))
		if g != "" && !sh.Tx.Exists(sh.ID, CustomersCollection, g) {
			return nil, sandbox.Invalid("data.customerGuid", "Field data.customerGuid: customer %s does not exist in this e-shop.", g)
		}
		head["customerGuid"] = nullIfEmpty(g)
	}
	ct, err := rules.DateTime(data["creationTime"], "data.creationTime")
	if err != nil {
		return nil, err
	}
	if ct != "" {
		head["creationTime"] = ct
	}
	after := map[string]any{}
	for k, v := range o {
		after[k] = v
	}
	for k, v := range head {
		after[k] = v
	}
	if missing := rules.MissingMandatorySent(sh.Fields, after, data); len(missing) > 0 {
		return nil, rules.MultiError(rules.MandatoryErrors(missing))
	}
	return head, nil
}

package certify

import (
	"fmt"
	"net/http"
	"net/url"
)

// A buyer's order reaches the e-shop in its default status: that is the
// order an add-on that processes orders acts on (confirms it, moves it
// on). The seeded orders are mostly further along, so an add-on handed
// one of them only reads. For --trigger order:create without an
// instance, certify therefore creates a fresh order through the API each
// time (POST /api/orders, no status given: the e-shop's default), and
// the e-shop sends order:create for it to the add-on's receivers, as it
// does for every order created.

// freshOrders reports whether a trigger creates a fresh order each time.
func freshOrders(t Trigger) bool { return t.Event == "order:create" && t.Instance == "" }

// orderKeep are the fields of a seeded order a new order copies: its
// customer, addresses, methods and currency; the items follow.
var orderKeep = []string{"email", "phone", "language", "billingAddress", "deliveryAddress"}

// orderTemplate builds, once, the body of a new order from one of the
// e-shop's orders (the first listed): the same buyer, addresses, methods,
// currency and items, and no status, code or number of its own.
func (s *suite) orderTemplate() (map[string]any, error) {
	if s.template != nil {
		return s.template, nil
	}
	list, err := s.lookup("order:create")
	if err != nil {
		return nil, err
	}
	tok, err := s.privateToken()
	if err != nil {
		return nil, err
	}
	var got struct {
		Order map[string]any `json:"order"`
	}
	if _, err := s.send(http.MethodGet, "/api/orders/"+url.PathEscape(list[0]), nil, map[string]string{s.headers.PrivateToken: tok}, &got); err != nil {
		return nil, fmt.Errorf("reading order %s to copy: %w", list[0], err)
	}
	o := got.Order
	data := map[string]any{}
	for _, k := range orderKeep {
		if v := withoutNulls(o[k]); v != nil {
			data[k] = v
		}
	}
	if m, ok := o["paymentMethod"].(map[string]any); ok && m["guid"] != nil {
		data["paymentMethodGuid"] = m["guid"]
	}
	if m, ok := o["shipping"].(map[string]any); ok && m["guid"] != nil {
		data["shippingGuid"] = m["guid"]
	}
	if m, ok := o["price"].(map[string]any); ok && m["currencyCode"] != nil {
		data["currency"] = map[string]any{"code": m["currencyCode"]}
	}
	var items []any
	raw, _ := o["items"].([]any)
	for _, v := range raw {
		it, _ := v.(map[string]any)
		price, _ := it["itemPrice"].(map[string]any)
		if it == nil || price == nil {
			continue
		}
		item := map[string]any{"itemType": it["itemType"], "name": it["name"], "amount": it["amount"],
			"vatRate": price["vatRate"], "itemPriceWithVat": price["withVat"]}
		for _, k := range []string{"code", "productGuid"} {
			if it[k] != nil {
				item[k] = it[k]
			}
		}
		items = append(items, item)
	}
	data["items"] = items
	s.template = data
	return data, nil
}

// withoutNulls drops the null fields of an object (an address), which a
// new order leaves out rather than sends as null.
func withoutNulls(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		if x != nil {
			out[k] = x
		}
	}
	return out
}

// freshOrder creates an order as a buyer's would be, in the e-shop's
// default status, and returns its code; creating it sends order:create.
func (s *suite) freshOrder() (string, error) {
	data, err := s.orderTemplate()
	if err != nil {
		return "", err
	}
	tok, err := s.privateToken()
	if err != nil {
		return "", err
	}
	var got struct {
		Order struct {
			Code string `json:"code"`
		} `json:"order"`
	}
	if _, err := s.send(http.MethodPost, "/api/orders", map[string]any{"data": data}, map[string]string{s.headers.PrivateToken: tok}, &got); err != nil {
		return "", fmt.Errorf("creating an order in e-shop %d: %w", s.o.Eshop, err)
	}
	return got.Order.Code, nil
}

package orders

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Store collections this package writes. The document collections use
// "code" as the id; the issue-3 read endpoints serve them.
const (
	Collection          = "orders"
	InvoicesCollection  = "invoices"
	ProformaCollection  = "proforma-invoices"
	CreditNotes         = "credit-notes"
	DeliveryNotes       = "delivery-notes"
	ProofPayments       = "proof-payments"
	StocksCollection    = "stocks"
	ProductsCollection  = "products"
	MovementsCollection = "stock-movements"
	OutboxCollection    = "outbox"
	ChangesCollection   = "order-changes"
	PaymentCodes        = "payment-codes"
	PaymentMethods      = "payment-methods"
	ShippingMethods     = "shipping-methods"
	CustomersCollection = "customers"
	GiftsCollection     = "order-gifts"
	GiftSettings        = "order-gift-settings"
)

// Get reads a record of a collection as a map; a missing one answers 404
// naming what and which.
func Get(tx *store.Tx, eshopID int, coll, id, what string) (map[string]any, error) {
	raw, err := tx.Get(eshopID, coll, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "%s %q does not exist in this e-shop.", what, id)
	}
	if err != nil {
		return nil, err
	}
	m, err := api.DecodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", coll, id, err)
	}
	delete(m, "_seq")
	return m, nil
}

// putOwn stores a record of a collection this package keeps for itself
// (payment codes, the e-mail outbox, gifts): none is a registry table,
// which only crud's Writer writes (the store refuses them here).
func putOwn(tx *store.Tx, eshopID int, coll, id string, rec map[string]any) error {
	raw, err := crud.Encode(rec)
	if err != nil {
		return err
	}
	_, err = tx.Put(eshopID, coll, id, raw)
	return err
}

// LoadOrder reads an order by code (404 when absent).
func LoadOrder(tx *store.Tx, eshopID int, code string) (map[string]any, error) {
	return Get(tx, eshopID, Collection, code, "Order")
}

// Render shows a stored record to a client: placeholders filled in,
// sandbox metadata removed.
func Render(rec map[string]any, v api.View) (map[string]any, error) {
	raw, err := crud.Encode(rec)
	if err != nil {
		return nil, err
	}
	return api.Render(raw, v)
}

// answer is a stored record as the data of a response, {key: record}:
// placeholders filled in and sandbox metadata removed, as Render does,
// but encoded once, straight into the bytes the envelope embeds (Render
// decodes the encoded record again, and the envelope encodes it a third
// time). The bytes are the same: the envelope encodes like Encode.
func answer(key string, rec map[string]any, v api.View) (api.EncodedJSON, error) {
	pub, _ := public(rec)
	raw, err := crud.Encode(pub)
	if err != nil {
		return nil, err
	}
	raw = api.Placeholders(raw, v.BaseURL, v.EshopURL)
	name, err := crud.Encode(key)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(raw)+len(name)+3)
	out = append(append(append(append(out, '{'), name...), ':'), raw...)
	return append(out, '}'), nil
}

// public is v without sandbox metadata (keys starting with "_") at any
// depth; the parts that hold none are shared, not copied. changed says
// whether anything was left out.
func public(v any) (out any, changed bool) {
	switch t := v.(type) {
	case map[string]any:
		var m map[string]any
		for k, x := range t {
			px, c := public(x)
			if !c && !strings.HasPrefix(k, "_") {
				continue
			}
			if m == nil {
				m = make(map[string]any, len(t))
				for k2, x2 := range t {
					if !strings.HasPrefix(k2, "_") {
						m[k2] = x2
					}
				}
			}
			if !strings.HasPrefix(k, "_") {
				m[k] = px
			}
		}
		if m == nil {
			return t, false
		}
		return m, true
	case []any:
		var l []any
		for i, x := range t {
			px, c := public(x)
			if !c {
				continue
			}
			if l == nil {
				l = append([]any(nil), t...)
			}
			l[i] = px
		}
		if l == nil {
			return t, false
		}
		return l, true
	}
	return v, false
}

// items returns an order's items as maps.
func items(o map[string]any) []map[string]any {
	list, _ := o["items"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// setItems stores the item maps back into the order.
func setItems(o map[string]any, list []map[string]any) {
	out := make([]any, len(list))
	for i, m := range list {
		out[i] = m
	}
	o["items"] = out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func jsonNumber(s string) json.Number { return json.Number(s) }

// decodeRecord parses a stored record without its store metadata.
func decodeRecord(doc []byte) (map[string]any, error) {
	m, err := api.DecodeObject(doc)
	if err != nil {
		return nil, err
	}
	delete(m, "_seq")
	return m, nil
}

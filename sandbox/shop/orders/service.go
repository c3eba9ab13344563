package orders

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Service is the order behaviour bound to a store: the handlers, the
// control routes and what the payments package reuses.
type Service struct {
	// Engine is crud's write path, which every order write goes through.
	Engine *crud.Engine
	Store  *store.Store
	Site   *eshop.Site
	IDs    *sandbox.IDs
	// Bus, when set, receives the payment-flow steps of the status calls
	// and of the payment results (bus.TopicPayment), which the contract
	// report pairs; nil publishes nothing.
	Bus *bus.Bus

	// codes finds the product of a variant code without a scan through
	// every product; see CodeIndex.
	codes *CodeIndex
	// settings keeps the e-shops' parsed status lists and field settings.
	settings *settingsCache
	// stocks keeps the stocks' supply indexes; see supplyCache.
	stocks *supplyCache
}

// Update runs fn on an e-shop inside one store transaction, with crud's
// write path (crud.Engine.Write). BuntDB admits one writer at a time, so
// concurrent orders never read the same stock.
func (s *Service) Update(eshopID int, fn func(sh *Shop) error) error {
	return s.Engine.Write(eshopID, func(w *crud.Writer) error {
		sh, err := openShop(w.Tx(), w, eshopID, s.Site, s.settings)
		if err != nil {
			return err
		}
		sh.codes, sh.stocks = s.codes, s.stocks
		return fn(sh)
	})
}

// View runs fn on an e-shop inside a read-only transaction (its Shop
// writes nothing).
func (s *Service) View(eshopID int, fn func(sh *Shop) error) error {
	return s.Store.View(func(tx *store.Tx) error {
		sh, err := openShop(tx, nil, eshopID, s.Site, s.settings)
		if err != nil {
			return err
		}
		sh.codes, sh.stocks = s.codes, s.stocks
		return fn(sh)
	})
}

// Bodies declares the order operations' body normalisation, which
// api.Request.Body (the one body decoder) applies before the schema
// check: the spec's string form of status ids ("statusId": "-2" as well
// as -2, in data and in data.items[]), which the reference's schema
// types as integers only.
func Bodies() map[string]func(body map[string]any) {
	return map[string]func(map[string]any){
		"CreateOrder":           statusIDDigits,
		"UpdateOrderStatus":     statusIDDigits,
		"BulkOrderStatusChange": statusIDDigits,
	}
}

// statusIDDigits turns the digit strings of data.statusId and
// data.items[].statusId into numbers.
func statusIDDigits(body map[string]any) {
	data, ok := body["data"].(map[string]any)
	if !ok {
		return
	}
	digitsToNumber(data, "statusId")
	if list, ok := data["items"].([]any); ok {
		for _, it := range list {
			if m, ok := it.(map[string]any); ok {
				digitsToNumber(m, "statusId")
			}
		}
	}
}

// digitsToNumber turns a string of digits under key into a JSON number.
func digitsToNumber(m map[string]any, key string) {
	sv, ok := m[key].(string)
	if !ok {
		return
	}
	t := strings.TrimSpace(sv)
	if _, err := rules.StatusID(t, key); err == nil && t != "" {
		m[key] = jsonNumber(t)
	}
}

// Data returns the body's data object (an empty one when absent).
func Data(body map[string]any) map[string]any {
	if d, ok := body["data"].(map[string]any); ok {
		return d
	}
	return map[string]any{}
}

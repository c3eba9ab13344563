package eshop

import (
	"encoding/json"
	"errors"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// Sections of GET /api/eshop that appear only when named in include. The
// first four are the spec's; the sandbox derives paymentMethods,
// shippingMethods and orderStatuses from the e-shop's own records so the
// answer never disagrees with the dedicated endpoints.
var Sections = []string{"paymentMethods", "shippingMethods", "imageCuts", "orderStatuses", "countries", "socialNetworks", "orderAdditionalFields"}

// Handlers returns the e-shop information handlers keyed by operation.
func Handlers(st *store.Store, site *Site) map[string]api.HandlerFunc {
	h := &handlers{st: st, site: site}
	return map[string]api.HandlerFunc{
		"GetEshopInfo":            h.info,
		"GetEshopMandatoryFields": h.single("customer-fields"),
		"GetListOfOrderStatuses":  h.single("order-statuses"),
	}
}

type handlers struct {
	st   *store.Store
	site *Site
}

// info answers GET /api/eshop: the basic information plus the include
// sections asked for.
func (h *handlers) info(r *api.Request) (any, error) {
	include, err := r.Includes(Sections)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	err = h.st.View(func(tx *store.Tx) error {
		c, err := NewContext(tx, r, h.site)
		if err != nil {
			return err
		}
		out, err = c.Single(tx, r.Eshop, "info")
		if err != nil {
			return err
		}
		for _, s := range Sections {
			if !include[s] {
				out[s] = nil
			}
		}
		if include["orderStatuses"] {
			st, err := c.Single(tx, r.Eshop, "order-statuses")
			if err != nil {
				return err
			}
			out["orderStatuses"] = statusSection(st)
		}
		if include["paymentMethods"] {
			out["paymentMethods"], err = methodSection(tx, c, r.Eshop, "payment-methods", "defaultPayment")
			if err != nil {
				return err
			}
		}
		if include["shippingMethods"] {
			out["shippingMethods"], err = methodSection(tx, c, r.Eshop, "shipping-methods", "defaultShipping")
			if err != nil {
				return err
			}
		}
		out = conform(tx, c, r, out)
		return nil
	})
	return out, err
}

// conform puts a seeded document in the shape of the operation's answer:
// every property the reference declares is there (null when the fixture
// leaves it out, so a fixture written before a field existed still
// answers it), and nothing it does not declare.
func conform(tx *store.Tx, c *Context, r *api.Request, out map[string]any) map[string]any {
	gen := &shape.Gen{Now: tx.Clock().Now(), Currency: c.Meta.DefaultCurrency}
	if m, ok := gen.Conform(out, shape.Response(r.Route.Operation)).(map[string]any); ok {
		return m
	}
	return out
}

// single answers an endpoint whose data is one seeded document.
func (h *handlers) single(name string) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		var out map[string]any
		err := h.st.View(func(tx *store.Tx) error {
			c, err := NewContext(tx, r, h.site)
			if err != nil {
				return err
			}
			out, err = c.Single(tx, r.Eshop, name)
			if err != nil {
				return err
			}
			out = conform(tx, c, r, out)
			return nil
		})
		return out, err
	}
}

// Single renders one of an e-shop's singleton documents.
func (c *Context) Single(tx *store.Tx, eshopID int, name string) (map[string]any, error) {
	raw, err := tx.Get(eshopID, InfoCollection, name)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(name, "This e-shop has no %s (add %s.json to its fixtures).", name, name)
	}
	if err != nil {
		return nil, err
	}
	return api.Render(raw, c.View())
}

func statusSection(doc map[string]any) map[string]any {
	var statuses []any
	list, _ := doc["statuses"].([]any)
	for _, s := range list {
		m, _ := s.(map[string]any)
		statuses = append(statuses, map[string]any{"id": m["id"], "name": m["name"], "markAsPaid": m["markAsPaid"], "order": m["order"]})
	}
	return map[string]any{"defaultStatus": doc["defaultStatus"], "statuses": statuses}
}

// methodSection builds the retail/wholesale section of payment or
// shipping methods. A record flagged "_default" is the default method.
func methodSection(tx *store.Tx, c *Context, eshopID int, coll, defaultKey string) (map[string]any, error) {
	retail := map[string]any{defaultKey: nil, "methods": []any{}}
	wholesale := map[string]any{defaultKey: nil, "methods": []any{}}
	var ferr error
	n := 0
	err := tx.Scan(eshopID, coll, func(_ string, doc []byte) bool {
		n++
		var meta struct {
			Default   bool `json:"_default"`
			Wholesale bool `json:"wholesale"`
		}
		_ = json.Unmarshal(doc, &meta)
		m, err := api.Render(doc, c.View())
		if err != nil {
			ferr = err
			return false
		}
		order := m["priority"]
		if order == nil {
			order = n
		}
		item := map[string]any{"guid": m["guid"], "name": m["name"], "order": order, "visible": m["visible"] == true}
		sec := retail
		if meta.Wholesale {
			sec = wholesale
		}
		sec["methods"] = append(sec["methods"].([]any), item)
		if meta.Default && sec[defaultKey] == nil {
			sec[defaultKey] = m["guid"]
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	return map[string]any{"retail": retail, "wholesale": wholesale, "wholesaleActive": len(wholesale["methods"].([]any)) > 0}, err
}

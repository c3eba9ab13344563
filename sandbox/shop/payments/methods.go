package payments

import (
	"encoding/base64"
	"net/http"
	"path"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// EventMethodChange is emitted when a payment method is created, activated
// or deleted.
const EventMethodChange = "paymentMethod:change"

// paymentTypes are the payment forms a new method may name in
// paymentType: the spec's billing methods, by code.
var paymentTypes = map[string]struct {
	ID   int
	Name string
}{
	"cash-on-delivery": {1, "Cash on delivery"},
	"bank-transfer":    {2, "Wire transfer"},
	"cash":             {3, "Cash"},
	"card":             {4, "Card"},
}

// Handlers returns the PaymentMethods and PaymentGateways handlers.
func (s *Service) Handlers() map[string]api.HandlerFunc {
	return map[string]api.HandlerFunc{
		"GetListingOfPaymentMethods": s.listMethods,
		"CreatePaymentMethod":        s.createMethod,
		"DeletePaymentMethod":        s.deleteMethod,
		"GetInformationAboutPayment": s.paymentInfo,
		"UpdatePaymentStatus":        s.updatePaymentStatus,
	}
}

// listMethods serves GET /api/payment-methods: every method of the
// e-shop, hidden and inactive ones included (as visible false).
func (s *Service) listMethods(r *api.Request) (any, error) {
	var out map[string]any
	err := s.Store.View(func(tx *store.Tx) error {
		c, err := eshop.NewContext(tx, r, s.Site)
		if err != nil {
			return err
		}
		info, _ := tx.Get(r.Eshop, eshop.InfoCollection, "info")
		methods := []any{}
		var retail, wholesale any
		wholesaleActive := false
		var ferr error
		err = tx.Scan(r.Eshop, orders.PaymentMethods, func(_ string, doc []byte) bool {
			m, err := api.Render(doc, c.View())
			if err != nil {
				ferr = err
				return false
			}
			item := map[string]any{}
			for _, k := range []string{"guid", "name", "description", "logoUrl", "priority", "submethod", "visible", "wholesale", "paymentType"} {
				item[k] = m[k]
			}
			item["visible"] = m["visible"] == true
			item["wholesale"] = m["wholesale"] == true
			methods = append(methods, item)
			def := gjson.GetBytes(doc, "_default").Bool()
			if item["wholesale"] == true {
				wholesaleActive = true
				if def && wholesale == nil {
					wholesale = m["guid"]
				}
			} else if def && retail == nil {
				retail = m["guid"]
			}
			return true
		})
		if err == nil {
			err = ferr
		}
		out = map[string]any{"paymentMethods": methods, "defaultRetailMethod": retail, "defaultWholesaleMethod": wholesale,
			"wholesaleActive": wholesaleActive, "wholesaleSplitActive": gjson.GetBytes(info, "settings.wholesaleSplitActive").Bool()}
		return err
	})
	return out, err
}

// createMethod serves POST /api/payment-methods: the method is created
// inactive and hidden (spec: it stays hidden until the e-shop operator
// reviews it), whatever visibility the request asks for. A method an
// add-on creates is an online method of that add-on's gateway.
func (s *Service) createMethod(r *api.Request) (any, error) {
	body, err := r.Body()
	if err != nil {
		return nil, err
	}
	data := orders.Data(body)
	name := strings.TrimSpace(str(data["name"]))
	if name == "" {
		return nil, sandbox.Invalid("data.name", "Field data.name is required.")
	}
	code := strings.TrimSpace(str(data["paymentType"]))
	pt, ok := paymentTypes[code]
	if !ok {
		codes := make([]string, 0, len(paymentTypes))
		for c := range paymentTypes {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		return nil, sandbox.Invalid("data.paymentType", "Field data.paymentType: %q is not a payment type; use one of %s.", code, strings.Join(codes, ", "))
	}
	var out map[string]any
	err = s.Orders.Engine.Write(r.Eshop, func(w *crud.Writer) error {
		tx := w.Tx()
		c, err := eshop.NewContext(tx, r, s.Site)
		if err != nil {
			return err
		}
		guid := s.IDs.UUID()
		var logo any
		if l, ok := data["logo"].(map[string]any); ok {
			if _, err := base64.StdEncoding.DecodeString(str(l["content"])); err != nil {
				return sandbox.Invalid("data.logo.content", "Field data.logo.content must be base64-encoded image data.")
			}
			file := path.Base(strings.TrimSpace(str(l["filename"])))
			if file == "" || file == "." || file == "/" {
				return sandbox.Invalid("data.logo.filename", "Field data.logo.filename is required with a logo.")
			}
			logo = "{eshop_url}/user/payment/" + guid + "-" + file
		}
		wholesale := data["wholesale"] == true
		rec := map[string]any{"guid": guid, "name": name, "description": data["description"], "logoUrl": logo,
			"priority": tx.Count(r.Eshop, orders.PaymentMethods) + 1, "submethod": data["submethod"], "visible": false, "wholesale": wholesale,
			"paymentType": map[string]any{"id": pt.ID, "code": code, "name": pt.Name}, "_active": false}
		if p := r.Principal; p != nil && p.Kind() == auth.KindAddon && p.Addon != nil {
			rec["_online"], rec["_addon"] = true, p.Addon.Name
		}
		// The row's event: paymentMethod:change.
		if err := w.Save(orders.PaymentMethods, guid, rec, crud.Added); err != nil {
			return err
		}
		m, err := orders.Render(rec, c.View())
		if err != nil {
			return err
		}
		out = map[string]any{"guid": m["guid"], "name": m["name"], "description": m["description"], "logoUrl": m["logoUrl"],
			"paymentType": m["paymentType"], "submethod": m["submethod"], "visibility": false, "wholesale": wholesale}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Result{Status: http.StatusCreated, Data: out}, nil
}

// deleteMethod serves DELETE /api/payment-methods/{guid}.
func (s *Service) deleteMethod(r *api.Request) (any, error) {
	return nil, s.Orders.Engine.Write(r.Eshop, func(w *crud.Writer) error {
		tx := w.Tx()
		if _, err := eshop.NewContext(tx, r, s.Site); err != nil {
			return err
		}
		guid := r.Var("guid")
		if !tx.Exists(r.Eshop, orders.PaymentMethods, guid) {
			return sandbox.NotFound(guid, "Payment method %q does not exist in this e-shop.", guid)
		}
		return w.Delete(orders.PaymentMethods, guid) // paymentMethod:change
	})
}

// activate serves POST /_sandbox/eshops/{id}/payment-methods/{guid}/activate:
// the operator's review, after which the method is active and visible.
func (s *Service) activate(r *api.Request) (any, error) {
	eshopID := atoi(r.Var("eshopId"))
	guid := r.Var("guid")
	var out map[string]any
	err := s.Orders.Engine.Write(eshopID, func(w *crud.Writer) error {
		tx := w.Tx()
		if _, err := eshop.Get(tx, eshopID); err != nil {
			return err
		}
		m, err := orders.Get(tx, eshopID, orders.PaymentMethods, guid, "Payment method")
		if err != nil {
			return err
		}
		m["_active"], m["visible"] = true, true
		if err := w.Save(orders.PaymentMethods, guid, m, crud.Edited); err != nil { // paymentMethod:change
			return err
		}
		out = map[string]any{"guid": guid, "active": true, "visible": true, "online": m["_online"] == true, "addon": m["_addon"]}
		return nil
	})
	return out, err
}

// str reads a request text field ("" when absent or not a string).
func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

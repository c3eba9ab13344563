package logistics

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// Shipment statuses the sandbox moves through.
const (
	StatusCreated         = "created"
	StatusCancelRequested = "cancel-requested"
	StatusClosed          = "closed"
)

// createShipment answers POST /api/shipments: a shipment of an order
// (data.orderCode) with the order's carrier and recipient.
func (h *handlers) createShipment(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	code := str(data["orderCode"])
	if code == "" {
		return nil, sandbox.Invalid("data.orderCode", "Field data.orderCode is required: a shipment is made for an order.")
	}
	return h.shipOrder(r, code, "data.orderCode", data)
}

// createShipmentForOrder answers POST /api/shipments/order/{code}.
func (h *handlers) createShipmentForOrder(r *api.Request) (any, error) {
	return h.shipOrder(r, r.Var("code"), "", map[string]any{})
}

// shipOrder creates the shipment (shipment:create with its GUID) and
// answers its GUID and the carrier's check URL.
func (h *handlers) shipOrder(r *api.Request, code, field string, data map[string]any) (any, error) {
	var out any
	err := h.e.Update(r, func(c *crud.Ctx) error {
		ok, err := c.CollOf("orders")
		if err != nil {
			return err
		}
		_, o, err := ok.Find(code)
		if err != nil {
			if field != "" {
				return sandbox.NotFound(field, "Field %s: order %q does not exist in this e-shop.", field, code)
			}
			return err
		}
		o, err = c.Render(o)
		if err != nil {
			return err
		}
		ba, _ := o["deliveryAddress"].(map[string]any)
		if ba == nil {
			ba, _ = o["billingAddress"].(map[string]any)
		}
		price, _ := o["price"].(map[string]any)
		info, err := c.EshopInfo()
		if err != nil {
			return err
		}
		ci, _ := info["contactInformation"].(map[string]any)
		carrier := carrierOf(c, o)
		guid := c.Gen.UUID()
		rec := map[string]any{
			"guid": guid, "orderCode": o["code"], "status": StatusCreated, "note": data["note"],
			"serviceCode": carrier["code"], "shipmentType": "parcel", "_carrier": carrier["code"],
			"customer": map[string]any{"name": ba["fullName"], "company": ba["company"], "street": ba["street"], "city": ba["city"],
				"zipCode": ba["zip"], "countryCode": ba["countryCode"], "email": o["email"], "phone": o["phone"], "note": nil},
			"recipient": map[string]any{"name": ba["fullName"], "company": ba["company"], "street": ba["street"], "city": ba["city"],
				"zip": ba["zip"], "countryCode": ba["countryCode"], "email": o["email"], "phone": o["phone"]},
			"sender": map[string]any{"name": ci["eshopName"], "email": ci["email"], "phone": ci["phone"]},
			"value":  map[string]any{"currencyCode": price["currencyCode"], "value": price["withVat"]},
			"packages": []any{map[string]any{"name": "1", "weight": 1.0, "trackingNumber": "SBX" + h.ids.Token(10),
				"trackingUrl": "{eshop_url}/tracking/" + guid}},
		}
		if cod := str(data["cod"]); cod != "" {
			rec["cod"] = map[string]any{"currencyCode": price["currencyCode"], "value": cod}
		}
		if ca, ok := carrier["_address"].(map[string]any); ok {
			rec["carrierAddress"] = ca
		}
		sk, err := c.CollOf("shipments")
		if err != nil {
			return err
		}
		if _, _, err := c.CreateOne(sk, rec); err != nil {
			return err
		}
		out = &api.Result{Status: 201, Data: c.Answer(map[string]any{"guid": guid, "checkUrls": []any{c.Esh.EshopURL + "/tracking/" + guid}})}
		return nil
	})
	return out, err
}

// carrierOf picks the carrier an order ships with: the carrier whose code
// is the order's shipping company, else the first carrier.
func carrierOf(c *crud.Ctx, o map[string]any) map[string]any {
	ck, err := c.CollOf("carriers")
	if err != nil {
		return map[string]any{}
	}
	recs, _ := ck.All(nil)
	if len(recs) == 0 {
		return map[string]any{}
	}
	if sh, ok := o["shipping"].(map[string]any); ok {
		for _, rec := range recs {
			if rec["code"] == sh["shippingCompanyCode"] {
				return rec
			}
		}
	}
	return recs[0]
}

// cancelShipment answers POST /api/shipments/{guid}/cancel-request: the
// carrier is asked to cancel (shipment:update); 204, no body.
func (h *handlers) cancelShipment(r *api.Request) (any, error) {
	err := h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("shipments")
		if err != nil {
			return err
		}
		_, err = c.UpdateOne(k, r.Var("guid"), map[string]any{"status": StatusCancelRequested}, false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{Status: 204}, nil
}

// closeCarrier answers POST /api/shipments/carriers/{code}/close: the
// carrier's created shipments are handed over (status closed,
// shipment:update each); 204, no body.
func (h *handlers) closeCarrier(r *api.Request) (any, error) {
	err := h.e.Update(r, func(c *crud.Ctx) error {
		ck, err := c.CollOf("carriers")
		if err != nil {
			return err
		}
		code, _, err := ck.Find(r.Var("code"))
		if err != nil {
			return err
		}
		k, err := c.CollOf("shipments")
		if err != nil {
			return err
		}
		recs, err := k.All(func(doc []byte) bool {
			return crud.FieldEquals(doc, "_carrier", code) && crud.FieldEquals(doc, "status", StatusCreated)
		})
		if err != nil {
			return err
		}
		for _, s := range recs {
			if _, err := c.UpdateOne(k, str(s["guid"]), map[string]any{"status": StatusClosed}, false); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.Raw{Status: 204}, nil
}

// shippingOptions answers GET /api/shipments/order/{code}/shipping-options:
// each active carrier's service the order can ship with.
func (h *handlers) shippingOptions(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		ok, err := c.CollOf("orders")
		if err != nil {
			return err
		}
		if _, _, err := ok.Find(r.Var("code")); err != nil {
			return err
		}
		ck, err := c.CollOf("carriers")
		if err != nil {
			return err
		}
		recs, err := ck.All(nil)
		if err != nil {
			return err
		}
		var opts []any
		for _, rec := range recs {
			if rec["activationStatus"] != "active" {
				continue
			}
			services, _ := rec["services"].([]any)
			for _, s := range services {
				sm, _ := s.(map[string]any)
				opts = append(opts, map[string]any{"shippingId": sm["serviceId"], "methodName": sm["name"], "carrierCode": rec["code"],
					"serviceCode": sm["name"], "maxShipment": 1, "bankAccounts": []any{}, "carrierAddresses": []any{}, "branch": nil})
			}
		}
		out = c.Answer(map[string]any{"shippingOptions": opts})
		return nil
	})
	return out, err
}

// carrierDetail answers GET /api/shipments/carriers/{code}/{type}: the
// carrier of that code and type.
func (h *handlers) carrierDetail(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		ck, err := c.CollOf("carriers")
		if err != nil {
			return err
		}
		_, rec, err := ck.Find(r.Var("code"))
		if err != nil {
			return err
		}
		if t := r.Var("type"); str(rec["type"]) != t {
			return sandbox.NotFound(t, "Carrier %s has no type %q (it is %q).", r.Var("code"), t, str(rec["type"]))
		}
		shown, err := c.Render(rec)
		if err != nil {
			return err
		}
		out = c.Answer(shown)
		return nil
	})
	return out, err
}

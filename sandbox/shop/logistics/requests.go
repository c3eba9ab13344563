package logistics

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// Shipping request statuses: a carrier add-on is asked to quote a cart's
// delivery; it answers with UpdateShippingData; the buyer's choice ends
// it confirmed (the order is placed) or cancelled.
const (
	RequestPending   = "pending"
	RequestAnswered  = "answered"
	RequestConfirmed = "confirmed"
	RequestCancelled = "cancelled"
)

// request finds a shipping request; the shipping GUID in the path must be
// the shipping method it asks about.
func request(c *crud.Ctx) (*crud.Coll, string, map[string]any, error) {
	k, err := c.CollOf("shipping-requests")
	if err != nil {
		return nil, "", nil, err
	}
	code, rec, err := k.Find(c.Var("shippingRequestCode"))
	if err != nil {
		return nil, "", nil, err
	}
	if g := c.Var("shippingGuid"); str(rec["_shippingGuid"]) != g {
		return nil, "", nil, sandbox.NotFound(g, "Shipping request %s is not for shipping method %q.", code, g)
	}
	return k, code, rec, nil
}

// requestDetail answers GET /api/shipping-request/{code}/{guid}: the cart
// to quote.
func (h *handlers) requestDetail(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		_, _, rec, err := request(c)
		if err != nil {
			return err
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

// updateShippingData answers PUT /api/shipping-request/{code}/{guid} (the
// client SDK sends it as POST): the add-on's quote is stored and a
// verification code returned.
func (h *handlers) updateShippingData(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		k, code, rec, err := request(c)
		if err != nil {
			return err
		}
		if s := str(rec["_status"]); s == RequestConfirmed || s == RequestCancelled {
			return sandbox.Conflict(code, "Shipping request %s is already %s.", code, s)
		}
		verification := strings.ToUpper(h.ids.Token(12))
		rec["_shippingData"] = data
		rec["_status"] = RequestAnswered
		rec["_verificationCode"] = verification
		if err := k.Save(code, rec, crud.Edited); err != nil {
			return err
		}
		out = c.Answer(map[string]any{"verificationCode": verification})
		return nil
	})
	return out, err
}

// requestStatus answers GET /api/shipping-request/{code}/{guid}/status.
func (h *handlers) requestStatus(r *api.Request) (any, error) {
	var out any
	err := h.e.View(r, func(c *crud.Ctx) error {
		_, _, rec, err := request(c)
		if err != nil {
			return err
		}
		status := str(rec["_status"])
		if status == "" {
			status = RequestPending
		}
		out = c.Answer(map[string]any{"status": status, "orderCode": rec["_orderCode"]})
		return nil
	})
	return out, err
}

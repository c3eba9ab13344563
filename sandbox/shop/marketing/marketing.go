// Package marketing serves the marketing endpoints whose behaviour the
// registry table cannot state: generating a set of discount coupons,
// recording a coupon's use, and adding e-mails to a mailing list with
// the answer that sorts them into inserted, existing and invalid.
package marketing

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// Handlers returns the marketing actions keyed by operation.
func Handlers(e *crud.Engine, ids *sandbox.IDs) map[string]api.HandlerFunc {
	h := &handlers{e: e, ids: ids}
	return map[string]api.HandlerFunc{
		"CreateDiscountCouponsSet":     h.couponSet,
		"UpdateDiscountCouponsUsage":   h.couponUse,
		"CreateEmailsDistributionList": h.addEmails,
	}
}

type handlers struct {
	e   *crud.Engine
	ids *sandbox.IDs
}

// couponSet answers POST /api/discount-coupons/set: count coupons with
// the given settings and generated codes (discountCoupon:create each,
// then discountCoupon:massCreate).
func (h *handlers) couponSet(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	count := 1
	if v, ok := data["count"]; ok && v != nil {
		if _, err := fmt.Sscan(crud.IDString(v), &count); err != nil || count < 1 {
			return nil, sandbox.Invalid("data.count", "Field data.count must be a whole number of at least 1.")
		}
	}
	delete(data, "count")
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		row := c.Row("discount-coupons")
		if count > row.BulkMax {
			return sandbox.Errorf(sandbox.KindTooLarge, sandbox.CodeTooManyEntities, "data.count",
				"A set may hold at most %d coupons, not %d. Nothing was created.", row.BulkMax, count)
		}
		k, err := c.Coll(row)
		if err != nil {
			return err
		}
		var shown []any
		var codes []string
		for i := 0; i < count; i++ {
			one := crud.Clone(data).(map[string]any)
			one["code"] = h.freeCode(k)
			rec, id, err := c.CreateOne(k, one)
			if err != nil {
				return err
			}
			codes = append(codes, id)
			m, err := c.Render(rec)
			if err != nil {
				return err
			}
			shown = append(shown, m)
		}
		c.Emit(row.Events.MassCreate, crud.MassInstance(codes))
		out = &api.Result{Status: 201, Data: c.Answer(map[string]any{"coupons": shown})}
		return nil
	})
	return out, err
}

// freeCode draws a coupon code not used yet: 10 upper-case letters and
// digits.
func (h *handlers) freeCode(k *crud.Coll) string {
	for {
		code := strings.ToUpper(h.ids.Token(10))
		if !k.Exists(code) {
			return code
		}
	}
}

// couponUse answers PATCH /api/discount-coupons/use/{code}: the coupon
// was used on an order (which must exist unless
// suppressOrderChecking=true). A coupon that is not reusable can be used
// once (409 after).
func (h *handlers) couponUse(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	suppress, err := r.BoolQuery("suppressOrderChecking")
	if err != nil {
		return nil, err
	}
	err = h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("discount-coupons")
		if err != nil {
			return err
		}
		code, cp, err := k.Find(r.Var("code"))
		if err != nil {
			return err
		}
		order := crud.IDString(data["orderCode"])
		if !suppress {
			if order == "" {
				return sandbox.Invalid("data.orderCode", "Field data.orderCode is required (or send suppressOrderChecking=true).")
			}
			if !c.Tx.Exists(r.Eshop, "orders", order) {
				return sandbox.NotFound("data.orderCode", "Field data.orderCode: order %q does not exist in this e-shop.", order)
			}
		}
		used := 0
		fmt.Sscan(crud.IDString(cp["usedCount"]), &used)
		if reusable, _ := cp["reusable"].(bool); !reusable && used > 0 {
			return sandbox.Conflict(code, "Coupon %s is not reusable and was already used.", code)
		}
		_, err = c.UpdateOne(k, code, map[string]any{"usedCount": used + 1}, false)
		return err
	})
	return nil, err
}

// addEmails answers POST /api/mailing-lists/{code}: each address is
// inserted (mailingListEmail:create), already on the list, or invalid.
func (h *handlers) addEmails(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	list, _ := data["emails"].([]any)
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		k, err := c.CollOf("mailing-lists/emails")
		if err != nil {
			return err
		}
		inserted, existing, invalid, msgs := []any{}, []any{}, []any{}, []any{}
		for _, v := range list {
			email, _ := v.(string)
			addr, err := mail.ParseAddress(email)
			if err != nil || addr.Address != strings.TrimSpace(email) {
				invalid = append(invalid, email)
				msgs = append(msgs, fmt.Sprintf("%q is not an e-mail address.", email))
				continue
			}
			if k.Exists(addr.Address) {
				existing = append(existing, addr.Address)
				continue
			}
			if _, _, err := c.CreateOne(k, map[string]any{"email": addr.Address, "added": c.Now()}); err != nil {
				return err
			}
			inserted = append(inserted, addr.Address)
		}
		if err := k.Flush(); err != nil {
			return err
		}
		out = &api.Result{Status: 201, Data: c.Answer(map[string]any{"emailsInserted": inserted, "emailsExisting": existing, "emailsInvalid": invalid, "errorMessages": msgs})}
		return nil
	})
	return out, err
}

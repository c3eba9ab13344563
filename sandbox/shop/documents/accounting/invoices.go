package accounting

import (
	"fmt"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// codesOf reads a list of document codes from data[key], each of which
// must exist in coll (404 naming the entry).
func codesOf(c *crud.Ctx, data map[string]any, key, coll string) ([]any, []map[string]any, error) {
	list, _ := data[key].([]any)
	k, err := c.CollOf(coll)
	if err != nil {
		return nil, nil, err
	}
	codes := make([]any, 0, len(list))
	recs := make([]map[string]any, 0, len(list))
	for i, v := range list {
		code := str(v)
		_, rec, err := k.Find(code)
		if err != nil {
			return nil, nil, sandbox.NotFound(fmt.Sprintf("data.%s[%d]", key, i), "Field data.%s[%d]: %q does not exist in this e-shop.", key, i, code)
		}
		codes = append(codes, code)
		recs = append(recs, rec)
	}
	return codes, recs, nil
}

// linkProformas answers PATCH /api/invoices/{code}/link-proforma-invoice:
// the invoice is settled by the named proforma invoices.
func (h *handlers) linkProformas(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		codes, _, err := codesOf(c, data, "proformaInvoiceCodes", "proforma-invoices")
		if err != nil {
			return err
		}
		k, err := c.CollOf("invoices")
		if err != nil {
			return err
		}
		rec, err := c.UpdateOne(k, r.Var("code"), map[string]any{"proformaInvoiceCodes": codes}, false)
		if err != nil {
			return err
		}
		shown, err := c.Render(rec)
		out = c.Answer(map[string]any{"invoice": shown})
		return err
	})
	return out, err
}

// linkProofs answers PATCH /api/invoices/{code}/link-proof-payment: the
// named proof payments settle the invoice (and name it).
func (h *handlers) linkProofs(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		codes, proofs, err := codesOf(c, data, "proofPaymentCodes", "proof-payments")
		if err != nil {
			return err
		}
		k, err := c.CollOf("invoices")
		if err != nil {
			return err
		}
		code, _, err := k.Find(r.Var("code"))
		if err != nil {
			return err
		}
		var links []any
		pk, err := c.CollOf("proof-payments")
		if err != nil {
			return err
		}
		for i, p := range proofs {
			links = append(links, map[string]any{"code": codes[i], "vatBreakdown": p["vatBreakdown"]})
			if _, err := c.UpdateOne(pk, str(codes[i]), map[string]any{"invoiceCode": code}, false); err != nil {
				return err
			}
		}
		rec, err := c.UpdateOne(k, code, map[string]any{"proofPayments": links}, false)
		if err != nil {
			return err
		}
		shown, err := c.Render(rec)
		out = c.Answer(map[string]any{"invoice": shown})
		return err
	})
	return out, err
}

// invoiceFromProforma answers POST /api/proforma-invoices/{code}/invoice:
// the invoice of a paid proforma invoice. A second invoice for the same
// proforma answers 409 unless suppressExistenceCheck=true.
func (h *handlers) invoiceFromProforma(r *api.Request) (any, error) {
	data, err := crud.BodyObject(r)
	if err != nil {
		return nil, err
	}
	opts, err := options(data)
	if err != nil {
		return nil, err
	}
	suppress, err := r.BoolQuery("suppressExistenceCheck")
	if err != nil {
		return nil, err
	}
	var out any
	err = h.e.Update(r, func(c *crud.Ctx) error {
		pk, err := c.CollOf("proforma-invoices")
		if err != nil {
			return err
		}
		pcode, pf, err := pk.Find(r.Var("code"))
		if err != nil {
			return err
		}
		if prev := str(pf["_invoiceCode"]); prev != "" && !suppress {
			return sandbox.Conflict(pcode, "Proforma invoice %s already has invoice %s (send suppressExistenceCheck=true for another).", pcode, prev)
		}
		shop, err := orders.OpenShop(c.W, h.site)
		if err != nil {
			return err
		}
		code, err := nextCode(c, shop, "invoices", str(data["invoiceCode"]))
		if err != nil {
			return err
		}
		rec := crud.Clone(pf).(map[string]any)
		for k := range rec {
			if len(k) > 0 && k[0] == '_' {
				delete(rec, k)
			}
		}
		rec["code"] = code
		rec["proformaInvoiceCodes"] = []any{pcode}
		rec["proofPayments"] = nil
		rec["paid"] = true
		rec["taxDate"] = c.Tx.Now().Format("2006-01-02")
		rec["creationTime"], rec["changeTime"] = nil, nil
		for k, v := range opts {
			rec[k] = v
		}
		ik, err := c.CollOf("invoices")
		if err != nil {
			return err
		}
		saved, _, err := c.CreateOne(ik, rec)
		if err != nil {
			return err
		}
		pf["_invoiceCode"] = code
		if err := pk.Annotate(pcode, pf); err != nil {
			return err
		}
		out, err = created(c, "invoice", saved)
		return err
	})
	return out, err
}

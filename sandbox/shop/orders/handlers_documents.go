package orders

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// documentFromOrder serves the three "document from order" operations:
// CreateInvoiceFromOrder, DeliveryNoteFromOrder and
// CreateProformaInvoiceFromOrder. An order that already has a valid
// document of the kind answers 409 unless suppressExistenceCheck=true.
func (s *Service) documentFromOrder(k DocKind) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		var data map[string]any
		if r.ContentLength != 0 {
			body, err := r.Body()
			if err != nil {
				return nil, err
			}
			data = Data(body)
		}
		skip, err := r.BoolQuery(rules.FlagExistence)
		if err != nil {
			return nil, err
		}
		opt, err := docOptions(k, data)
		if err != nil {
			return nil, err
		}
		out, err := s.modify(r, func(sh *Shop, o map[string]any) (any, error) {
			if c := str(o[k.OrderField]); c != "" && sh.Tx.Exists(sh.ID, k.Collection, c) && !skip && k != KindDeliveryNote {
				return nil, sandbox.Conflict(c, "Order %s already has %s %s; send %s=true to issue another.", str(o["code"]), k.Key, c, rules.FlagExistence)
			}
			if v := data["billingMethodId"]; v != nil {
				bm, err := sh.billingMethod(v, nil, "data.billingMethodId")
				if err != nil {
					return nil, err
				}
				opt.BillingMethod = bm
			}
			doc, err := sh.CreateDocument(k, o, opt)
			if err != nil {
				return nil, err
			}
			// The order only remembers the document's code (sandbox
			// metadata): no change of the order a client could see.
			if err := sh.W.Annotate(Collection, str(o["code"]), o); err != nil {
				return nil, err
			}
			return answer(k.Key, doc, sh.View())
		})
		if err != nil {
			return nil, err
		}
		return &api.Result{Status: 201, Data: out}, nil
	}
}

// docOptions reads the optional fields of a document-from-order body.
func docOptions(k DocKind, data map[string]any) (DocOptions, error) {
	var opt DocOptions
	switch k {
	case KindInvoice:
		opt.Code = strings.TrimSpace(str(data["invoiceCode"]))
		opt.ProformaCode = strings.TrimSpace(str(data["proformaInvoiceCode"]))
		if list, ok := data["proofPaymentCodes"].([]any); ok {
			for _, c := range list {
				opt.ProofCodes = append(opt.ProofCodes, str(c))
			}
		}
		opt.TaxDate = str(data["taxDate"])
	case KindProforma:
		opt.Code = strings.TrimSpace(str(data["proformaInvoiceCode"]))
	case KindDeliveryNote:
		opt.Code = strings.TrimSpace(str(data["code"]))
		opt.Date = str(data["date"])
	}
	if strings.ContainsAny(opt.Code, ":*?/") {
		return opt, sandbox.Invalid("data", "A document code must not contain ':', '*', '?' or '/'.")
	}
	opt.DueDate = str(data["dueDate"])
	opt.ConstSymbol = data["constSymbol"]
	if v := data["specSymbol"]; v != nil && v != "" {
		n, ok := intOf(v)
		if !ok {
			if d, err := rules.StatusID(v, "data.specSymbol"); err == nil {
				n, ok = int64(*d), true
			}
		}
		if !ok {
			return opt, sandbox.Invalid("data.specSymbol", "Field data.specSymbol must be a whole number.")
		}
		opt.SpecSymbol = n
	}
	if v := data["varSymbol"]; v != nil && v != "" {
		n, ok := intOf(v)
		if !ok {
			if d, err := rules.StatusID(v, "data.varSymbol"); err == nil {
				n, ok = int64(*d), true
			}
		}
		if !ok {
			return opt, sandbox.Invalid("data.varSymbol", "Field data.varSymbol must be a whole number.")
		}
		opt.VarSymbol = &n
	}
	return opt, nil
}

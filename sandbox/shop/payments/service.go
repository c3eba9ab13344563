package payments

import (
	"context"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders"
)

// Service is the payments behaviour bound to a store; it reuses the
// order rules for everything a payment does to an order.
type Service struct {
	Store  *store.Store
	Site   *eshop.Site
	IDs    *sandbox.IDs
	Orders *orders.Service
}

// New binds the payments behaviour.
func New(o *orders.Service) *Service {
	return &Service{Store: o.Store, Site: o.Site, IDs: o.IDs, Orders: o}
}

// Start checks every registered gateway address and turns the fixtures'
// pending online transactions into live payment codes (see Prime).
func (s *Service) Start(context.Context) error { return s.Prime() }

// Prime runs at start and after a reset: a gateway address that is not a
// valid template stops the sandbox with the add-on named; a seeded order
// that waits for an online payment and lists a pending transaction gets
// that transaction id as its payment code, so the flow can be tried on
// the fixtures at once.
func (s *Service) Prime() error {
	return s.Store.Update(func(tx *store.Tx) error {
		shops, err := eshop.List(tx)
		if err != nil {
			return err
		}
		for _, m := range shops {
			var bad error
			_ = auth.EachAddon(tx, m.ID, func(a *auth.Addon) bool {
				if tpl := a.PaymentGateway; tpl != "" {
					if err := CheckTemplate(tpl); err != nil {
						bad = fmt.Errorf("e-shop %d, add-on %s: %w", m.ID, a.Name, err)
						return false
					}
				}
				return true
			})
			if bad != nil {
				return bad
			}
			sh, err := orders.OpenShop(s.Orders.Engine.Writer(tx, m.ID), s.Site)
			if err != nil {
				return err
			}
			if err := primeCodes(sh); err != nil {
				return err
			}
		}
		return nil
	})
}

// SeededMark is what an order with a pending payment holds: a start
// looks through the seeded orders that contain it only (a fixture
// folder's packs note which those are, see seed.Loader.Marks).
const SeededMark = "pending"

func primeCodes(sh *orders.Shop) error {
	var codes []string
	pending := func(code string, doc []byte) bool {
		if gjson.GetBytes(doc, "_paymentCode").String() == "" && gjson.GetBytes(doc, `paymentTransactions.#(status=="pending")`).Exists() {
			codes = append(codes, code)
		}
		return true
	}
	if sh.Tx.HasBase(sh.ID, orders.Collection) {
		// Seeded orders as read (after a start or a reset nothing else is
		// there): only those that name a pending status at all are
		// parsed, which spares reading through every order of a large set.
		_ = sh.Tx.ScanSeededContaining(sh.ID, orders.Collection, SeededMark, func(code string, doc []byte) bool {
			if cur, err := sh.Tx.Get(sh.ID, orders.Collection, code); err == nil {
				return pending(code, cur)
			}
			return true
		})
	} else {
		_ = sh.Tx.Scan(sh.ID, orders.Collection, pending)
	}
	for _, code := range codes {
		o, err := orders.LoadOrder(sh.Tx, sh.ID, code)
		if err != nil {
			return err
		}
		if !sh.NeedsPayment(o) {
			continue
		}
		method := sh.OnlineMethod(o)
		txs, _ := o["paymentTransactions"].([]any)
		for _, t := range txs {
			tm, _ := t.(map[string]any)
			id, _ := tm["transactionId"].(string)
			if tm["status"] != orders.TxPending || id == "" || sh.Tx.Exists(sh.ID, orders.PaymentCodes, id) {
				continue
			}
			pc := &orders.PaymentCode{Code: id, OrderCode: code, Addon: fmt.Sprint(method["_addon"]), Status: orders.TxPending,
				Created: fmt.Sprint(tm["creationTime"]), Changed: fmt.Sprint(tm["changeTime"])}
			if method["_addon"] == nil {
				pc.Addon = ""
			}
			if err := sh.SavePaymentCode(pc); err != nil {
				return err
			}
			o["_paymentCode"] = id
		}
		// Only the order's payment code (sandbox metadata) changed: the
		// seeded order is as the client saw it.
		if err := sh.W.Annotate(orders.Collection, code, o); err != nil {
			return err
		}
	}
	return nil
}

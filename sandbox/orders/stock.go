package orders

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/orders/rules"
)

// StockLine is one variant's change of amount in one stock.
type StockLine struct {
	Code        string
	ProductGUID string
	Delta       decimal.Decimal // negative: goods leave the stock
}

// MoveStock applies lines to one stock (a record of the stocks
// collection whose "_supplies" hold the amounts per variant code):
// amounts change (a variant without a supply in that stock gets one),
// a movement row per line is written to stock-movements, the product's
// variant stock and per-stock amounts follow, and the events are
// emitted. Amounts may go below zero: the API does not refuse an order
// for lack of stock (the spec is silent; suppressStockMovements skips
// all of this).
func (s *Shop) MoveStock(stockID int64, orderCode string, lines []StockLine) error {
	if len(lines) == 0 {
		return nil
	}
	sid := strconv.FormatInt(stockID, 10)
	stock, err := Get(s.Tx, s.ID, StocksCollection, sid, "Stock")
	if err != nil {
		return sandbox.Invalid("data.stockId", "Stock %d does not exist in this e-shop.", stockID)
	}
	codes := map[string]bool{}
	for _, l := range lines {
		codes[l.Code] = true
	}
	before, err := s.stockSums(codes)
	if err != nil {
		return err
	}
	supplies, _ := stock["_supplies"].([]any)
	now := s.Time()
	for _, l := range lines {
		var sup map[string]any
		for _, v := range supplies {
			if m, ok := v.(map[string]any); ok && m["code"] == l.Code {
				sup = m
				break
			}
		}
		if sup == nil {
			sup = map[string]any{"amount": "0.000", "claim": "0.000", "code": l.Code, "location": nil, "productGuid": nullIfEmpty(l.ProductGUID)}
			supplies = append(supplies, sup)
		}
		amt, _ := decimal.NewFromString(str(sup["amount"]))
		amt = amt.Add(l.Delta)
		sup["amount"], sup["changeTime"] = rules.Amount3(amt), now
		id, err := s.Tx.Next(s.ID, MovementsCollection)
		if err != nil {
			return err
		}
		mv := map[string]any{"id": id, "productCode": l.Code, "productGuid": nullIfEmpty(l.ProductGUID), "historicalProductGuid": nil,
			"amountChange": rules.Amount3(l.Delta), "actualAmount": rules.Amount3(amt), "sumAmount": rules.Amount3(before[l.Code].Add(l.Delta)),
			"changeTime": now, "changedBy": "API", "orderCode": nullIfEmpty(orderCode), "_stockId": stockID}
		if err := Put(s.Tx, s.ID, MovementsCollection, strconv.FormatInt(id, 10), mv); err != nil {
			return err
		}
		if err := s.syncProduct(l, stockID, amt, sup); err != nil {
			return err
		}
	}
	stock["_supplies"] = supplies
	if err := Put(s.Tx, s.ID, StocksCollection, sid, stock); err != nil {
		return err
	}
	s.Emit(rules.EventStockMovement, sid)
	after, err := s.stockSums(codes)
	if err != nil {
		return err
	}
	sorted := make([]string, 0, len(codes))
	for c := range codes {
		sorted = append(sorted, c)
	}
	sort.Strings(sorted)
	for _, code := range sorted {
		for _, ev := range rules.StockEvents(before[code], after[code], s.minSupply(code)) {
			s.Emit(ev, code)
		}
	}
	return nil
}

// stockSums sums the amounts of the codes over every stock.
func (s *Shop) stockSums(codes map[string]bool) (map[string]decimal.Decimal, error) {
	out := map[string]decimal.Decimal{}
	var ferr error
	err := s.Tx.Scan(s.ID, StocksCollection, func(_ string, doc []byte) bool {
		var st struct {
			Supplies []struct {
				Code   string `json:"code"`
				Amount string `json:"amount"`
			} `json:"_supplies"`
		}
		if ferr = json.Unmarshal(doc, &st); ferr != nil {
			return false
		}
		for _, sp := range st.Supplies {
			if codes[sp.Code] {
				a, _ := decimal.NewFromString(sp.Amount)
				out[sp.Code] = out[sp.Code].Add(a)
			}
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// minSupply is a variant's minimum stock supply, nil when not set.
func (s *Shop) minSupply(code string) *decimal.Decimal {
	cat := s.catalog()
	p, ok := cat.ByCode(code)
	if !ok {
		return nil
	}
	v := p.Variant.Get("minStockSupply")
	if !v.Exists() || v.Type == 0 || v.String() == "" {
		return nil
	}
	d, err := decimal.NewFromString(v.String())
	if err != nil {
		return nil
	}
	return &d
}

// syncProduct keeps the product record's variant stock and per-stock
// amounts equal to the stocks' supplies.
func (s *Shop) syncProduct(l StockLine, stockID int64, amt decimal.Decimal, sup map[string]any) error {
	p, ok := s.catalog().ByCode(l.Code)
	if !ok {
		return nil
	}
	prod, err := Get(s.Tx, s.ID, ProductsCollection, p.GUID, "Product")
	if err != nil {
		return err
	}
	variants, _ := prod["variants"].([]any)
	for _, v := range variants {
		vm, ok := v.(map[string]any)
		if !ok || vm["code"] != l.Code {
			continue
		}
		per, _ := vm["perStockAmounts"].([]any)
		var found map[string]any
		for _, ps := range per {
			if m, ok := ps.(map[string]any); ok {
				if id, _ := intOf(m["stockId"]); id == stockID {
					found = m
				}
			}
		}
		if found == nil {
			found = map[string]any{"stockId": stockID, "claim": "0.000", "location": sup["location"]}
			per = append(per, found)
			vm["perStockAmounts"] = per
		}
		found["amount"], found["lastAmountUpdate"] = rules.Amount3(amt), s.Time()
		if vm["stock"] != nil {
			cur, _ := decimal.NewFromString(str(vm["stock"]))
			vm["stock"] = rules.Amount3(cur.Add(l.Delta))
		}
	}
	return Put(s.Tx, s.ID, ProductsCollection, p.GUID, prod)
}

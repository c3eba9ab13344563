package orders

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/shopspring/decimal"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
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
	doc, err := s.Tx.GetShared(s.ID, StocksCollection, sid)
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
	sups := newSupplies(s.supplyIndex(sid, doc))
	mins := map[string]*decimal.Decimal{} // the variants' minimum supplies
	now := s.Time()
	for _, l := range lines {
		sup, err := sups.of(l.Code, l.ProductGUID)
		if err != nil {
			return fmt.Errorf("stock %s: %w", sid, err)
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
		if err := s.W.Save(MovementsCollection, strconv.FormatInt(id, 10), mv, crud.Added); err != nil {
			return err
		}
		p, ok, err := s.Catalog().ByCode(l.Code)
		if err != nil {
			return err
		}
		if ok {
			mins[l.Code] = minSupply(p)
			if err := s.syncProduct(p, l, stockID, amt, sup); err != nil {
				return err
			}
		}
	}
	rec, edited, err := sups.record()
	if err != nil {
		return err
	}
	if err := s.W.Save(StocksCollection, sid, crud.Owned(rec), crud.Edited); err != nil {
		return err
	}
	s.reindexStock(sid, sups.index, rec, edited)
	s.Emit(rules.EventStockMovement, sid)
	// Only this stock changed, by the lines' deltas: the sums after the
	// movement need no second pass over every stock.
	after := make(map[string]decimal.Decimal, len(before))
	for c := range codes {
		after[c] = before[c]
	}
	for _, l := range lines {
		after[l.Code] = after[l.Code].Add(l.Delta)
	}
	sorted := make([]string, 0, len(codes))
	for c := range codes {
		sorted = append(sorted, c)
	}
	sort.Strings(sorted)
	for _, code := range sorted {
		for _, ev := range rules.StockEvents(before[code], after[code], mins[code]) {
			s.Emit(ev, code)
		}
	}
	return nil
}

// supplies are the supplies of one stock record ("_supplies": one per
// variant code) that a movement changes. A stock holds a supply for every
// variant and an order changes a few, so only those are decoded, and the
// record is written back with them spliced in (see splice.go).
type supplies struct {
	index   *supplyIndex // the record as read
	changed map[string]*supply
	added   []*supply // new supplies, in the order the lines named them
}

type supply struct {
	at gjson.Result // the stored supply; zero for a new one
	m  map[string]any
}

func newSupplies(index *supplyIndex) *supplies {
	return &supplies{index: index, changed: map[string]*supply{}}
}

// of is the supply of a variant code, to change in place: the first one
// stored for the code, or a new one at 0.
func (ss *supplies) of(code, productGUID string) (map[string]any, error) {
	if sup := ss.changed[code]; sup != nil {
		return sup.m, nil
	}
	var sup *supply
	if v, ok := ss.index.supply(code); ok {
		m, err := api.DecodeObject([]byte(v.Raw))
		if err != nil {
			return nil, err
		}
		sup = &supply{at: v, m: m}
	}
	if sup == nil {
		sup = &supply{m: map[string]any{"amount": "0.000", "claim": "0.000", "code": code, "location": nil, "productGuid": nullIfEmpty(productGUID)}}
		ss.added = append(ss.added, sup)
	}
	ss.changed[code] = sup
	return sup.m, nil
}

// record is the stock record with the changed and the new supplies, and
// the splices that made it.
func (ss *supplies) record() ([]byte, []splice, error) {
	ed := &edits{doc: ss.index.doc}
	for _, sup := range ss.changed {
		if sup.at.Exists() {
			if err := ed.replace(sup.at, sup.m); err != nil {
				return nil, nil, err
			}
		}
	}
	var fresh []any
	for _, sup := range ss.added {
		fresh = append(fresh, sup.m)
	}
	var err error
	switch {
	case len(fresh) > 0 && ss.index.stored.IsArray():
		err = ed.append(ss.index.stored, fresh)
	case len(fresh) > 0:
		err = ed.set(ed.root(), "_supplies", fresh)
	}
	return ed.result(), ed.list, err
}

// reindexStock indexes the stock record just written (rec, made from the
// record old indexes by the splices edited) without parsing it, when the
// store holds those very bytes.
func (s *Shop) reindexStock(stockID string, old *supplyIndex, rec []byte, edited []splice) {
	stored, ok := storedAs(s.Tx, s.ID, StocksCollection, stockID, rec)
	if !ok {
		return
	}
	if x, ok := old.rebased(stored, edited); ok {
		s.remember(stockID, x)
		s.stocks.put(s.ID, stockID, x)
	}
}

// stockSums sums the amounts of the codes over every stock.
func (s *Shop) stockSums(codes map[string]bool) (map[string]decimal.Decimal, error) {
	out := map[string]decimal.Decimal{}
	err := s.Tx.ScanShared(s.ID, StocksCollection, func(id string, doc []byte) bool {
		x := s.supplyIndex(id, doc)
		for c := range codes {
			for _, i := range x.byCode[c] {
				a, _ := decimal.NewFromString(x.all[i].Get("amount").String())
				out[c] = out[c].Add(a)
			}
		}
		return true
	})
	return out, err
}

// supplyIndex is a stock record's supplies, parsed once: an order reads a
// stock's supplies to sum amounts, to find the supply each line moves
// and the place its goods lie, each of which took a pass over the
// record. An index is never changed once built, so the Service keeps it
// across transactions (supplyCache) for as long as the record stays the
// same bytes.
type supplyIndex struct {
	doc    []byte           // the stock record parsed (a shared read: never changed)
	stored gjson.Result     // its _supplies
	all    []gjson.Result   // every supply, in order
	first  map[string]int   // code -> the first supply with it, in all
	byCode map[string][]int // code -> every supply with it, in all
}

// supplyCache keeps the stocks' supply indexes across transactions: every
// order reads every stock of its e-shop (the sums of rule 3's stock
// events), and parsing them again was a sixth of an order's time inside
// the write lock. An entry answers only for a record of the same bytes;
// the stock an order moves is indexed again from the edits it made (see
// supplyIndex.rebased), not parsed.
type supplyCache struct {
	mu sync.Mutex
	m  map[supplyKey]*supplyIndex
}

type supplyKey struct {
	eshop int
	stock string
}

func newSupplyCache() *supplyCache { return &supplyCache{m: map[supplyKey]*supplyIndex{}} }

// get is the cached index of a stock record whose bytes are doc.
func (c *supplyCache) get(eshop int, stockID string, doc []byte) *supplyIndex {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if x := c.m[supplyKey{eshop, stockID}]; x != nil && string(x.doc) == string(doc) {
		return x
	}
	return nil
}

func (c *supplyCache) put(eshop int, stockID string, x *supplyIndex) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.m[supplyKey{eshop, stockID}] = x
	c.mu.Unlock()
}

// supplyIndex returns the index of a stock record as read (doc): the one
// of the same bytes this transaction or an earlier one built, or a new
// one.
func (s *Shop) supplyIndex(stockID string, doc []byte) *supplyIndex {
	if x := s.supplies[stockID]; x != nil && len(x.doc) == len(doc) && unsafe.SliceData(x.doc) == unsafe.SliceData(doc) {
		return x
	}
	x := s.stocks.get(s.ID, stockID, doc)
	if x == nil {
		x = indexSupplies(doc)
		s.stocks.put(s.ID, stockID, x)
	}
	s.remember(stockID, x)
	return x
}

func (s *Shop) remember(stockID string, x *supplyIndex) {
	if s.supplies == nil {
		s.supplies = map[string]*supplyIndex{}
	}
	s.supplies[stockID] = x
}

// indexSupplies parses a stock record's supplies.
func indexSupplies(doc []byte) *supplyIndex {
	x := &supplyIndex{doc: doc, stored: sharedGet(doc, "_supplies"), first: map[string]int{}, byCode: map[string][]int{}}
	x.stored.ForEach(func(_, v gjson.Result) bool {
		if c := v.Get("code"); v.IsObject() && c.Type == gjson.String {
			if _, dup := x.first[c.Str]; !dup {
				x.first[c.Str] = len(x.all)
			}
			x.byCode[c.Str] = append(x.byCode[c.Str], len(x.all))
		}
		x.all = append(x.all, v)
		return true
	})
	return x
}

// rebased is the index of doc, the record x indexes with the splices
// list applied (as supplies.record makes it): each edit replaces one
// whole supply, whose code stays, so the supplies keep their order and
// codes and only move (rebasedResults). ok is false when the edits are of
// another kind (a supply added, a key set, a part of a supply); the
// record is then parsed when next read.
func (x *supplyIndex) rebased(doc []byte, list []splice) (*supplyIndex, bool) {
	if !x.stored.IsArray() {
		return nil, false
	}
	whole := make(map[int]int, len(x.all)) // a supply's start -> its length
	for _, v := range x.all {
		whole[v.Index] = len(v.Raw)
	}
	for _, e := range list {
		if n, ok := whole[e.at]; !ok || n != e.n {
			return nil, false
		}
	}
	stored, ok := rebasedResults(x.doc, doc, []gjson.Result{x.stored}, list)
	if !ok {
		return nil, false
	}
	all, ok := rebasedResults(x.doc, doc, x.all, list)
	if !ok {
		return nil, false
	}
	return &supplyIndex{doc: doc, stored: stored[0], all: all, first: x.first, byCode: x.byCode}, true
}

// supply is the first supply of a code, if the stock holds one.
func (x *supplyIndex) supply(code string) (gjson.Result, bool) {
	i, ok := x.first[code]
	if !ok {
		return gjson.Result{}, false
	}
	return x.all[i], true
}

// minSupply is a variant's minimum stock supply, nil when not set.
func minSupply(p *Product) *decimal.Decimal {
	v := p.Variant.Get("minStockSupply")
	if !v.Exists() || v.Type == gjson.Null || v.String() == "" {
		return nil
	}
	d, err := decimal.NewFromString(v.String())
	if err != nil {
		return nil
	}
	return &d
}

// syncProduct keeps the product record's variant stock and per-stock
// amounts equal to the stocks' supplies. The new values are spliced into
// the stored product (see splice.go): the variant's stock, and the
// amount and time of its entry for the stock (a new entry when it has
// none); the rest of the record is not decoded.
func (s *Shop) syncProduct(p *Product, l StockLine, stockID int64, amt decimal.Decimal, sup map[string]any) error {
	ed := &edits{doc: p.raw}
	variants := []gjson.Result{p.Variant}
	if !located(p.raw, p.Variant) {
		variants = p.Get("variants", "").Array()
	}
	for _, v := range variants {
		if c := v.Get("code"); c.Type != gjson.String || c.Str != l.Code {
			continue
		}
		if err := s.syncPerStock(ed, v, stockID, amt, sup); err != nil {
			return fmt.Errorf("product %s: %w", p.GUID, err)
		}
		if st := v.Get("stock"); st.Exists() && st.Type != gjson.Null {
			cur, _ := decimal.NewFromString(gjsonText(st))
			if err := ed.set(v, "stock", rules.Amount3(cur.Add(l.Delta))); err != nil {
				return err
			}
		}
	}
	// An edit entry in the products' log; stock:movement and the stock
	// level events announce it, not product:update.
	rec := ed.result()
	if err := s.W.Save(ProductsCollection, p.GUID, crud.Owned(rec), crud.Synced); err != nil {
		return err
	}
	s.Catalog().rewritten(p, rec, ed.list)
	return nil
}

// syncPerStock sets the amount of the variant v in one stock in its
// perStockAmounts: the last entry of the stock gets the amount and the
// time; without one, an entry is added (the list made when there is
// none).
func (s *Shop) syncPerStock(ed *edits, v gjson.Result, stockID int64, amt decimal.Decimal, sup map[string]any) error {
	now := s.Time()
	list := v.Get("perStockAmounts")
	var found gjson.Result
	if list.IsArray() {
		list.ForEach(func(_, e gjson.Result) bool {
			if id := e.Get("stockId"); e.IsObject() && id.Type == gjson.Number && id.Raw == strconv.FormatInt(stockID, 10) {
				found = e
			}
			return true
		})
	}
	if found.Exists() {
		if err := ed.set(found, "amount", rules.Amount3(amt)); err != nil {
			return err
		}
		return ed.set(found, "lastAmountUpdate", now)
	}
	entry := map[string]any{"stockId": stockID, "claim": "0.000", "location": sup["location"], "amount": rules.Amount3(amt), "lastAmountUpdate": now}
	if list.IsArray() {
		return ed.append(list, []any{entry})
	}
	return ed.set(v, "perStockAmounts", []any{entry})
}

// gjsonText is a stored value as str reads its decoded form: a string's
// text, a number as written, "" for anything else.
func gjsonText(r gjson.Result) string {
	switch r.Type {
	case gjson.String:
		return r.Str
	case gjson.Number:
		return r.Raw
	}
	return ""
}

// decodeList parses a JSON array with numbers kept exact.
func decodeList(raw string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var out []any
	err := dec.Decode(&out)
	return out, err
}

package jobs

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/core/shape"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// snapshotCollections names the store collection behind each snapshot
// whose sibling list endpoint has no registry row yet. A collection that
// does not exist gives an empty result file.
var snapshotCollections = map[string]string{
	"GetListOfAllAbandonedCarts":    "abandoned-carts",
	"GetListAllArticles":            "articles",
	"GetListOfAllCreditNotes":       "credit-notes",
	"GetListOfAllCustomers":         "customers",
	"GetListOfAllDeliveryNotes":     "delivery-notes",
	"GetListOfAllDiscountCoupons":   "discount-coupons",
	"GetListOfAllInvoices":          "invoices",
	"GetListOfAllRemarks":           "order-history",
	"GetListOfAllOrders":            "orders",
	"GetListOfAllProducts":          "products",
	"GetListOfAllProformaInvoices":  "proforma-invoices",
	"GetListOfAllProofPayments":     "proof-payments",
	"GetListOfAllQuantityDiscounts": "quantity-discounts",
}

// Price-list snapshots read the per-product prices kept in a price list
// record's "_prices" (the registry row pricelists/prices).
const (
	pricelistSnapshot    = "GetListOfAllPricelistDetails"
	allPricelistSnapshot = "GetListOfAllProductsAndPricelistPrices"
	pricelistCollection  = "pricelists"
)

// source finds the store collection of a snapshot and its registry row
// and list op: the list endpoint at the snapshot path without
// "/snapshot" (GET /api/products for GET /api/products/snapshot), else
// the static table.
func (s *Service) source(op string) (coll string, row *registry.Resource, list *registry.Op) {
	if e, ok := s.Catalogue.Endpoint(op); ok {
		listPath := strings.TrimSuffix(e.Path, "/snapshot")
		if listOp, ok := s.Catalogue.Resolve("GET " + listPath); ok {
			if r, o, ok := s.Registry.Op(listOp); ok && o.Kind == registry.List && r.Parent == nil {
				return r.Name, r, o
			}
		}
	}
	coll = snapshotCollections[op]
	if r, ok := s.Registry.Resource(coll); ok {
		return coll, r, r.Op(registry.List)
	}
	return coll, nil, nil
}

// checkSnapshot validates the filters, include and path ids up front, so
// a bad request answers 400/404 instead of queuing a job bound to fail.
func (s *Service) checkSnapshot(r *api.Request, tx *store.Tx, _ map[string]any) error {
	switch r.Route.Operation {
	case pricelistSnapshot:
		if !tx.Exists(r.Eshop, pricelistCollection, r.Var("id")) {
			return sandbox.NotFound(r.Var("id"), "Price list %q does not exist in this e-shop.", r.Var("id"))
		}
		return nil
	case allPricelistSnapshot:
		return nil
	}
	_, row, list := s.source(r.Route.Operation)
	if list != nil {
		if _, err := registry.Compile(list.Filters, r.Query); err != nil {
			return err
		}
	}
	if row != nil {
		if _, err := r.Includes(row.SectionNames()); err != nil {
			return err
		}
	}
	return nil
}

// snapshot builds the result file: one line per record, in the shape of
// the endpoint's snapshotResultItem: only its properties, and every one
// of them, recursively (an order item's brand, a variant's feed fields),
// null or empty when the record has nothing, as in the detail answers.
func (s *Service) snapshot(_ context.Context, j *Job) (Result, error) {
	item, fields, err := snapshotItem(j.Operation)
	if err != nil {
		return Result{}, err
	}
	var lines []map[string]any
	err = s.Store.View(func(tx *store.Tx) error {
		meta, err := eshop.Get(tx, j.EshopID)
		if err != nil {
			return err
		}
		lang, _ := meta.Language(j.Language)
		view := api.View{Language: lang, BaseURL: s.Site.BaseURL, EshopURL: s.Site.EshopURL(j.EshopID)}
		switch j.Operation {
		case pricelistSnapshot, allPricelistSnapshot:
			lines, err = s.priceLines(tx, j, view)
		default:
			lines, err = s.recordLines(tx, j, view)
		}
		if err != nil {
			return err
		}
		gen := &shape.Gen{Now: tx.Clock().Now(), UUID: s.IDs.UUID, Currency: meta.DefaultCurrency}
		node := shape.Def(item)
		for i, m := range lines {
			if c, ok := gen.Conform(m, node).(map[string]any); ok {
				lines[i] = c
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	file, err := gzipLines(lines, fields)
	if err != nil {
		return Result{}, err
	}
	return Result{File: file, Log: fmt.Sprintf("Snapshot of %d records.", len(lines))}, nil
}

func (s *Service) recordLines(tx *store.Tx, j *Job, view api.View) ([]map[string]any, error) {
	coll, row, list := s.source(j.Operation)
	q := j.query()
	var match registry.Matcher
	var hide []string
	if list != nil {
		var err error
		if match, err = registry.Compile(list.Filters, q.Get); err != nil {
			return nil, err
		}
	}
	if row != nil {
		include := map[string]bool{}
		for _, part := range strings.Split(q.Get("include"), ",") {
			for _, sec := range row.SectionNames() {
				if strings.EqualFold(strings.TrimSpace(part), sec) {
					include[sec] = true
				}
			}
		}
		hide = row.HidePaths(include)
	}
	var lines []map[string]any
	var ferr error
	err := tx.Scan(j.EshopID, coll, func(_ string, doc []byte) bool {
		if match != nil && !match(doc) {
			return true
		}
		m, err := api.Render(doc, view)
		if err != nil {
			ferr = err
			return false
		}
		crud.HidePaths(m, hide)
		lines = append(lines, m)
		return true
	})
	if err == nil {
		err = ferr
	}
	return lines, err
}

// priceLines lists a price list's prices (or every list's, with the
// product guid, for the products-and-prices snapshot).
func (s *Service) priceLines(tx *store.Tx, j *Job, view api.View) ([]map[string]any, error) {
	var lines []map[string]any
	var ferr error
	// A product's numeric id is its position in the store (the sandbox
	// keeps no other; it is stable for the product's life).
	productIDs := map[string]any{}
	_ = tx.Scan(j.EshopID, "products", func(id string, doc []byte) bool {
		productIDs[id] = gjson.GetBytes(doc, "_seq").Int()
		return true
	})
	err := tx.Scan(j.EshopID, pricelistCollection, func(id string, doc []byte) bool {
		if j.Operation == pricelistSnapshot && id != j.Vars["id"] {
			return true
		}
		rec, err := api.DecodeObject(api.Placeholders(doc, view.BaseURL, view.EshopURL))
		if err != nil {
			ferr = err
			return false
		}
		prices, _ := rec["_prices"].([]any)
		for _, p := range prices {
			m, ok := p.(map[string]any)
			if !ok {
				continue
			}
			guid, _ := m["_productGuid"].(string)
			api.StripMeta(m)
			if j.Operation == allPricelistSnapshot {
				pid, ok := productIDs[guid]
				if !ok {
					continue // the price of a product deleted since
				}
				m["productGuid"], m["productId"] = guid, pid
			}
			lines = append(lines, m)
		}
		return true
	})
	if err == nil {
		err = ferr
	}
	return lines, err
}

// gzipLines writes the lines as gzip JSON Lines, each projected onto the
// given fields (absent fields are null).
func gzipLines(lines []map[string]any, fields []string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false)
	for _, m := range lines {
		out := make(map[string]any, len(fields))
		for _, f := range fields {
			out[f] = m[f]
		}
		if err := enc.Encode(out); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var (
	defsOnce sync.Once
	defs     map[string]struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	defsErr error
)

// snapshotItem names the $defs entry of an endpoint's snapshotResultItem
// and lists its property names.
func snapshotItem(op string) (string, []string, error) {
	defsOnce.Do(func() {
		raw, err := fs.ReadFile(schemas.FS, "defs.json")
		if err != nil {
			defsErr = err
			return
		}
		var doc struct {
			Defs map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"$defs"`
		}
		defsErr = json.Unmarshal(raw, &doc)
		defs = doc.Defs
	})
	if defsErr != nil {
		return "", nil, defsErr
	}
	raw, err := fs.ReadFile(schemas.FS, "endpoints/"+op+".snapshot-item.json")
	if err != nil {
		return "", nil, fmt.Errorf("no snapshot item schema for %s: %w", op, err)
	}
	var item struct {
		Ref string `json:"$ref"`
	}
	if err := json.Unmarshal(raw, &item); err != nil {
		return "", nil, err
	}
	name := item.Ref[strings.LastIndex(item.Ref, "/")+1:]
	d, ok := defs[name]
	if !ok {
		return "", nil, fmt.Errorf("snapshot item %s of %s is not in defs.json", name, op)
	}
	out := make([]string, 0, len(d.Properties))
	for k := range d.Properties {
		out = append(out, k)
	}
	sort.Strings(out)
	return name, out, nil
}

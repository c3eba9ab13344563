package jobs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/api"
	"github.com/eshop-sandbox/sandbox/sandbox/orders"
	"github.com/eshop-sandbox/sandbox/sandbox/products"
	"github.com/eshop-sandbox/sandbox/sandbox/store"
	"github.com/eshop-sandbox/sandbox/sandbox/webhooks"
)

// Batch modes.
const (
	modeMerge       = "merge"        // PATCH-merge each row into the record it names
	modeCreate      = "create"       // create a record per row
	modeDelete      = "delete"       // delete the record each row names
	modePriority    = "priority"     // a product's priority within a category
	modePrices      = "prices"       // a price list's per-product prices, by code
	modeImageDelete = "image-delete" // remove an image from a product
	modeOrderCreate = "order-create" // create an order per row, with every rule of POST /api/orders
)

// batchSpec says how a batch endpoint applies its file's rows. The file
// at batchFileUrlPath is JSON Lines (gzip or plain): one object per line,
// shaped like the data of the matching single-entity request plus the
// identifier field.
type batchSpec struct {
	Resource string         // store collection / registry row
	IDField  string         // the row field naming the record
	Mode     string         // how a row applies
	Single   string         // single-entity request operation the rows are validated against
	Each     string         // event per changed entity
	Mass     string         // mass event with the list of identifiers ("" = none)
	Defaults map[string]any // fields a created record gets when the row lacks them
}

var batches = map[string]batchSpec{
	"ProductBatchUpdate": {Resource: "products", IDField: "guid", Mode: modeMerge, Single: "UpdateProduct",
		Each: "product:update", Mass: "product:massUpdate"},
	"ProductBatchDelete": {Resource: "products", IDField: "guid", Mode: modeDelete,
		Each: "product:delete", Mass: "product:massDelete"},
	"UpdateProductCategoryBatch": {Resource: "categories", IDField: "guid", Mode: modeMerge, Single: "UpdateProductCategory",
		Each: "category:update", Mass: "category:massUpdate"},
	"CreateBrandBatch": {Resource: "brands", Mode: modeCreate, Single: "CreateBrand", Each: "brand:create",
		Defaults: map[string]any{"showInBrandList": true, "showInCategoriesMenu": false, "description": nil}},
	"UpdateCategoryProductsPriorityBatch": {Resource: "categories", IDField: "categoryGuid", Mode: modePriority,
		Each: "category:update", Mass: "category:massUpdate"},
	"UpdatePricelistBatch":    {Resource: pricelistCollection, IDField: "code", Mode: modePrices},
	"ProductImageBatchDelete": {Resource: "products", IDField: "productGuid", Mode: modeImageDelete, Each: "product:update", Mass: "product:massUpdate"},
	// Each created order emits its own order:create (and documents, stock
	// and e-mail follow) exactly as POST /api/orders does.
	"OrderBatchInsertion": {Resource: "orders", Mode: modeOrderCreate, Single: "CreateOrder", Mass: "order:massCreate"},
}

// MaxBatchRows caps the lines of one batch file.
const MaxBatchRows = 100000

func (s *Service) checkBatch(r *api.Request, tx *store.Tx, body map[string]any) error {
	if trimmed(body, "batchFileUrlPath") == "" {
		return sandbox.Invalid("batchFileUrlPath", "Field batchFileUrlPath: the URL of the batch file (JSON Lines, gzip or plain) is required.")
	}
	if r.Route.Operation == "UpdatePricelistBatch" && !tx.Exists(r.Eshop, pricelistCollection, r.Var("id")) {
		return sandbox.NotFound(r.Var("id"), "Price list %q does not exist in this e-shop.", r.Var("id"))
	}
	return nil
}

// rowError is a skipped row.
type rowError struct {
	line int
	msg  string
}

// batch downloads the batch file and applies its rows in one write; the
// mass event and one event per changed entity follow the commit.
func (s *Service) batch(ctx context.Context, j *Job) (Result, error) {
	spec := batches[j.Operation]
	body := j.body()
	raw, err := s.Fetcher.Fetch(ctx, trimmed(body, "batchFileUrlPath"))
	if err != nil {
		return Result{}, fmt.Errorf("The batch file could not be read: %v.", err)
	}
	rows, skipped, err := parseLines(raw)
	if err != nil {
		return Result{}, err
	}
	skipped = append(skipped, s.validateRows(spec, rows)...)
	var changed []string
	err = s.Store.Update(func(tx *store.Tx) error {
		changed = nil
		b := &batchTx{s: s, tx: tx, j: j, spec: spec}
		for i, row := range rows {
			if row == nil {
				continue
			}
			id, err := b.apply(row)
			if err != nil {
				skipped = append(skipped, rowError{line: i + 1, msg: sandbox.AsError(err).Message})
				continue
			}
			if id != "" && !contains(changed, id) {
				changed = append(changed, id)
			}
		}
		if len(changed) > 0 {
			if spec.Mass != "" {
				tx.Emit(sandbox.Event{EshopID: j.EshopID, Kind: spec.Mass, Instance: webhooks.EncodeList(changed)})
			}
			if spec.Each != "" {
				for _, id := range changed {
					tx.Emit(sandbox.Event{EshopID: j.EshopID, Kind: spec.Each, Instance: id})
				}
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	log := batchLog(len(rows), len(changed), skipped)
	if len(changed) == 0 && len(skipped) > 0 {
		return Result{}, errors.New(log)
	}
	return Result{Log: log}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func batchLog(total, changed int, skipped []rowError) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows read, %d records changed, %d rows skipped.", total, changed, len(skipped))
	for i, e := range skipped {
		if i == 20 {
			fmt.Fprintf(&b, " ... and %d more.", len(skipped)-20)
			break
		}
		fmt.Fprintf(&b, " Line %d: %s", e.line, e.msg)
	}
	return b.String()
}

// parseLines reads JSON Lines, gunzipping first when the file is gzip.
// A line that is not a JSON object is skipped and reported (its slot in
// rows stays nil).
func parseLines(raw []byte) (rows []map[string]any, skipped []rowError, err error) {
	if len(raw) >= 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, nil, fmt.Errorf("The batch file is not valid gzip: %v.", err)
		}
		if raw, err = io.ReadAll(io.LimitReader(zr, 256<<20)); err != nil {
			return nil, nil, fmt.Errorf("The batch file is not valid gzip: %v.", err)
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if len(rows) >= MaxBatchRows {
			return nil, nil, fmt.Errorf("The batch file has more than %d rows.", MaxBatchRows)
		}
		for len(rows) < line-1 {
			rows = append(rows, nil) // keep rows[i] on line i+1
		}
		m, err := api.DecodeObject(text)
		if err != nil {
			skipped = append(skipped, rowError{line: line, msg: "not a JSON object."})
			rows = append(rows, nil)
			continue
		}
		rows = append(rows, m)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("The batch file could not be read: %v.", err)
	}
	if line == 0 || len(rows) == 0 {
		return nil, nil, errors.New("The batch file is empty: one JSON object per line is expected.")
	}
	return rows, skipped, nil
}

// validateRows checks each row against the single-entity request schema
// (as {"data": row}); a mismatching row is skipped.
func (s *Service) validateRows(spec batchSpec, rows []map[string]any) []rowError {
	if spec.Single == "" || s.Schemas == nil {
		return nil
	}
	sch := s.Schemas.Request(spec.Single)
	if sch == nil {
		return nil
	}
	var out []rowError
	for i, row := range rows {
		if row == nil {
			continue
		}
		if err := sch.Validate(map[string]any{"data": row}); err != nil {
			out = append(out, rowError{line: i + 1, msg: sandbox.AsError(api.SchemaError(err)).Message})
			rows[i] = nil
		}
	}
	return out
}

// batchTx applies rows inside one store transaction.
type batchTx struct {
	s    *Service
	tx   *store.Tx
	j    *Job
	spec batchSpec
}

func (b *batchTx) apply(row map[string]any) (string, error) {
	switch b.spec.Mode {
	case modeMerge:
		return b.merge(row)
	case modeDelete:
		return b.remove(row)
	case modeCreate:
		return b.create(row)
	case modePriority:
		return b.priority(row)
	case modePrices:
		return b.prices(row)
	case modeImageDelete:
		return b.imageDelete(row)
	case modeOrderCreate:
		return b.createOrder(row)
	}
	return "", fmt.Errorf("unknown batch mode %s", b.spec.Mode)
}

func (b *batchTx) id(row map[string]any) (string, error) {
	id := trimmed(row, b.spec.IDField)
	if id == "" {
		return "", sandbox.Invalid(b.spec.IDField, "field %s (the record's identifier) is missing.", b.spec.IDField)
	}
	return id, nil
}

func (b *batchTx) load(coll, id string) (map[string]any, error) {
	raw, err := b.tx.Get(b.j.EshopID, coll, id)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.NotFound(id, "%s %q does not exist.", strings.TrimSuffix(coll, "s"), id)
	}
	if err != nil {
		return nil, err
	}
	return api.DecodeObject(raw)
}

func (b *batchTx) put(coll, id string, rec map[string]any) error {
	if _, ok := rec["changeTime"]; ok {
		rec["changeTime"] = sandbox.FormatTime(b.tx.Now())
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	_, err = b.tx.Put(b.j.EshopID, coll, id, raw)
	return err
}

func (b *batchTx) merge(row map[string]any) (string, error) {
	id, err := b.id(row)
	if err != nil {
		return "", err
	}
	rec, err := b.load(b.spec.Resource, id)
	if err != nil {
		return "", err
	}
	for k, v := range row {
		if k != b.spec.IDField && !strings.HasPrefix(k, "_") {
			rec[k] = v
		}
	}
	return id, b.put(b.spec.Resource, id, rec)
}

func (b *batchTx) remove(row map[string]any) (string, error) {
	id, err := b.id(row)
	if err != nil {
		return "", err
	}
	if err := b.tx.Delete(b.j.EshopID, b.spec.Resource, id); errors.Is(err, sandbox.ErrNotFound) {
		return "", sandbox.NotFound(id, "%q does not exist.", id)
	} else if err != nil {
		return "", err
	}
	return id, nil
}

// create stores a new record: its identifier field (from the registry
// row) is generated when the row lacks it: a GUID for guid fields, else
// a unique slug of the name; guid and indexName are filled the same way.
func (b *batchTx) create(row map[string]any) (string, error) {
	idField := "guid"
	if r, ok := b.s.Registry.Resource(b.spec.Resource); ok {
		idField = r.IDField
	}
	rec := map[string]any{}
	for k, v := range b.spec.Defaults {
		rec[k] = v
	}
	for k, v := range row {
		if !strings.HasPrefix(k, "_") {
			rec[k] = v
		}
	}
	name := trimmed(rec, "name")
	if name == "" {
		return "", sandbox.Invalid("name", "field name is required.")
	}
	if trimmed(rec, "guid") == "" {
		rec["guid"] = b.s.IDs.UUID()
	}
	if _, ok := rec["indexName"]; !ok {
		rec["indexName"] = b.uniqueSlug(name)
	}
	id := trimmed(rec, idField)
	if id == "" {
		id = b.uniqueSlug(name)
		rec[idField] = id
	}
	if b.tx.Exists(b.j.EshopID, b.spec.Resource, id) {
		return "", sandbox.Conflict(id, "%s %q already exists.", idField, id)
	}
	return id, b.put(b.spec.Resource, id, rec)
}

func (b *batchTx) uniqueSlug(name string) string {
	base := products.Slug(name)
	if base == "" {
		base = "item"
	}
	slug := base
	for n := 2; b.tx.Exists(b.j.EshopID, b.spec.Resource, slug); n++ {
		slug = fmt.Sprintf("%s-%d", base, n)
	}
	return slug
}

// priority records a product's priority in a category. The category
// keeps the priorities in its metadata field "_productPriorities"
// (product guid -> priority).
func (b *batchTx) priority(row map[string]any) (string, error) {
	id, err := b.id(row)
	if err != nil {
		return "", err
	}
	rec, err := b.load(b.spec.Resource, id)
	if err != nil {
		return "", err
	}
	product := trimmed(row, "productGuid")
	if code := trimmed(row, "productCode"); product == "" && code != "" {
		product = b.productByCode(code)
		if product == "" {
			return "", sandbox.NotFound(code, "no product has the code %q.", code)
		}
	}
	if product == "" {
		return "", sandbox.Invalid("productGuid", "give productGuid or productCode.")
	}
	if !b.tx.Exists(b.j.EshopID, "products", product) {
		return "", sandbox.NotFound(product, "product %q does not exist.", product)
	}
	prio, _ := rec["_productPriorities"].(map[string]any)
	if prio == nil {
		prio = map[string]any{}
	}
	prio[product] = row["priority"]
	rec["_productPriorities"] = prio
	return id, b.put(b.spec.Resource, id, rec)
}

func (b *batchTx) productByCode(code string) string {
	guid := ""
	_ = b.tx.Scan(b.j.EshopID, "products", func(id string, doc []byte) bool {
		m, err := api.DecodeObject(doc)
		if err != nil {
			return true
		}
		vs, _ := m["variants"].([]any)
		for _, v := range vs {
			if vm, ok := v.(map[string]any); ok && vm["code"] == code {
				guid = id
				return false
			}
		}
		return true
	})
	return guid
}

// priceFields are the fields a price row may change (as PATCH
// /api/pricelists/{id}).
var priceFields = []string{"price", "vatRate", "currencyCode", "includingVat", "orderableAmount", "sales", "prices"}

// prices merges a row into the price list's price of the product code.
func (b *batchTx) prices(row map[string]any) (string, error) {
	code, err := b.id(row)
	if err != nil {
		return "", err
	}
	listID := b.j.Vars["id"]
	rec, err := b.load(pricelistCollection, listID)
	if err != nil {
		return "", err
	}
	prices, _ := rec["_prices"].([]any)
	for _, p := range prices {
		m, ok := p.(map[string]any)
		if !ok || m["code"] != code {
			continue
		}
		for _, f := range priceFields {
			if v, ok := row[f]; ok {
				m[f] = v
			}
		}
		for _, f := range []string{"priceWithVat", "priceWithoutVat"} {
			if v, ok := row[f]; ok {
				price, _ := m["price"].(map[string]any)
				if price == nil {
					price = map[string]any{}
					m["price"] = price
				}
				price[f] = v
			}
		}
		return code, b.put(pricelistCollection, listID, rec)
	}
	return "", sandbox.NotFound(code, "product code %q is not in price list %s.", code, listID)
}

// imageDelete removes the named image (name or imageName) of a product.
func (b *batchTx) imageDelete(row map[string]any) (string, error) {
	id := trimmed(row, "productGuid")
	if id == "" {
		id = trimmed(row, "guid")
	}
	if id == "" {
		return "", sandbox.Invalid("productGuid", "field productGuid is missing.")
	}
	name := trimmed(row, "imageName")
	if name == "" {
		name = trimmed(row, "name")
	}
	if name == "" {
		return "", sandbox.Invalid("imageName", "field imageName is missing.")
	}
	rec, err := b.load("products", id)
	if err != nil {
		return "", err
	}
	images, _ := rec["images"].([]any)
	kept := make([]any, 0, len(images))
	for _, img := range images {
		if m, ok := img.(map[string]any); ok && m["name"] == name {
			continue
		}
		kept = append(kept, img)
	}
	if len(kept) == len(images) {
		return "", sandbox.NotFound(name, "product %s has no image %q.", id, name)
	}
	rec["images"] = kept
	return id, b.put("products", id, rec)
}

// createOrder creates one order of an order batch.
func (b *batchTx) createOrder(row map[string]any) (string, error) {
	sh, err := orders.OpenShop(b.tx, b.j.EshopID, b.s.Site)
	if err != nil {
		return "", err
	}
	o, err := sh.CreateOrder(row, orders.Flags{}, b.s.IDs)
	if err != nil {
		return "", err
	}
	code, _ := o["code"].(string)
	return code, nil
}

package jobs_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/jobs"
	"github.com/eshop-sandbox/sandbox/sandbox/testing/evtest"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func jsonl(rows ...map[string]any) string {
	var lines []string
	for _, r := range rows {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	return "data:application/x-ndjson;base64," + base64.StdEncoding.EncodeToString([]byte(strings.Join(lines, "\n")))
}

var png = "data:image/png;base64," + base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))

// TestEveryAsyncEndpoint runs one job of each asynchronous endpoint of
// the catalogue to completion: snapshots give a file whose every line
// matches the snapshotResultItem, the others apply their work.
func TestEveryAsyncEndpoint(t *testing.T) {
	var products, categories, brands, lists, coupons []map[string]any
	evtest.Read(t, "eshops/1001/products.json", &products)
	evtest.Read(t, "eshops/1001/discount-coupons.json", &coupons)
	evtest.Read(t, "eshops/1001/categories.json", &categories)
	evtest.Read(t, "eshops/1001/brands.json", &brands)
	evtest.Read(t, "eshops/1001/pricelists.json", &lists)
	p0 := products[0]["guid"].(string)
	img0 := products[0]["images"].([]any)[0].(map[string]any)["name"].(string)
	p1 := products[1]["guid"].(string)
	img1 := products[1]["images"].([]any)[0].(map[string]any)["name"].(string)
	code0 := products[0]["variants"].([]any)[0].(map[string]any)["code"].(string)
	cat0 := products[0]["defaultCategory"].(map[string]any)["guid"]
	list0 := jsonText(lists[0]["id"])
	type req struct {
		method, path string
		body         any
		log          string // a word the job's log must hold ("" = none checked)
	}
	cases := map[string]req{
		"CreateBrandBatch":           {"POST", "/api/brands/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"name": "Batch Brand One"}, map[string]any{"name": "Batch Brand Two"})}, "2 records changed"},
		"UpdateProductCategoryBatch": {"PATCH", "/api/categories/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"guid": categories[0]["guid"], "menuTitle": "Batch"})}, "1 records changed"},
		// A line goes through the PATCH's own rule: the product must be one of the category's.
		"UpdateCategoryProductsPriorityBatch":    {"PATCH", "/api/categories/products-priority/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"categoryGuid": cat0, "productGuid": p0, "priority": 3})}, "1 records changed"},
		"UpdatePricelistBatch":                   {"PATCH", "/api/pricelists/" + list0 + "/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"code": code0, "vatRate": "12.00"})}, "1 records changed"},
		"ProductBatchUpdate":                     {"PATCH", "/api/products/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"guid": p0, "shortDescription": "Batch"})}, "1 records changed"},
		"ProductBatchDelete":                     {"DELETE", "/api/products/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"guid": products[len(products)-1]["guid"]})}, "1 records changed"},
		"ProductImageBatchDelete":                {"DELETE", "/api/products/images/batch", map[string]any{"batchFileUrlPath": jsonl(map[string]any{"productGuid": p1, "imageName": img1})}, "1 records changed"},
		"UploadFiles":                            {"POST", "/api/system/files", map[string]any{"data": []map[string]any{{"name": "a.png", "sourceUrl": png}}}, "a.png"},
		"CreateProductImages":                    {"POST", "/api/products/" + p0 + "/images/shop", map[string]any{"data": map[string]any{"images": []map[string]any{{"sourceUrl": png, "description": "new"}}}}, "1 of 1 images"},
		"UpdateProductImagesSource":              {"PATCH", "/api/products/" + p0 + "/images/shop/source", map[string]any{"data": map[string]any{"images": []map[string]any{{"name": img0, "sourceUrl": png}}}}, img0},
		"GeneralDocumentDownload":                {"GET", "/api/export/orders/csv", nil, "Exported"},
		"GetListOfAllPricelistDetails":           {"GET", "/api/pricelists/" + list0 + "/snapshot", nil, ""},
		"GetListOfAllProductsAndPricelistPrices": {"GET", "/api/products/snapshot/pricelists", nil, ""},
		// template and shippingPrice are required (reference).
		"GetListOfAllDiscountCoupons": {"GET", "/api/discount-coupons/snapshot?template=" + coupons[0]["template"].(string) + "&shippingPrice=0.00", nil, "Snapshot of"},
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	e := evtest.Start(t, sandbox.Config{})
	e.Register("job:finished")
	n := 0
	for _, ep := range cat.Endpoints {
		if !ep.Async {
			continue
		}
		n++
		c, ok := cases[ep.Operation]
		if !ok {
			if !ep.Snapshot || len(ep.PathParams) > 0 {
				t.Errorf("%s: no case in the table", ep.Operation)
				continue
			}
			c = req{"GET", ep.Path, nil, "Snapshot of"}
		}
		t.Run(ep.Operation, func(t *testing.T) {
			id := submit(t, e, c.method, c.path, c.body)
			e.Advance("5s")
			j := job(t, e, id)
			if j.Status != jobs.Completed || j.Endpoint != ep.Path {
				t.Fatalf("%+v log %q", j, deref(j.Log))
			}
			if c.log != "" && !strings.Contains(deref(j.Log), c.log) {
				t.Errorf("log %q lacks %q", deref(j.Log), c.log)
			}
			if (j.ResultURL != nil) != (ep.Snapshot || ep.Operation == "GeneralDocumentDownload") {
				t.Errorf("resultUrl %v", j.ResultURL)
			}
			if ep.Snapshot {
				lines := fetchLines(t, e, *j.ResultURL, ep.Operation)
				t.Logf("%d lines", len(lines))
			}
			e.R.WaitFor("job:finished", id)
		})
	}
	if n != 26 {
		t.Fatalf("the catalogue has %d asynchronous endpoints, the reference 26", n)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

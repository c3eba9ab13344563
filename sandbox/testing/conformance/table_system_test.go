package conformance

import "strconv"

// systemTable: the endpoint list, webhooks, jobs, files and templates
// (served by sandbox/shop/system, webhooks, jobs, files, templates).
func systemTable(f *fx, hook string) []*entry {
	register := func(event string) map[string]any {
		return map[string]any{"data": []any{map[string]any{"event": event, "url": hook + "/" + event + "/" + strconv.Itoa(len(event)*7919)}}}
	}
	n := 0
	registerOnce := func(event string) map[string]any {
		n++
		return map[string]any{"data": []any{map[string]any{"event": event, "url": hook + "/" + event + "/" + strconv.Itoa(n)}}}
	}
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	return []*entry{
		e("GetListOfAvailableEndpoints").want("data.endpoints.#>0"),

		e("GetOverviewOfRegisteredWebhooks").first("POST", "/api/webhooks", register("product:create")).want("data.webhooks.#>0"),
		e("RegisterNewWebhook").data(`[{"event":"brand:create","url":"`+hook+`/brand"}]`).
			then("/api/webhooks", `data.webhooks.#(event=="brand:create").url=`+hook+`/brand`),
		e("GetDetailOfRegisteredWebhooks").first("POST", "/api/webhooks", register("brand:update"), "id=data.webhooks.0.id").
			want("data.webhook.id={id}"),
		e("UpdateExistingWebhook").first("POST", "/api/webhooks", register("brand:delete"), "id=data.webhooks.0.id").
			data(`{"url":"`+hook+`/changed"}`).then("/api/webhooks/{id}", "data.webhook.url="+hook+"/changed"),
		e("DeleteRegisteredWebhook").first("POST", "/api/webhooks", register("category:create"), "id=data.webhooks.0.id").gone("/api/webhooks/{id}"),
		e("GetWebhookNotification").want("data.notifications"),
		e("GenerateWebhookSignatureKey").want("data.signatureKey").then("/api/webhooks"),

		e("GetListOfJobs").first("POST", "/api/webhooks", registerOnce("job:finished")).
			first("GET", "/api/products/snapshot", nil).want("data.jobs.#>0"),
		e("GetJobDetail").first("POST", "/api/webhooks", registerOnce("job:finished")).
			first("GET", "/api/customers/snapshot", nil, "jobId=data.jobId").want("data.job.jobId={jobId}"),

		e("UploadFile").data(`{"name":"logo-sandbox.png","sourceUrl":"data:image/png;base64,`+png+`"}`).
			then("/api/system/files", `data.images.#(name=="logo-sandbox.png").name=logo-sandbox.png`),
		e("GetListOfUploadedFiles").want("data.images"),

		e("GetListingOfHtmlCodes").want("data.snippets"),
		e("CreateAndEditHtmlCodes").code(200).data(`{"snippets":[{"location":"common-footer","html":"<script>/* sandbox */</script>"}]}`).
			then("/api/template-include", `data.snippets.#(location=="common-footer").html=<script>/* sandbox */</script>`),
		e("DeleteHtmlCode", "location", "common-header").
			first("POST", "/api/template-include", decode(`{"data":{"snippets":[{"location":"common-header","html":"<meta name=\"x\">"}]}}`)).
			then("/api/template-include", `!data.snippets.#(location=="common-header")`),
	}
}

// asyncTable: the asynchronous and snapshot endpoints (sandbox/shop/jobs).
func asyncTable(f *fx, hook string) []*entry {
	p0 := f.v("products", "0.guid")
	pl := f.v("pricelists", "0.id")
	batch := map[string]any{"batchFileUrlPath": "/user/batch/sandbox.jsonl"}
	withBody := func(en *entry, body any) *entry { en.body = body; return en }
	return []*entry{
		async("GetListOfAllAbandonedCarts", hook),
		async("GetListAllArticles", hook),
		withBody(async("CreateBrandBatch", hook), batch),
		withBody(async("UpdateProductCategoryBatch", hook), batch),
		withBody(async("UpdateCategoryProductsPriorityBatch", hook), batch),
		async("GetListOfAllCreditNotes", hook),
		async("GetListOfAllCustomers", hook),
		async("GetListOfAllDeliveryNotes", hook),
		async("GetListOfAllDiscountCoupons", hook).q("template=" + f.v("discount-coupons", "0.template") + "&shippingPrice=0.00"), // both required (reference)
		async("GeneralDocumentDownload", hook, "type", "invoices", "format", "json"),
		async("GetListOfAllInvoices", hook),
		async("GetListOfAllRemarks", hook),
		async("GetListOfAllOrders", hook),
		withBody(async("UpdatePricelistBatch", hook, "id", pl), batch),
		async("GetListOfAllPricelistDetails", hook, "id", pl),
		withBody(async("ProductBatchUpdate", hook), batch),
		// Not flagged async by the reference, but it takes a batch file and
		// answers data.jobId like every other batch (sandbox/shop/jobs).
		withBody(async("OrderBatchInsertion", hook), batch).code(202),
		withBody(async("ProductBatchDelete", hook), batch),
		withBody(async("ProductImageBatchDelete", hook), batch),
		async("GetListOfAllProducts", hook),
		async("GetListOfAllProductsAndPricelistPrices", hook),
		async("CreateProductImages", hook, "guid", p0, "gallery", "shop").data(`{"images":[{"sourceUrl":"https://images.example/tent.jpg","description":"Stan"}]}`),
		async("UpdateProductImagesSource", hook, "guid", p0, "gallery", "shop").data(`{"images":[{"name":"` + f.v("products", "0.images.0.name") + `","sourceUrl":"https://images.example/tent2.jpg"}]}`),
		async("GetListOfAllProformaInvoices", hook),
		async("GetListOfAllProofPayments", hook),
		async("GetListOfAllQuantityDiscounts", hook),
		async("UploadFiles", hook).data(`[{"name":"batch.png","sourceUrl":"https://images.example/batch.png"}]`),
	}
}

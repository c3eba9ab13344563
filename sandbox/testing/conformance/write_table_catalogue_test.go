package conformance

// catalogueWrites: brands, categories and their product order, flags,
// availabilities, consumption taxes, price lists, parametric categories.
func catalogueWrites(f *fx) []*wentry {
	const noBrandLog = "the reference has no change list of brands"
	const noCategoryLog = "the reference has no change list of categories"
	return []*wentry{
		w("CreateBrand").without("indexName", "becomes the brand's code; left out so the code is made from the name").
			keep("brand=data.indexName").shows("/api/brands/{brand}", "data").emits("brand:create {brand}").unlogged(noBrandLog),
		w("UpdateBrand", "code", "{brand}").without("indexName", "renames the brand's code; the next entries use the code").
			shows("/api/brands/{brand}", "data").emits("brand:update {brand}").unlogged(noBrandLog),
		w("DeleteBrand", "code", "{brand}").gone("/api/brands/{brand}", "").emits("brand:delete {brand}").unlogged(noBrandLog),
		w("CreateBrandBatch").file(`{"name":"WC Batch Brand Flat","indexName":"wc-batch-flat"}`, `{"data":{"name":"WC Batch Brand Library","indexName":"wc-batch-library"}}`).
			showsFrom("line:2", "/api/brands/wc-batch-library", "data").
			emits("brand:create wc-batch-flat", "brand:create wc-batch-library").unlogged(noBrandLog),

		w("CreateProductCategory").list("/api/categories", "parent=data.categories.0.guid", "rel=data.categories.1.guid", "sim=data.categories.2.guid").
			pre("POST", "/api/system/file", map[string]any{"data": map[string]any{"name": "wc-category.png", "sourceUrl": pngURL}}).
			str("parentGuid", "{parent}", "relatedProductsCategory", "{rel}", "similarProductsCategory", "{sim}", "sourceImageName", "wc-category.png").
			differs("sourceImageName", "the uploaded file becomes the category's image (image)").
			keep("cat=data.guid").shows("/api/categories/{cat}", "data").emits("category:create {cat}").unlogged(noCategoryLog),
		w("UpdateProductCategory", "categoryGuid", "{cat}").str("relatedProductsCategory", "{sim}", "similarProductsCategory", "{rel}").shows("/api/categories/{cat}", "data").
			emits("category:update {cat}").unlogged(noCategoryLog),
		w("UpdateProductOrderInCategory", "categoryGuid", "{pcat}").
			list("/api/products?itemsPerPage=1", "pguid=data.products.0.guid").
			list("/api/products/{pguid}", "pcat=data.defaultCategory.guid").
			list("/api/categories/{pcat}/productsPriority", "pg=data.categoryProducts.0.productGuid", "pg2=data.categoryProducts.1.productGuid").
			str("0.productGuid", "{pg}").
			showsFrom("data.0", "/api/categories/{pcat}/productsPriority", `data.categoryProducts.#(productGuid=="{pg}")`).
			emits("category:update {pcat}").unlogged(noCategoryLog),
		w("UpdateProductCategoryBatch").
			file(`{"guid":"{pcat}","menuTitle":"WC batch menu flat"}`, `{"guid":"{cat}","data":{"menuTitle":"WC batch menu library","title":"WC batch title"}}`).
			showsFrom("line:2", "/api/categories/{cat}", "data").
			emits("category:update {pcat}", "category:update {cat}", `category:massUpdate ["{pcat}","{cat}"]`).unlogged(noCategoryLog),
		w("UpdateCategoryProductsPriorityBatch").
			file(`{"categoryGuid":"{pcat}","productGuid":"{pg}","priority":9}`, `{"categoryGuid":"{pcat}","data":[{"productGuid":"{pg2}","priority":3}]}`).
			showsFrom("line:2", "/api/categories/{pcat}/productsPriority", `data.categoryProducts.#(productGuid=="{pg2}")`).
			emits("category:update {pcat}", `category:massUpdate ["{pcat}"]`).unlogged(noCategoryLog),
		w("DeleteProductCategory", "categoryGuid", "{cat}").gone("/api/categories/{cat}", "").
			emits("category:delete {cat}").unlogged(noCategoryLog),

		w("CreateProductFlag").keep(`flag=data.flags.#(title=="WC CreateProductFlag title").code`).
			shows("/api/products/flags", `data.flags.#(code=="{flag}")`).quiet("the reference has no flag events").unlogged("the reference has no change list of flags"),
		w("UpdateProductFlag", "code", "{flag}").shows("/api/products/flags", `data.flags.#(code=="{flag}")`).
			quiet("the reference has no flag events").unlogged("the reference has no change list of flags"),
		w("DeleteProductFlag", "code", "{flag}").gone("/api/products/flags", `data.flags.#(code=="{flag}")`).
			quiet("the reference has no flag events").unlogged("the reference has no change list of flags"),

		w("CreateProductAvailability").keep("avail=data.availability.id").
			shows("/api/products/availabilities", `data.availabilities.#(id=={avail})`).emits("availability:create {avail}").
			unlogged("the reference has no change list of availabilities"),
		w("UpdateProductAvailability", "id", "{avail}").shows("/api/products/availabilities", `data.availabilities.#(id=={avail})`).
			emits("availability:update {avail}").unlogged("the reference has no change list of availabilities"),
		w("DeleteProductAvailability", "id", "{avail}").gone("/api/products/availabilities", `data.availabilities.#(id=={avail})`).
			emits("availability:delete {avail}").unlogged("the reference has no change list of availabilities"),

		w("CreateConsumptionTax").keep("tax=data.id").shows("/api/products/consumption-taxes", `data.consumptionTaxes.#(id=={tax})`).
			quiet("the reference has no consumption tax events").unlogged("the reference has no change list of consumption taxes"),
		w("UpdateConsumptionTax", "id", "{tax}").shows("/api/products/consumption-taxes", `data.consumptionTaxes.#(id=={tax})`).
			quiet("the reference has no consumption tax events").unlogged("the reference has no change list of consumption taxes"),
		w("DeleteConsumptionTax", "id", "{tax}").gone("/api/products/consumption-taxes", `data.consumptionTaxes.#(id=={tax})`).
			quiet("the reference has no consumption tax events").unlogged("the reference has no change list of consumption taxes"),

		w("CreatePricelist").keep("pl=data.id").shows("/api/pricelists", `data.pricelists.#(id=={pl})`).
			emits("pricelist:create {pl}").unlogged("the reference has no change list of price lists"),
		w("UpdatePricelist", "id", "{pl0}").list("/api/pricelists", "pl0=data.pricelists.0.id").
			list("/api/pricelists/{pl0}", "plcode=data.pricelist.0.code", "plcode2=data.pricelist.1.code").
			str("0.code", "{plcode}").
			showsFrom("data.0", "/api/pricelists/{pl0}?code={plcode}", "data.pricelist.0").
			emits("productVariantPrice:update {plcode}", `productVariantPrice:massUpdate ["{plcode}"]`).
			unlogged("the reference has no change list of price list rows"),
		w("UpdatePricelistBatch", "id", "{pl0}").
			file(`{"code":"{plcode}","vatRate":"12.00"}`, `{"data":{"code":"{plcode2}","vatRate":"12.00","includingVat":false}}`).
			showsFrom("line:2", "/api/pricelists/{pl0}?code={plcode2}", "data.pricelist.0").
			emits("productVariantPrice:update {plcode}", "productVariantPrice:update {plcode2}", `productVariantPrice:massUpdate ["{plcode}","{plcode2}"]`).
			unlogged("the reference has no change list of price list rows"),
		w("DeletePricelist", "id", "{pl}").gone("/api/pricelists", `data.pricelists.#(id=={pl})`).
			emits("pricelist:delete {pl}").unlogged("the reference has no change list of price lists"),

		w("CreateParametricCategory").list("/api/categories", "ocat=data.categories.1.guid").
			list("/api/products/filtering-parameters", "fp=data.filteringParameters.0.code").
			str("originalCategoryGuid", "{ocat}").without("parameters", "the definition endpoint sets them (next entry)").
			keep("pc=data.parametricCategory.guid").shows("/api/parametric-categories/{pc}", "data.parametricCategory").
			quiet("the reference has no parametric category events").unlogged("the reference has no change list of parametric categories"),
		w("CreateParametricCategoryDefinition").str("categoryGuid", "{pc}", "parameters.0.parameterCode", "{fp}").
			showsFrom("data.parameters.0", "/api/parametric-categories/{pc}", `data.parametricCategory.parameters.#(parameterCode=="{fp}")`).
			quiet("the reference has no parametric category events").unlogged("the reference has no change list of parametric categories"),
		w("UpdateParametricCategory", "categoryGuid", "{pc}").shows("/api/parametric-categories/{pc}", "data.parametricCategory").
			quiet("the reference has no parametric category events").unlogged("the reference has no change list of parametric categories"),
		w("DeleteParametricCategory", "categoryGuid", "{pc}").gone("/api/parametric-categories/{pc}", "").
			quiet("the reference has no parametric category events").unlogged("the reference has no change list of parametric categories"),
	}
}

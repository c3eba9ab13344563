package conformance

// png is a 1x1 PNG image as a data: URL (uploads and image sources).
const pngURL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// productWrites: products and their variants, copies and batches, and
// the product parts: alternative and related products, set items, gifts,
// images, related files; surcharge, filtering and variant parameters.
func productWrites(f *fx) []*wentry {
	const logs = "/api/products/changes"
	multi := f.v("products", `#(variants.#>2).guid`)
	multiLast := f.v("products", `#(variants.#>2).variants.2.code`)
	set := f.v("products", `#(type=="product-set").guid`)
	withFiles := f.v("products", `#(relatedFiles.#>0).guid`)
	product := func(e *wentry) *wentry {
		return e.list("/api/brands", "pbrand=data.brands.0.indexName").
			list("/api/categories", "pcat1=data.categories.0.guid", "pcat2=data.categories.1.guid").
			list("/api/suppliers", "psup=data.suppliers.0.guid").
			list("/api/products/flags", "pflag=data.flags.0.code").
			list("/api/products/availabilities", "pav=data.availabilities.0.id", "pav2=data.availabilities.1.id").
			list("/api/products/filtering-parameters", "pfp=data.filteringParameters.0.code").
			list("/api/products/filtering-parameters/{pfp}", "pfpv=data.values.0.valueIndex").
			list("/api/products/surcharge-parameters", "psp=data.surchargeParameters.0.code").
			list("/api/products/surcharge-parameters/{psp}", "pspv=data.surchargeParameter.values.0.valueIndex").
			str("brandCode", "{pbrand}", "defaultCategoryGuid", "{pcat1}", "supplierGuid", "{psup}", "flags.0.code", "{pflag}",
				"filteringParameters.0.code", "{pfp}", "filteringParameters.0.values.0", "{pfpv}",
				"surchargeParameters.0.code", "{psp}", "surchargeParameters.0.values.0.valueIndex", "{pspv}").
			set("categoryGuids", `["{pcat1}","{pcat2}"]`).
			list("/api/products/consumption-taxes", "ptax=data.consumptionTaxes.0.id").
			list("/api/products/measure-units", "pmu=data.measureUnits.0.id").
			list("/api/products/units", "punit=data.units.0.id", "ppack=data.units.1.id").
			list("/api/products/recycling-fee-categories", "pfee=data.recyclingFeeCategories.0.id").
			list("/api/products/warranties", "pwar=data.warranties.0.id").
			list("/api/stocks", "pstock=data.stocks.0.id").
			raw("variants.0.availabilityId", "{pav}", "variants.0.availabilityWhenSoldOutId", "{pav2}",
				"variants.0.consumptionTaxId", "{ptax}", "variants.0.measureUnit.measureUnitId", "{pmu}",
				"variants.0.measureUnit.packagingUnitId", "{ppack}", "variants.0.unitId", "{punit}",
				"variants.0.recyclingFeeId", "{pfee}", "variants.0.stocksLocations.0.stockId", "{pstock}", "warrantyId", "{pwar}").
			without("relatedVideos", "a video code of a video portal; the sandbox has none",
				"variants.0.parameters", "variant parameters are set by the variant-parameter endpoints")
	}
	gmap := []string{"googleMapping", "the request sends the mapping as a text; the reference answers it as {value, description}"}
	const include = "?include=images,allCategories,flags,descriptiveParameters,surchargeParameters,filteringParameters,warranty,gifts,setItems"
	negative := []string{"variants.0.negativeStockAllowed", "the request's true/false/null is answered as \"yes\"/\"no\"/\"default\""}
	return []*wentry{
		product(w("CreateProduct")).differs(negative...).str("variants.0.code", "WC-NEW-1").
			keep("prod=data.product.guid").shows("/api/products/{prod}"+include, "data",
			"data.brand.code={pbrand}", "data.defaultCategory.guid={pcat1}", "data.supplier.guid={psup}",
			`data.categories.#(guid=="{pcat2}").guid={pcat2}`, "data.variants.0.availability.id={pav}",
			"data.variants.0.availabilityWhenSoldOut.id={pav2}", "data.warranty.id={pwar}", "data.variants.0.consumptionTax.id={ptax}",
			"data.variants.0.recyclingFee.id={pfee}", "data.variants.0.unit", `data.variants.0.perStockAmounts.#(stockId=={pstock}).location`).
			emits("product:create {prod}").logs(logs, "guid", "{prod}", "add"),
		product(w("UpdateProduct", "guid", "{prod}")).differs(negative...).str("variants.0.code", "WC-NEW-1").
			without("flagsManagement", "an alternative to flags; the entry sends flags").
			shows("/api/products/{prod}"+include, "data").emits("product:update {prod}").logs(logs, "guid", "{prod}", "edit"),
		product(w("UpdateProductByCode", "code", "WC-NEW-1")).differs(negative...).str("variants.0.code", "WC-NEW-1").
			unset("flags.0.code").without("flags", "the entry manages flags with flagsManagement instead").
			str("flagsManagement.0.code", "{pflag}", "flagsManagement.0.action", "remove").
			shows("/api/products/code/WC-NEW-1"+include, "data", `!data.flags.#(code=="{pflag}")`).
			emits("product:update {prod}").logs(logs, "guid", "{prod}", "edit"),
		w("ProductCopy", "guid", "{prod}").keep("copy=data.guid").shows("/api/products/{copy}", "data").
			emits("product:create {copy}").logs(logs, "guid", "{copy}", "add"),
		w("ProductBatchUpdate").
			file(`{"guid":"{prod}","shortDescription":"WC batch flat"}`, `{"guid":"{copy}","data":{"shortDescription":"WC batch library","name":"WC batch copy"}}`).
			showsFrom("line:2", "/api/products/{copy}", "data").
			emits("product:update {prod}", "product:update {copy}", `product:massUpdate ["{prod}","{copy}"]`).logs(logs, "guid", "{copy}", "edit"),
		w("DeleteProductVariant", "code", multiLast).gone("/api/products/"+multi, `data.variants.#(code=="`+multiLast+`")`).
			emits("product:update "+multi).logs(logs, "guid", multi, "edit"),
		w("UnlinkAllProductRelatedFiles", "guid", withFiles).gone("/api/products/"+withFiles+"?include=relatedFiles", "data.relatedFiles.0").
			emits("product:update "+withFiles).logs(logs, "guid", withFiles, "edit"),
		w("ProductImageBatchDelete").list("/api/products?itemsPerPage=1", "ip=data.products.0.guid").
			list("/api/products/{ip}?include=images", "img1=data.images.0.name", "img2=data.images.1.name").
			file(`{"productGuid":"{ip}","imageName":"{img1}"}`, `{"productGuid":"{ip}","data":[{"imageName":"{img2}"}]}`).
			gone("/api/products/{ip}?include=images", `data.images.#(name=="{img2}")`).
			emits("product:update {ip}", `product:massUpdate ["{ip}"]`).logs(logs, "guid", "{ip}", "edit"),
		w("ProductBatchDelete").file(`{"data":{"guid":"{copy}"}}`).gone("/api/products/{copy}", "").
			emits("product:delete {copy}", `product:massDelete ["{copy}"]`).logs(logs, "guid", "{copy}", "delete"),
		w("DeleteProduct", "guid", "{prod}").gone("/api/products/{prod}", "").
			emits("product:delete {prod}").logs(logs, "guid", "{prod}", "delete"),

		w("AddAlternativeProduct", "guid", "{a0}").list("/api/products?itemsPerPage=40", "a0=data.products.30.guid", "a1=data.products.31.guid", "a2=data.products.32.guid").
			str("alternativeProduct.guid", "{a1}").
			showsFrom("data.alternativeProduct", "/api/products/{a0}/alternativeProducts", `data.items.#(guid=="{a1}")`).
			emits("product:update {a0}").logs(logs, "guid", "{a0}", "edit"),
		w("SetAlternativeProducts", "guid", "{a0}").str("alternativeProducts.0.guid", "{a2}").
			showsFrom("data.alternativeProducts.0", "/api/products/{a0}/alternativeProducts", `data.items.#(guid=="{a2}")`,
				`!data.items.#(guid=="{a1}")`).
			emits("product:update {a0}").logs(logs, "guid", "{a0}", "edit"),

		w("AddRelatedProduct", "guid", "{r0}").list("/api/products?itemsPerPage=40", "r0=data.products.30.guid", "r1=data.products.31.guid", "r2=data.products.32.guid").
			str("relatedProduct.guid", "{r1}").
			showsFrom("data.relatedProduct", "/api/products/{r0}/relatedProducts", `data.items.#(guid=="{r1}")`).
			emits("product:update {r0}").logs(logs, "guid", "{r0}", "edit"),
		w("SetRelatedProducts", "guid", "{r0}").str("relatedProducts.0.guid", "{r2}").
			showsFrom("data.relatedProducts.0", "/api/products/{r0}/relatedProducts", `data.items.#(guid=="{r2}")`,
				`!data.items.#(guid=="{r1}")`).
			emits("product:update {r0}").logs(logs, "guid", "{r0}", "edit"),

		w("AddItemToProductSet", "guid", set).list("/api/products/code/"+f.v("products", "3.variants.0.code"), "sc1=data.variants.0.code").
			str("setItem.code", "{sc1}").
			showsFrom("data.setItem", "/api/products/"+set+"?include=setItems", `data.setItems.#(code=="{sc1}")`).
			emits("product:update "+set).logs(logs, "guid", set, "edit"),
		w("SetProductSetItems", "guid", set).list("/api/products/code/"+f.v("products", "4.variants.0.code"), "sc2=data.variants.0.code").
			str("setItems.0.code", "{sc2}").
			showsFrom("data.setItems.0", "/api/products/"+set+"?include=setItems", `data.setItems.#(code=="{sc2}")`, `!data.setItems.#(code=="{sc1}")`).
			emits("product:update "+set).logs(logs, "guid", set, "edit"),

		w("CreateProductGift", "guid", "{g0}").list("/api/products?itemsPerPage=40", "g0=data.products.33.guid").
			list("/api/products/code/"+f.v("products", "27.variants.0.code"), "gc1=data.variants.0.code").
			list("/api/products/code/"+f.v("products", "28.variants.0.code"), "gc2=data.variants.0.code").
			str("giftCode", "{gc1}").as("giftCode", "code").
			shows("/api/products/{g0}/gifts", `data.items.#(code=="{gc1}")`).
			emits("product:update {g0}").logs(logs, "guid", "{g0}", "edit"),
		w("SetGiftsToProduct", "guid", "{g0}").str("giftCodes.0.code", "{gc2}").
			showsFrom("data.giftCodes.0", "/api/products/{g0}/gifts", `data.items.#(code=="{gc2}")`, `!data.items.#(code=="{gc1}")`).
			emits("product:update {g0}").logs(logs, "guid", "{g0}", "edit"),

		w("CreateProductImages", "guid", "{i0}", "gallery", "shop").list("/api/products?itemsPerPage=1", "i0=data.products.0.guid").
			str("images.0.sourceUrl", pngURL).
			showsFrom("data.images.0", "/api/products/{i0}/images/shop", `data.images.#(description=="WC CreateProductImages description")`).
			emits("product:update {i0}").logs(logs, "guid", "{i0}", "edit").
			differs("sourceUrl", "the image is stored under its own name; the source address is not kept"),
		w("GetProductImagesUpdate", "guid", "{i0}", "gallery", "shop").list("/api/products/{i0}/images/shop", "iname=data.images.0.name").
			str("images.0.name", "{iname}").
			showsFrom("data.images.0", "/api/products/{i0}/images/shop", `data.images.#(name=="{iname}")`).
			emits("product:update {i0}").logs(logs, "guid", "{i0}", "edit"),
		w("UpdateProductImagesSource", "guid", "{i0}", "gallery", "shop").str("images.0.name", "{iname}", "images.0.sourceUrl", pngURL).
			showsFrom("data.images.0", "/api/products/{i0}/images/shop", `data.images.#(name=="{iname}")`).
			emits("product:update {i0}").logs(logs, "guid", "{i0}", "edit"),
		w("DeleteOneProductImage", "guid", "{i0}", "gallery", "shop", "imageName", "{iname}").
			gone("/api/products/{i0}/images/shop", `data.images.#(name=="{iname}")`).
			emits("product:update {i0}").logs(logs, "guid", "{i0}", "edit"),
		w("DeleteAllProductImagesInGallery", "guid", "{i0}", "gallery", "shop").
			gone("/api/products/{i0}/images/shop", "data.images.0").
			emits("product:update {i0}").logs(logs, "guid", "{i0}", "edit"),

		w("CreateRelatedFileLink", "guid", "{f0}").list("/api/products?itemsPerPage=1", "f0=data.products.0.guid").
			pre("POST", "/api/system/file", map[string]any{"data": map[string]any{"name": "wc-manual.png", "sourceUrl": pngURL}}, "upload=data.image.name").
			str("sourceFileName", "{upload}").keep(`rf=data.relatedFiles.#(name=="WC CreateRelatedFileLink description").id`).as("description", "name").
			shows("/api/products/{f0}?include=relatedFiles", `data.relatedFiles.#(id=={rf})`).
			emits("product:update {f0}").logs(logs, "guid", "{f0}", "edit"),
		w("DeleteOneProductRelatedFile", "guid", "{f0}", "id", "{rf}").gone("/api/products/{f0}?include=relatedFiles", `data.relatedFiles.#(id=={rf})`).
			emits("product:update {f0}").logs(logs, "guid", "{f0}", "edit"),

		w("CreateSurchargeParameter").differs(gmap...).keep("sp=data.surchargeParameter.code").
			shows("/api/products/surcharge-parameters/{sp}", "data.surchargeParameter").
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),
		w("CreateSurchargeParameterValue", "code", "{sp}").
			keep(`spv=data.surchargeParameter.values.#(description=="WC CreateSurchargeParameterValue name").valueIndex`).as("name", "description").
			showsFrom("data.paramValues.0", "/api/products/surcharge-parameters/{sp}", `data.surchargeParameter.values.#(valueIndex=="{spv}")`).
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),
		w("UpdateSurchargeParameter", "code", "{sp}").differs(gmap...).keep("sp=data.surchargeParameter.code").
			shows("/api/products/surcharge-parameters/{sp}", "data.surchargeParameter").
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),
		w("UpdateSurchargeParameterValue", "paramIndex", "{sp}", "valueIndex", "{spv}").as("name", "description").
			shows("/api/products/surcharge-parameters/{sp}", `data.surchargeParameter.values.#(valueIndex=="{spv}")`).
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),
		w("DeleteSurchargeParameterValue", "paramIndex", "{sp}", "valueIndex", "{spv}").
			gone("/api/products/surcharge-parameters/{sp}", `data.surchargeParameter.values.#(valueIndex=="{spv}")`).
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),
		w("DeleteSurchargeParameterByIndex", "code", "{sp}").gone("/api/products/surcharge-parameters/{sp}", "").
			quiet("the reference has no surcharge parameter events").unlogged("the reference has no change list of surcharge parameters"),

		w("CreateFilteringParameter").differs(gmap...).keep("fpn=data.code").shows("/api/products/filtering-parameters/{fpn}", "data").
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),
		w("CreateFilteringParameterValue", "code", "{fpn}").
			keep(`fpv=data.values.#(name=="WC CreateFilteringParameterValue name").valueIndex`).
			showsFrom("data.paramValues.0", "/api/products/filtering-parameters/{fpn}", `data.values.#(valueIndex=="{fpv}")`).
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),
		w("UpdateFilteringParameter", "code", "{fpn}").differs(gmap...).keep("fpn=data.code").shows("/api/products/filtering-parameters/{fpn}", "data").
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),
		w("UpdateFilteringParameterValue", "code", "{fpn}", "valueIndex", "{fpv}").
			shows("/api/products/filtering-parameters/{fpn}", `data.values.#(valueIndex=="{fpv}")`).
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),
		w("DeleteFilteringParameterValue", "code", "{fpn}", "valueIndex", "{fpv}").
			gone("/api/products/filtering-parameters/{fpn}", `data.values.#(valueIndex=="{fpv}")`).
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),
		w("DeleteFilteringParameter", "code", "{fpn}").gone("/api/products/filtering-parameters/{fpn}", "").
			quiet("the reference has no filtering parameter events").unlogged("the reference has no change list of filtering parameters"),

		w("CreateVariantParameter").keep("vp=data.paramIndex").shows("/api/products/variant-parameters/{vp}", "data").
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
		w("CreateVariantParameterValue", "paramIndex", "{vp}").
			keep(`vpv=data.values.#(paramValue=="WC CreateVariantParameterValue paramValue").rawValue`).
			showsFrom("data.paramValues.0", "/api/products/variant-parameters/{vp}", `data.values.#(rawValue=="{vpv}")`).
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
		w("UpdateVariantParameter", "paramIndex", "{vp}").keep("vp=data.paramIndex").shows("/api/products/variant-parameters/{vp}", "data").
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
		w("UpdateVariantParameterValue", "paramIndex", "{vp}", "rawValue", "{vpv}").keep(`vpv=data.values.#(paramValue=="WC UpdateVariantParameterValue paramValue").rawValue`).
			shows("/api/products/variant-parameters/{vp}", `data.values.#(rawValue=="{vpv}")`).
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
		w("DeleteVariantParameterValue", "paramIndex", "{vp}", "rawValue", "{vpv}").
			gone("/api/products/variant-parameters/{vp}", `data.values.#(rawValue=="{vpv}")`).
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
		w("DeleteVariantParameter", "paramIndex", "{vp}").gone("/api/products/variant-parameters/{vp}", "").
			quiet("the reference has no variant parameter events").unlogged("the reference has no change list of variant parameters"),
	}
}

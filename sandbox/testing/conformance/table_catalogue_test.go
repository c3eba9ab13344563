package conformance

// catalogueTable: products, brands, categories, flags, availabilities,
// code lists, price lists, parametric categories.
func catalogueTable(f *fx) []*entry {
	p0 := f.v("products", "0.guid")
	p1 := f.v("products", "1.guid")
	p2 := f.v("products", "2.guid")
	p5 := f.v("products", "5.guid")
	code2 := f.v("products", "2.variants.0.code")
	multi := f.v("products", `#(variants.#>2).guid`)
	multiLast := f.v("products", `#(variants.#>2).variants.2.code`)
	brand := f.v("brands", "0.code")
	brandGuid := f.v("brands", "1.guid")
	brandDel := f.v("brands", "2.code")
	cat := f.v("categories", "0.guid")
	catLeaf := f.v("categories", `#(guid!="`+cat+`").guid`)
	catDel := f.v("categories", "#.guid|@reverse|0")
	flag := f.v("flags", "0.code")
	flagDel := f.v("flags", "1.code")
	avail := f.v("availabilities", "0.id")
	availDel := f.v("availabilities", "#.id|@reverse|0")
	tax := f.v("consumption-taxes", "0.id")
	taxDel := f.v("consumption-taxes", "1.id")
	pl := f.v("pricelists", "1.id")
	pc := f.v("parametric-categories", "0.guid")
	return []*entry{
		e("GetListOfProducts").q("itemsPerPage=5").want("data.products.#>0", "data.paginator.totalCount>0"),
		e("GetProductDetail", "guid", p0).q("include=images,flags").want("data.guid=" + p0),
		e("GetProductDetailByCode", "code", code2).want("data.guid=" + p2),
		e("GetLastProductChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("CreateProduct").data(`{"name":"Stan Sandbox 1","type":"product","brandCode":"`+brand+`","categoryGuids":["`+cat+`"],
			"variants":[{"code":"SBX-TENT-1","price":"1990.00","vatRate":"21.00","availabilityId":`+avail+`}]}`).
			then("/api/products/{@data.product.guid}", "data.name=Stan Sandbox 1", "data.variants.0.code=SBX-TENT-1", "data.brand.code="+brand),
		e("UpdateProduct", "guid", p0).data(`{"shortDescription":"Nový krátký popis"}`).
			then("/api/products/"+p0, "data.shortDescription=Nový krátký popis"),
		e("UpdateProductByCode", "code", code2).data(`{"name":"Tunel přejmenovaný"}`).
			then("/api/products/code/"+code2, "data.name=Tunel přejmenovaný"),
		e("ProductCopy", "guid", p1).data(`{"name":"Kopie stanu","isVisible":false}`).
			then("/api/products/{@data.guid}", "data.name=Kopie stanu", "data.visibility=hidden"),
		e("DeleteProductVariant", "code", multiLast).then("/api/products/"+multi, `!data.variants.#(code=="`+multiLast+`")`).last(),
		e("DeleteProduct", "guid", p5).gone("/api/products/" + p5).last(),

		e("GetListofBrands").want("data.brands.#>0"),
		e("GetDetailOfBrand", "code", brandGuid).want("data.guid=" + brandGuid),
		e("CreateBrand").data(`{"name":"Sandbox Gear","indexName":"sandbox-gear"}`).then("/api/brands/sandbox-gear", "data.name=Sandbox Gear"),
		e("UpdateBrand", "code", brand).data(`{"description":"Popis značky"}`).then("/api/brands/"+brand, "data.description=Popis značky"),
		e("DeleteBrand", "code", brandDel).q("deleteUsed=true").gone("/api/brands/" + brandDel),
		e("GetListOfSuppliers").want("data.suppliers.#>0"),

		e("GetListOfProductCategories").want("data.categories.#>0"),
		e("GetProductCategoryDetail", "categoryGuid", cat).want("data.guid=" + cat),
		e("CreateProductCategory").data(`{"name":"Hamaky","parentGuid":"`+cat+`"}`).then("/api/categories/{@data.guid}", "data.name=Hamaky", "data.parentGuid="+cat),
		e("UpdateProductCategory", "categoryGuid", cat).data(`{"menuTitle":"Stany a přístřešky"}`).then("/api/categories/"+cat, "data.menuTitle=Stany a přístřešky"),
		e("DeleteProductCategory", "categoryGuid", catDel).q("deleteUsed=true&deleteChildren=true").gone("/api/categories/" + catDel),
		e("GetListOfProductsOrderInCategory", "categoryGuid", catLeaf).want("data.categoryProducts"),
		e("UpdateProductOrderInCategory", "categoryGuid", catLeaf).first("GET", "/api/categories/"+catLeaf+"/productsPriority", nil, "pg=data.categoryProducts.0.productGuid").
			data(`[{"productGuid":"{pg}","priority":7}]`).then("/api/categories/"+catLeaf+"/productsPriority", "data.categoryProducts.#(productGuid==\"{pg}\").priority=7"),

		e("GetListOfProductsFlags").want("data.flags.#>0"),
		e("CreateProductFlag").data(`{"title":"Sandbox akce","color":"#FF0000"}`).then("/api/products/flags", `data.flags.#(title=="Sandbox akce").code=sandbox-akce`),
		e("UpdateProductFlag", "code", flag).data(`{"color":"#00AA00"}`).then("/api/products/flags", `data.flags.#(code=="`+flag+`").color=#00AA00`),
		e("DeleteProductFlag", "code", flagDel).then("/api/products/flags", `!data.flags.#(code=="`+flagDel+`")`),

		e("GetListOfProductsAvailabilities").want("data.availabilities.#>0", "data.defaultAvailabilities"),
		e("CreateProductAvailability").data(`{"name":"Do týdne","deliveryInHours":168}`).
			then("/api/products/availabilities", `data.availabilities.#(name=="Do týdne").deliveryInHours=168`),
		e("UpdateProductAvailability", "id", avail).data(`{"description":"Skladem v Brně"}`).
			then("/api/products/availabilities", `data.availabilities.#(id==`+avail+`).description=Skladem v Brně`),
		e("DeleteProductAvailability", "id", availDel).then("/api/products/availabilities", `!data.availabilities.#(id==`+availDel+`)`),

		e("GetListOfConsumptionTaxes").want("data.consumptionTaxes.#>0"),
		e("CreateConsumptionTax").data(`{"name":"Spotřební daň – víno","currency":"CZK","price":"12.50","isVisible":true}`).
			then("/api/products/consumption-taxes", `data.consumptionTaxes.#(name=="Spotřební daň – víno").price=12.50`),
		e("UpdateConsumptionTax", "id", tax).data(`{"price":"5.00"}`).then("/api/products/consumption-taxes", `data.consumptionTaxes.#(id==`+tax+`).price=5.00`),
		e("DeleteConsumptionTax", "id", taxDel).then("/api/products/consumption-taxes", `!data.consumptionTaxes.#(id==`+taxDel+`)`),

		e("GetListOfProductWarranties").want("data.warranties.#>0"),
		e("GetListOfProductUnits").want("data.units.#>0"),
		e("GetListOfProductsMeasureUnits").want("data.measureUnits.#>0"),
		e("GetListOfRecyclingFeeCategories").want("data.recyclingFeeCategories.#>0"),

		e("GetListOfPriceLists").want("data.pricelists.#>0"),
		e("GetPricelistDetail", "id", f.v("pricelists", "0.id")).want("data.pricelist.#>0"),
		e("CreatePricelist").data(`{"name":"Ceník Sandbox"}`).then("/api/pricelists", `data.pricelists.#(name=="Ceník Sandbox").id={@data.id}`),
		e("UpdatePricelist", "id", f.v("pricelists", "0.id")).data(`[{"code":"`+f.v("pricelists", "0._prices.0.code")+`","vatRate":"12.00"}]`).
			then("/api/pricelists/"+f.v("pricelists", "0.id")+"?code="+f.v("pricelists", "0._prices.0.code"), "data.pricelist.0.vatRate=12.00"),
		e("DeletePricelist", "id", pl).then("/api/pricelists", `!data.pricelists.#(id==`+pl+`)`),

		e("GetListOfParametricCategories").q("include=parameters").want("data.parametricCategories.#>0"),
		e("GetParametricCategoryDetail", "categoryGuid", pc).want("data.parametricCategory.guid=" + pc),
		e("GetParametricCategoryAvailableParameters", "categoryGuid", pc).want("data.parameters.#>0"),
		e("CreateParametricCategory").data(`{"name":"Zimní vybavení","showInList":true,"showInDetail":false}`).
			then("/api/parametric-categories/{@data.parametricCategory.guid}", "data.parametricCategory.name=Zimní vybavení"),
		e("CreateParametricCategoryDefinition").data(`{"categoryGuid":"`+pc+`","parameters":[{"parameterCode":"`+f.v("filtering-parameters", "0.code")+`"}]}`).
			then("/api/parametric-categories/"+pc, "data.parametricCategory.parameters.0.parameterCode="+f.v("filtering-parameters", "0.code")),
		e("UpdateParametricCategory", "categoryGuid", pc).data(`{"title":"Lehké vybavení na cesty"}`).
			then("/api/parametric-categories/"+pc, "data.parametricCategory.title=Lehké vybavení na cesty"),
		e("DeleteParametricCategory", "categoryGuid", pc).gone("/api/parametric-categories/" + pc).last(),
	}
}

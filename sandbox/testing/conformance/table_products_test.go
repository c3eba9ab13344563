package conformance

// productPartsTable: the lists a product holds (alternative and related
// products, gifts, set items, images, related files).
func productPartsTable(f *fx) []*entry {
	p0 := f.v("products", "0.guid")
	p1 := f.v("products", "1.guid")
	p3 := f.v("products", "3.guid")
	set := f.v("products", `#(type=="product-set").guid`)
	giftCode := f.v("products", "27.variants.0.code")
	setCode := f.v("products", "7.variants.0.code")
	img := f.v("products", "0.images.0.name")
	imgDel := f.v("products", "0.images.2.name")
	file := f.v("products", "0.relatedFiles.0.id")
	return []*entry{
		e("GetListOfProductAlternativeProducts", "guid", p0).want("data.items.#>0"),
		e("AddAlternativeProduct", "guid", p0).data(`{"alternativeProduct":{"guid":"`+p3+`"}}`).code(201).
			then("/api/products/"+p0+"/alternativeProducts", `data.items.#(guid=="`+p3+`").guid=`+p3),
		e("SetAlternativeProducts", "guid", p1).data(`{"alternativeProducts":[{"guid":"`+p3+`"},{"guid":"`+p0+`"}]}`).
			then("/api/products/"+p1+"/alternativeProducts", "data.items.#=2", "data.items.0.guid="+p3),
		e("GetListOfProductRelatedProducts", "guid", p0).want("data.items.#>0"),
		e("AddRelatedProduct", "guid", p1).data(`{"relatedProduct":{"guid":"`+p0+`"}}`).code(201).
			then("/api/products/"+p1+"/relatedProducts", `data.items.#(guid=="`+p0+`").guid=`+p0),
		e("SetRelatedProducts", "guid", p0).data(`{"relatedProducts":[{"guid":"`+p3+`"}]}`).
			then("/api/products/"+p0+"/relatedProducts", "data.items.#=1", "data.items.0.guid="+p3),
		e("GetListOfProductGifts", "guid", p0).want("data.items.#>0"),
		e("CreateProductGift", "guid", p1).data(`{"giftCode":"`+giftCode+`"}`).code(201).
			then("/api/products/"+p1+"/gifts", `data.items.#(code=="`+giftCode+`").priority=1`),
		e("SetGiftsToProduct", "guid", p0).data(`{"giftCodes":[{"code":"`+giftCode+`"},{"code":"`+setCode+`"}]}`).
			then("/api/products/"+p0+"/gifts", "data.items.#=2"),
		e("AddItemToProductSet", "guid", set).data(`{"setItem":{"code":"`+giftCode+`","amount":"2.000"}}`).code(201).
			then("/api/products/"+set+"?include=setItems", `data.setItems.#(code=="`+giftCode+`").amount=2.000`),
		e("SetProductSetItems", "guid", set).data(`{"setItems":[{"code":"`+setCode+`","amount":"1.000"}]}`).
			then("/api/products/"+set+"?include=setItems", "data.setItems.#=1", "data.setItems.0.code="+setCode),
		e("GetListOfProductImages", "guid", p0, "gallery", "shop").want("data.images.#>0"),
		e("GetProductImagesUpdate", "guid", p0, "gallery", "shop").data(`{"images":[{"name":"`+img+`","description":"Nový popis obrázku","priority":9}]}`).
			then("/api/products/"+p0+"/images/shop", `data.images.#(name=="`+img+`").description=Nový popis obrázku`),
		e("DeleteOneProductImage", "guid", p0, "gallery", "shop", "imageName", imgDel).
			then("/api/products/"+p0+"/images/shop", `!data.images.#(name=="`+imgDel+`")`),
		e("DeleteAllProductImagesInGallery", "guid", p3, "gallery", "shop").then("/api/products/"+p3+"/images/shop", "data.images.#=0").last(),
		e("CreateRelatedFileLink", "guid", p1).data(`{"sourceFileName":"navod.pdf","description":"Návod"}`).code(201).
			then("/api/products/"+p1+"?include=relatedFiles", `data.relatedFiles.#(name=="Návod").url`),
		e("DeleteOneProductRelatedFile", "guid", p0, "id", file).then("/api/products/"+p0+"?include=relatedFiles", "data.relatedFiles.#=0"),
		e("UnlinkAllProductRelatedFiles", "guid", p1).then("/api/products/"+p1+"?include=relatedFiles", "data.relatedFiles.#=0").last(),
	}
}

// parameterTable: filtering, surcharge and variant parameters and their
// values.
func parameterTable(f *fx) []*entry {
	fp := f.v("filtering-parameters", "0.code")
	fpDel := f.v("filtering-parameters", "#.code|@reverse|0")
	fv := f.v("filtering-parameters", "0.values.0.valueIndex")
	fvDel := f.v("filtering-parameters", "0.values.1.valueIndex")
	sp := f.v("surcharge-parameters", "0.code")
	spID := f.v("surcharge-parameters", "0.id")
	spDel := f.v("surcharge-parameters", "#.code|@reverse|0")
	sv := f.v("surcharge-parameters", "0.values.0.valueIndex")
	svDel := f.v("surcharge-parameters", "0.values.1.valueIndex")
	vp := f.v("variant-parameters", "0.paramIndex")
	vpDel := f.v("variant-parameters", "#.paramIndex|@reverse|0")
	vv := f.v("variant-parameters", "0.values.0.rawValue")
	vvDel := f.v("variant-parameters", "0.values.1.rawValue")
	return []*entry{
		e("GetListOfFilteringParameters").want("data.filteringParameters.#>0"),
		e("GetDetailOfFilteringParameter", "code", fp).want("data.code=" + fp),
		e("CreateFilteringParameter").data(`{"name":"Vodní sloupec","values":[{"name":"3000 mm"},{"name":"5000 mm"}]}`).
			then("/api/products/filtering-parameters/vodni-sloupec", "data.values.#=2", "data.values.0.valueIndex=3000-mm"),
		e("CreateFilteringParameterValue", "code", fp).data(`{"paramValues":[{"name":"Hedvábí","valueIndex":"silk"}]}`).
			then("/api/products/filtering-parameters/"+fp, `data.values.#(valueIndex=="silk").name=Hedvábí`),
		e("UpdateFilteringParameter", "code", fp).data(`{"displayName":"Materiál látky","googleMapping":"Fabric"}`).
			then("/api/products/filtering-parameters/"+fp, "data.displayName=Materiál látky", "data.googleMapping.value=Fabric"),
		e("UpdateFilteringParameterValue", "code", fp, "valueIndex", fv).data(`{"name":"Nylon ripstop"}`).
			then("/api/products/filtering-parameters/"+fp, `data.values.#(valueIndex=="`+fv+`").name=Nylon ripstop`),
		e("DeleteFilteringParameterValue", "code", fp, "valueIndex", fvDel).
			then("/api/products/filtering-parameters/"+fp, `!data.values.#(valueIndex=="`+fvDel+`")`),
		e("DeleteFilteringParameter", "code", fpDel).gone("/api/products/filtering-parameters/" + fpDel),

		e("GetListOfSurchargeParameters").want("data.surchargeParameters.#>0"),
		e("GetDetailOfSurchargeParameter", "code", sp).want("data.surchargeParameter.code=" + sp),
		e("CreateSurchargeParameter").data(`{"name":"Impregnace","values":[{"name":"Ano","price":"150.00"}]}`).
			then("/api/products/surcharge-parameters/impregnace", "data.surchargeParameter.values.0.description=Ano", "data.surchargeParameter.currency=CZK"),
		e("CreateSurchargeParameterValue", "code", sp).data(`{"paramValues":[{"name":"Luxusní krabice","price":"120.00","valueIndex":"lux-box"}]}`).
			then("/api/products/surcharge-parameters/"+sp, `data.surchargeParameter.values.#(valueIndex=="lux-box").price=120.00`),
		e("UpdateSurchargeParameter", "code", sp).data(`{"priority":5}`).then("/api/products/surcharge-parameters/"+sp, "data.surchargeParameter.priority=5"),
		e("UpdateSurchargeParameterValue", "paramIndex", spID, "valueIndex", sv).data(`{"price":"10.00"}`).
			then("/api/products/surcharge-parameters/"+sp, `data.surchargeParameter.values.#(valueIndex=="`+sv+`").price=10.00`),
		e("DeleteSurchargeParameterValue", "paramIndex", spID, "valueIndex", svDel).
			then("/api/products/surcharge-parameters/"+sp, `!data.surchargeParameter.values.#(valueIndex=="`+svDel+`")`),
		e("DeleteSurchargeParameterByIndex", "code", spDel).gone("/api/products/surcharge-parameters/" + spDel),

		e("GetListOfVariantParameters").q("include=values").want("data.parameters.#>0"),
		e("GetDetailOfVariantParameter", "paramIndex", vp).want("data.paramIndex=" + vp),
		e("CreateVariantParameter").data(`{"paramName":"Objem","values":[{"paramValue":"30 l","rawValue":"30l"}]}`).
			then("/api/products/variant-parameters/objem", "data.values.0.rawValue=30l"),
		e("CreateVariantParameterValue", "paramIndex", vp).data(`{"paramValues":[{"paramValue":"Fialová","rawValue":"purple","color":"#800080"}]}`).
			then("/api/products/variant-parameters/"+vp, `data.values.#(rawValue=="purple").paramValue=Fialová`),
		e("UpdateVariantParameter", "paramIndex", vp).data(`{"displayName":"Barva produktu"}`).
			then("/api/products/variant-parameters/"+vp, "data.displayName=Barva produktu"),
		e("UpdateVariantParameterValue", "paramIndex", vp, "rawValue", vv).data(`{"paramValue":"Lesní zelená"}`).
			then("/api/products/variant-parameters/"+vp, `data.values.#(rawValue=="`+vv+`").paramValue=Lesní zelená`),
		e("DeleteVariantParameterValue", "paramIndex", vp, "rawValue", vvDel).
			then("/api/products/variant-parameters/"+vp, `!data.values.#(rawValue=="`+vvDel+`")`),
		e("DeleteVariantParameter", "paramIndex", vpDel).gone("/api/products/variant-parameters/" + vpDel),
	}
}

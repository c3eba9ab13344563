package registry

// catalogueRows: products and the code lists around them.
func catalogueRows() []*Resource {
	productFilters := []Filter{
		eq("visibility", "visibility"),
		eq("type", "type"),
		eq("brandCode", "brand.code"),
		eq("brandName", "brand.name"),
		eq("supplierGuid", "supplier.guid"),
		eq("defaultCategoryGuid", "defaultCategory.guid"),
		{Query: "categoryGuid", Path: "categories.#.guid", Op: Contains},
		{Query: "flag", Path: "flags.#.code", Op: Contains},
		{Query: "availabilityId", Path: "variants.#.availability.id", Op: Contains},
		{Query: "availabilityWhenSoldOutId", Path: "variants.#.availabilityWhenSoldOut.id", Op: Contains},
		{Query: "productGuids", Path: "guid", Op: OneOf},
		{Query: "productCodes", Path: "variants.#.code", Op: AnyOf},
	}
	productFilters = append(productFilters, timeFilters("creationTime", "creationTime")...)
	productFilters = append(productFilters, timeFilters("changeTime", "changeTime")...)
	return []*Resource{
		{
			Name: "products", IDField: "guid", Def: "Product",
			Refs: []Ref{
				{Field: "brandCode", Into: "brand", Resource: "brands", Pick: []string{"code", "name"}},
				{Field: "supplierGuid", Into: "supplier", Resource: "suppliers", Pick: []string{"guid", "name"}},
				{Field: "defaultCategoryGuid", Into: "defaultCategory", Resource: "categories", Pick: []string{"guid", "name", "visible"}},
				{Field: "categoryGuids", Into: "categories", Resource: "categories", Pick: []string{"guid", "name", "parentGuid"}, Many: true},
				{Field: "warrantyId", Into: "warranty", Resource: "warranties", Pick: []string{"id", "description", "inMonths"}},
			},
			Sections: []Section{
				{Name: "images", Fields: []string{"images"}},
				{Name: "allCategories", Fields: []string{"categories"}},
				{Name: "flags", Fields: []string{"flags"}},
				{Name: "descriptiveParameters", Fields: []string{"descriptiveParameters"}},
				{Name: "surchargeParameters", Fields: []string{"surchargeParameters"}},
				{Name: "setItems", Fields: []string{"setItems"}},
				{Name: "filteringParameters", Fields: []string{"filteringParameters"}},
				{Name: "warranty", Fields: []string{"warranty"}},
				{Name: "gifts", Fields: []string{"gifts"}},
				{Name: "alternativeProducts", Fields: []string{"alternativeProducts"}},
				{Name: "relatedProducts", Fields: []string{"relatedProducts"}},
				{Name: "relatedVideos", Fields: []string{"relatedVideos"}},
				{Name: "relatedFiles", Fields: []string{"relatedFiles"}},
			},
			Events: Events{Create: "product:create", Update: "product:update", Delete: "product:delete",
				MassUpdate: "product:massUpdate", MassDelete: "product:massDelete"},
			ChangeKey: "guid",
			Item:      productListItem,
			Ops: []*Op{
				paged("GetListOfProducts", "products", productFilters...),
				create("CreateProduct", "product"),
				detail("GetProductDetail", "guid", ""),
				update("UpdateProduct", "guid", ""),
				del("DeleteProduct", "guid"),
				changes("GetLastProductChanges"),
				detail("GetProductDetailByCode", "code", "").by("variants.#.code"),
				update("UpdateProductByCode", "code", "").by("variants.#.code"),
				action("DeleteProductVariant"),
				creating("ProductCopy"),
				batch("ProductBatchUpdate", "UpdateProduct", Update),
				batch("ProductBatchDelete", "DeleteProduct", Delete),
			},
		},
		{
			Name: "brands", IDField: "code", Def: "Brand", Alt: []string{"guid", "indexName"},
			IDFrom: []string{"indexName"}, SlugFrom: "name",
			Events: Events{Create: "brand:create", Update: "brand:update", Delete: "brand:delete"},
			Ops: []*Op{
				paged("GetListofBrands", "brands"),
				create("CreateBrand", ""),
				detail("GetDetailOfBrand", "code", ""),
				update("UpdateBrand", "code", ""),
				del("DeleteBrand", "code").guard("deleteUsed", "products", "brand.code"),
				batch("CreateBrandBatch", "CreateBrand", Create),
			},
		},
		{
			Name: "suppliers", IDField: "guid", Def: "Supplier",
			Events: Events{Create: "supplier:create", Update: "supplier:update", Delete: "supplier:delete"},
			Ops:    []*Op{paged("GetListOfSuppliers", "suppliers")},
		},
		{
			Name: "categories", IDField: "guid", Def: "Category", Alt: []string{"indexName"},
			Rename: map[string]string{"imageName": "image", "sourceImageName": "image"},
			Events: Events{Create: "category:create", Update: "category:update", Delete: "category:delete", MassUpdate: "category:massUpdate"},
			Ops: []*Op{
				paged("GetListOfProductCategories", "categories"),
				create("CreateProductCategory", ""),
				detail("GetProductCategoryDetail", "categoryGuid", ""),
				update("UpdateProductCategory", "categoryGuid", ""),
				del("DeleteProductCategory", "categoryGuid").
					guard("deleteUsed", "products", "categories.#.guid").
					guard("deleteChildren", "categories", "parentGuid"),
				action("GetListOfProductsOrderInCategory"),
				action("UpdateProductOrderInCategory"),
				batch("UpdateProductCategoryBatch", "UpdateProductCategory", Update),
				batch("UpdateCategoryProductsPriorityBatch", "UpdateProductOrderInCategory", Update).line("categoryGuid", "categoryGuid"),
			},
		},
		{
			Name: "flags", IDField: "code", SlugFrom: "title",
			Ops: []*Op{
				list("GetListOfProductsFlags", "flags"),
				create("CreateProductFlag", "flags").answer(AnswerAll),
				update("UpdateProductFlag", "code", "flags").answer(AnswerAll),
				del("DeleteProductFlag", "code"),
			},
		},
		{
			Name: "availabilities", IDField: "id",
			Events: Events{Create: "availability:create", Update: "availability:update", Delete: "availability:delete"},
			Ops: []*Op{
				list("GetListOfProductsAvailabilities", "availabilities"),
				create("CreateProductAvailability", "availability"),
				update("UpdateProductAvailability", "id", "availability"),
				del("DeleteProductAvailability", "id"),
			},
		},
		{
			Name: "consumption-taxes", IDField: "id",
			Ops: []*Op{
				list("GetListOfConsumptionTaxes", "consumptionTaxes"),
				create("CreateConsumptionTax", ""),
				update("UpdateConsumptionTax", "id", ""),
				del("DeleteConsumptionTax", "id"),
			},
		},
		{
			Name: "warranties", IDField: "id",
			Events: Events{Create: "warranty:create", Update: "warranty:update", Delete: "warranty:delete"},
			Ops:    []*Op{list("GetListOfProductWarranties", "warranties")},
		},
		{Name: "units", IDField: "id", Ops: []*Op{list("GetListOfProductUnits", "units")}},
		{Name: "measure-units", IDField: "id", Ops: []*Op{list("GetListOfProductsMeasureUnits", "measureUnits")}},
		{Name: "recycling-fee-categories", IDField: "id", Ops: []*Op{list("GetListOfRecyclingFeeCategories", "recyclingFeeCategories")}},
		{
			Name: "pricelists", IDField: "id", Def: "Pricelist",
			Events: Events{Create: "pricelist:create", Delete: "pricelist:delete"},
			Ops: []*Op{
				list("GetListOfPriceLists", "pricelists"),
				create("CreatePricelist", ""),
				del("DeletePricelist", "id"),
			},
		},
		{
			// A price list's per-product prices, kept in the list record's
			// "_prices" with the product's guid in "_productGuid". A
			// multi-record PATCH writes the rows it can and reports the
			// others with 200 (spec, Errors rule 2).
			Name: "pricelists/prices", IDField: "code", BulkMax: 1000,
			Parent: &Parent{Resource: "pricelists", Var: "id", Field: "_prices"},
			Events: Events{Update: "productVariantPrice:update", MassUpdate: "productVariantPrice:massUpdate"},
			Ops: []*Op{
				paged("GetPricelistDetail", "pricelist", eq("code", "code"), eq("guid", "_productGuid")),
				{Operation: "UpdatePricelist", Kind: BulkUpdate, Answer: AnswerNone},
				batch("UpdatePricelistBatch", "UpdatePricelist", Update),
			},
		},
		{
			Name: "parametric-categories", IDField: "guid", Alt: []string{"indexName"},
			Rename: map[string]string{"sourceImageName": "image"},
			Ops: []*Op{
				paged("GetListOfParametricCategories", "parametricCategories").sections(Section{Name: "parameters", Fields: []string{"parameters"}}),
				create("CreateParametricCategory", "parametricCategory"),
				detail("GetParametricCategoryDetail", "categoryGuid", "parametricCategory"),
				update("UpdateParametricCategory", "categoryGuid", "parametricCategory"),
				del("DeleteParametricCategory", "categoryGuid"),
				action("GetParametricCategoryAvailableParameters"),
				action("CreateParametricCategoryDefinition"),
			},
		},
	}
}

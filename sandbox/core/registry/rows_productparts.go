package registry

// productPartRows: the lists a product record holds (alternative and
// related products, gifts, set items, images, related files), each
// served as an embedded resource; writes emit product:update.
func productPartRows() []*Resource {
	parent := func(field string) *Parent {
		return &Parent{Resource: "products", Var: "guid", Field: field, Events: true}
	}
	return []*Resource{
		{
			Name: "products/alternative-products", IDField: "guid", Parent: parent("alternativeProducts"),
			Ops: []*Op{
				list("GetListOfProductAlternativeProducts", "items"),
				create("AddAlternativeProduct", "items").body("alternativeProduct").answer(AnswerAll),
				{Operation: "SetAlternativeProducts", Kind: Replace, Key: "items", Body: "alternativeProducts", Answer: AnswerAll},
			},
		},
		{
			Name: "products/related-products", IDField: "guid", Parent: parent("relatedProducts"),
			Ops: []*Op{
				list("GetListOfProductRelatedProducts", "items"),
				create("AddRelatedProduct", "items").body("relatedProduct").answer(AnswerAll),
				{Operation: "SetRelatedProducts", Kind: Replace, Key: "items", Body: "relatedProducts", Answer: AnswerAll},
			},
		},
		{
			Name: "products/gifts", IDField: "code", IDFrom: []string{"giftCode"}, Parent: parent("gifts"),
			Ops: []*Op{
				list("GetListOfProductGifts", "items"),
				create("CreateProductGift", "items").answer(AnswerAll),
				{Operation: "SetGiftsToProduct", Kind: Replace, Key: "items", Body: "giftCodes", Answer: AnswerAll},
			},
		},
		{
			Name: "products/set-items", IDField: "code", Parent: parent("setItems"),
			Ops: []*Op{
				create("AddItemToProductSet", "items").body("setItem").answer(AnswerAll),
				{Operation: "SetProductSetItems", Kind: Replace, Key: "items", Body: "setItems", Answer: AnswerAll},
			},
		},
		{
			Name: "products/images", IDField: "name", Parent: parent("images"), BulkMax: 100,
			Ops: []*Op{
				list("GetListOfProductImages", "images", eq("gallery", "gallery")),
				{Operation: "GetProductImagesUpdate", Kind: BulkUpdate, Key: "images", Body: "images", Answer: AnswerAll,
					Filters: []Filter{eq("gallery", "gallery")}},
				{Operation: "DeleteAllProductImagesInGallery", Kind: DeleteAll, Filters: []Filter{eq("gallery", "gallery")}},
				del("DeleteOneProductImage", "imageName"),
				batch("ProductImageBatchDelete", "DeleteOneProductImage", Delete).
					line("guid", "productGuid|guid").line("imageName", "imageName|name"),
			},
		},
		{
			Name: "products/related-files", IDField: "id", Parent: parent("relatedFiles"),
			Ops: []*Op{
				create("CreateRelatedFileLink", "relatedFiles").answer(AnswerAll),
				{Operation: "UnlinkAllProductRelatedFiles", Kind: DeleteAll},
				del("DeleteOneProductRelatedFile", "id"),
			},
		},
	}
}

package registry

// marketingRows: discount coupons and templates, quantity, volume and
// X-for-Y discounts, reviews, discussions, mailing lists, unsubscribed
// e-mails and the settings documents of these areas.
func marketingRows() []*Resource {
	return []*Resource{
		{
			Name: "discount-coupons", IDField: "code", BulkMax: 100,
			Events: Events{Create: "discountCoupon:create", Update: "discountCoupon:update", Delete: "discountCoupon:delete",
				MassCreate: "discountCoupon:massCreate", MassDelete: "discountCoupon:massDelete"},
			Ops: []*Op{
				paged("GetListOfDiscountCoupons", "coupons", append([]Filter{
					eq("template", "template"), eq("reusable", "reusable"),
					{Query: "validFrom", Path: "validFrom", Op: DateFrom}, {Query: "validTo", Path: "validTo", Op: DateTo},
				}, timeFilters("creationTime", "creationTime")...)...),
				{Operation: "CreateDiscountCoupons", Kind: BulkCreate, Key: "coupons", Body: "coupons"},
				{Operation: "BulkUpdateDiscountCoupons", Kind: BulkUpdate, Key: "coupons", Body: "coupons"},
				{Operation: "BulkDeleteDiscountCoupons", Kind: BulkDelete, Body: "couponCodes"},
				creating("CreateDiscountCouponsSet"),
				detail("GetDetailOfDiscountCoupon", "code", "coupon"),
				del("DeleteDiscountCoupon", "code"),
				action("UpdateDiscountCouponsUsage"),
			},
		},
		{
			Name: "coupon-templates", IDField: "guid",
			Refs: []Ref{
				{Field: "brands", Into: "brands", Resource: "brands", Pick: []string{"code", "name"}, Many: true},
				{Field: "categoryGuids", Into: "categories", Resource: "categories", Pick: []string{"guid", "name"}, Many: true},
				{Field: "productGuids", Into: "products", Resource: "products", Pick: []string{"guid", "name"}, Many: true},
				{Field: "customerGroupId", Into: "customerGroup", Resource: "customer-groups", Pick: []string{"id", "name"}},
			},
			Ops: []*Op{
				list("GetTemplatesOfDiscountCoupons", "couponTemplates"),
				create("CreateDiscountCouponsTemplate", ""),
				detail("GetDiscountCouponsTemplate", "guid", ""),
				del("DeleteDiscountCouponsTemplate", "guid"),
			},
		},
		{
			Name: "quantity-discounts", IDField: "id",
			Events: Events{Create: "quantityDiscount:create", Update: "quantityDiscount:update", Delete: "quantityDiscount:delete"},
			Ops: []*Op{
				paged("GetListOfQuantityDiscounts", "discounts",
					Filter{Query: "customerGroupCode", Path: "customerGroups.#.code", Op: Contains},
					Filter{Query: "validFrom", Path: "validFrom", Op: DateFrom}, Filter{Query: "validTo", Path: "validTo", Op: DateTo},
					eq("status", "status"), eq("isActive", "isActive"), eq("includeUnregisteredCustomers", "includeUnregisteredCustomers")),
				create("CreateQuantityDiscount", "discount"),
				detail("GetDetailOfQuantityDiscounts", "id", "discount"),
				update("UpdateQuantityDiscount", "id", "discount"),
				del("DeleteQuantityDiscount", "id"),
			},
		},
		{
			Name: "volume-discounts", IDField: "id",
			Ops: []*Op{paged("GetListOfVolumeDiscounts", "discounts",
				Filter{Query: "customerGroupCode", Path: "customerGroups.#.code", Op: Contains})},
		},
		{
			Name: "xy-discounts", IDField: "id",
			Ops: []*Op{
				paged("GetListOfXYDiscounts", "discounts",
					Filter{Query: "customerGroupCode", Path: "customerGroups.#.code", Op: Contains},
					Filter{Query: "validFrom", Path: "validFrom", Op: DateFrom}, Filter{Query: "validTo", Path: "validTo", Op: DateTo}),
				create("CreateXYDiscount", "discount"),
				detail("GetDetailOfXYDiscounts", "id", "discount"),
				update("UpdateXYDiscount", "id", "discount"),
				del("DeleteXYDiscount", "id"),
			},
		},
		{
			Name: "product-reviews", IDField: "id", Alt: []string{"guid"},
			Events: Events{Create: "productReview:created"},
			Ops: []*Op{
				paged("GetListOfProductsReviews", "reviews", append([]Filter{
					{Query: "dateFrom", Path: "date", Op: DateFrom}, {Query: "dateTo", Path: "date", Op: DateTo},
					eq("productGuid", "productGuid"), eq("orderCode", "orderCode"),
				}, timeFilters("changeTime", "updated")[:1]...)...),
				create("CreateProductReview", ""),
				update("UpdateProductReview", "reviewId", ""),
			},
		},
		{
			Name: "project-reviews", IDField: "id",
			Events: Events{Create: "projectReview:create"},
			Ops: []*Op{
				paged("GetListOfProjectReviews", "reviews"),
				create("CreateProjectReview", "review"),
				update("UpdateProjectReview", "reviewId", "review"),
			},
		},
		{
			Name: "discussion-posts", IDField: "id", BulkMax: 50,
			Ops: []*Op{
				paged("GetListOfDiscussionPosts", "discussion",
					eq("productGuid", "productGuid"), eq("articleId", "articleId"), eq("pageId", "pageId"),
					eq("customerGuid", "customerGuid"), eq("userEmail", "email"),
					Filter{Query: "creationDateFrom", Path: "creationDate", Op: DateFrom},
					Filter{Query: "creationDateTo", Path: "creationDate", Op: DateTo}),
				{Operation: "CreateDiscussionPosts", Kind: BulkCreate, Answer: AnswerNone},
				update("UpdateDiscussionPost", "id", "discussion"),
				del("DeleteDiscussionById", "id"),
			},
		},
		{
			Name: "mailing-lists", IDField: "code", SlugFrom: "name",
			Ops: []*Op{
				list("GetListingOfEmailDistributionLists", "mailingLists"),
				create("CreateEmailDistributionList", "mailingList"),
			},
		},
		{
			Name: "mailing-lists/emails", IDField: "email", ChangeKey: "email",
			Parent: &Parent{Resource: "mailing-lists", Var: "code", Field: "_emails", Events: true},
			Events: Events{Create: "mailingListEmail:create", Delete: "mailingListEmail:delete"},
			Ops: []*Op{
				paged("GetDetailOfEmailDistributionList", "emails"),
				creating("CreateEmailsDistributionList"),
				changes("GetLastChangesInDistributionList"),
			},
		},
		{
			Name: "unsubscribed-emails", IDField: "email",
			Ops: []*Op{
				paged("GetListingOfUnsubscribedEmails", "unsubscribedEmails", Filter{Query: "from", Path: "unsubscribedAt", Op: TimeFrom}),
				create("CreateUnsubscribedEmail", "unsubscribedEmail"),
			},
		},
	}
}

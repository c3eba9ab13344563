package conformance

// marketingWrites: discount coupons and their templates, quantity and
// X-for-Y discounts, mailing lists, unsubscribed e-mails, reviews and
// discussion posts.
func marketingWrites(f *fx) []*wentry {
	const noCouponLog = "the reference has no change list of coupons"
	refs := func(e *wentry) *wentry {
		return e.list("/api/brands", "mbrand=data.brands.0.indexName").
			list("/api/categories", "mcat=data.categories.0.guid").
			list("/api/products?itemsPerPage=1", "mprod=data.products.0.guid").
			list("/api/customers/groups", "mgroup=data.customerGroups.0.customerGroupCode", "mgroupID=data.customerGroups.0.id")
	}
	targeting := func(e *wentry, prefix string) *wentry {
		return e.set(prefix+"brandCodes", `["{mbrand}"]`, prefix+"categoryGuids", `["{mcat}"]`, prefix+"productGuids", `["{mprod}"]`)
	}
	return []*wentry{
		refs(w("CreateDiscountCouponsTemplate")).set("brands", `["{mbrand}"]`, "categoryGuids", `["{mcat}"]`, "productGuids", `["{mprod}"]`).
			list("/api/products/flags", "mflag=data.flags.0.code").str("productFlags.0.code", "{mflag}").raw("customerGroupId", "{mgroupID}").
			keep("tpl=data.guid").shows("/api/discount-coupons/templates/{tpl}", "data",
			"data.products.0.guid={mprod}", "data.categories.0.guid={mcat}", "data.customerGroup.id={mgroupID}").
			quiet("the reference has no coupon template events").unlogged(noCouponLog),
		w("CreateDiscountCoupons").str("coupons.0.code", "WC-COUPON-1", "coupons.0.template", "{tpl}").
			keep("cp=data.coupons.0.code").
			showsFrom("data.coupons.0", "/api/discount-coupons/{cp}", "data.coupon").
			emits("discountCoupon:create WC-COUPON-1", `discountCoupon:massCreate ["WC-COUPON-1"]`).unlogged(noCouponLog),
		w("BulkUpdateDiscountCoupons").str("coupons.0.code", "{cp}", "coupons.0.template", "{tpl}").
			showsFrom("data.coupons.0", "/api/discount-coupons/{cp}", "data.coupon").
			emits("discountCoupon:update {cp}").unlogged(noCouponLog),
		w("UpdateDiscountCouponsUsage", "code", "{cp}").list("/api/orders", "morder=data.orders.0.code").str("orderCode", "{morder}").
			shows("/api/discount-coupons/{cp}", "data.coupon", "data.coupon.usedCount>0").
			says("the coupon counts the use").
			emits("discountCoupon:update {cp}").unlogged(noCouponLog),
		w("CreateDiscountCouponsSet").str("template", "{tpl}").keep("set=data.coupons.0.code").
			showsFrom("data", "/api/discount-coupons/{set}", "data.coupon").
			emits("discountCoupon:create {set}").unlogged(noCouponLog),
		w("BulkDeleteDiscountCoupons").set("couponCodes", `["{set}"]`).gone("/api/discount-coupons/{set}", "").
			emits("discountCoupon:delete {set}", `discountCoupon:massDelete ["{set}"]`).unlogged(noCouponLog),
		w("DeleteDiscountCoupon", "code", "{cp}").gone("/api/discount-coupons/{cp}", "").
			emits("discountCoupon:delete {cp}").unlogged(noCouponLog),
		w("DeleteDiscountCouponsTemplate", "guid", "{tpl}").gone("/api/discount-coupons/templates/{tpl}", "").
			quiet("the reference has no coupon template events").unlogged(noCouponLog),

		targeting(refs(w("CreateQuantityDiscount")), "targeting.").set("customerGroupCodes", `["{mgroup}"]`).
			keep("qd=data.discount.id").shows("/api/quantity-discounts/{qd}", "data.discount").
			emits("quantityDiscount:create {qd}").unlogged("the reference has no change list of quantity discounts"),
		targeting(refs(w("UpdateQuantityDiscount", "id", "{qd}")), "targeting.").set("customerGroupCodes", `["{mgroup}"]`).
			shows("/api/quantity-discounts/{qd}", "data.discount").
			emits("quantityDiscount:update {qd}").unlogged("the reference has no change list of quantity discounts"),
		w("DeleteQuantityDiscount", "id", "{qd}").gone("/api/quantity-discounts/{qd}", "").
			emits("quantityDiscount:delete {qd}").unlogged("the reference has no change list of quantity discounts"),

		targeting(targeting(refs(w("CreateXYDiscount")), "xTargeting."), "yTargeting.").set("customerGroupCodes", `["{mgroup}"]`).
			keep("xy=data.discount.id").shows("/api/xy-discounts/{xy}", "data.discount").
			quiet("the reference has no X-for-Y discount events").unlogged("the reference has no change list of X-for-Y discounts"),
		targeting(targeting(refs(w("UpdateXYDiscount", "id", "{xy}")), "xTargeting."), "yTargeting.").set("customerGroupCodes", `["{mgroup}"]`).
			shows("/api/xy-discounts/{xy}", "data.discount").
			quiet("the reference has no X-for-Y discount events").unlogged("the reference has no change list of X-for-Y discounts"),
		w("UpdateXYDiscountSettings").shows("/api/xy-discounts/settings", "data").
			quiet("the reference has no X-for-Y discount events").unlogged("the reference has no change list of X-for-Y discount settings"),
		w("DeleteXYDiscount", "id", "{xy}").gone("/api/xy-discounts/{xy}", "").
			quiet("the reference has no X-for-Y discount events").unlogged("the reference has no change list of X-for-Y discounts"),

		w("CreateEmailDistributionList").keep("ml=data.mailingList.code").
			shows("/api/mailing-lists", `data.mailingLists.#(code=="{ml}")`).
			quiet("the reference has no mailing list events, only events of its e-mails").unlogged("the reference has no change list of mailing lists"),
		w("CreateEmailsDistributionList", "code", "{ml}").
			shows("/api/mailing-lists/{ml}?itemsPerPage=100", "data", `data.emails.#(email=="wc.createemailsdistributionlist.emails@example.com")`).
			emits("mailingListEmail:create {ml}").
			logs("/api/mailing-lists/{ml}/changes", "email", "wc.createemailsdistributionlist.emails@example.com", "add"),
		w("CreateUnsubscribedEmail").shows("/api/unsubscribed-emails", `data.unsubscribedEmails.#(email=="wc.createunsubscribedemail.email@example.com")`).
			quiet("the reference has no events of unsubscribed e-mails").unlogged("the reference has no change list of unsubscribed e-mails"),

		w("CreateProductReview").list("/api/products?itemsPerPage=1", "rprod=data.products.0.guid").
			list("/api/customers", "rcust=data.customers.0.guid").list("/api/orders", "rorder=data.orders.0.code").
			str("productGuid", "{rprod}", "customerGuid", "{rcust}", "orderCode", "{rorder}").
			keep(`rv=@read:data.reviews.#(description=="WC CreateProductReview description").id`).
			shows("/api/reviews/products?productGuid={rprod}", `data.reviews.#(description=="WC CreateProductReview description")`).
			emits("productReview:created {rv}").unlogged("the reference has no change list of reviews"),
		w("UpdateProductReview", "reviewId", "{rv}").shows("/api/reviews/products?productGuid={rprod}", `data.reviews.#(description=="WC UpdateProductReview description")`).
			quiet("the reference has no review update event").unlogged("the reference has no change list of reviews"),
		w("CreateProjectReview").list("/api/customers", "rcust=data.customers.0.guid").list("/api/orders", "rorder=data.orders.0.code").
			str("customerGuid", "{rcust}", "orderCode", "{rorder}").keep("pr=data.review.id").shows("/api/reviews/project", `data.reviews.#(id=={pr})`).
			emits("projectReview:create {pr}").unlogged("the reference has no change list of reviews"),
		w("UpdateProjectReview", "reviewId", "{pr}").shows("/api/reviews/project", `data.reviews.#(id=={pr})`).
			quiet("the reference has no review update event").unlogged("the reference has no change list of reviews"),

		w("CreateDiscussionPosts").list("/api/products?itemsPerPage=1", "dprod=data.products.0.guid").
			list("/api/customers", "dcust=data.customers.0.guid").
			str("0.productGuid", "{dprod}", "0.customerGuid", "{dcust}").
			without("0.articleId", "a post is about one thing: the product", "0.pageId", "a post is about one thing: the product",
				"0.parentId", "a post that starts a thread").
			keep(`post=@read:data.discussion.#(title=="WC CreateDiscussionPosts title").id`).
			showsFrom("data.0", "/api/discussions-posts?productGuid={dprod}", `data.discussion.#(title=="WC CreateDiscussionPosts title")`).
			quiet("the reference has no discussion events").unlogged("the reference has no change list of discussions"),
		w("UpdateDiscussionPost", "id", "{post}").shows("/api/discussions-posts?productGuid={dprod}", `data.discussion.#(id=={post})`).
			quiet("the reference has no discussion events").unlogged("the reference has no change list of discussions"),
		w("DeleteDiscussionById", "id", "{post}").gone("/api/discussions-posts?productGuid={dprod}", `data.discussion.#(id=={post})`).
			quiet("the reference has no discussion events").unlogged("the reference has no change list of discussions"),
	}
}

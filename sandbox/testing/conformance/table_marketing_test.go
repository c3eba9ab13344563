package conformance

// marketingTable: coupons and templates, discounts, reviews,
// discussions, mailing lists, unsubscribed e-mails.
func marketingTable(f *fx) []*entry {
	cp := f.v("discount-coupons", "0.code")
	cpDel := f.v("discount-coupons", "1.code")
	cpBulkDel := f.v("discount-coupons", "2.code")
	cpUse := f.v("discount-coupons", "#(reusable==false).code")
	tpl := f.v("coupon-templates", "0.guid")
	tplDel := f.v("coupon-templates", "1.guid")
	order := f.v("orders", "0.code")
	prod := f.v("products", "0.guid")
	cat := f.v("categories", "0.guid")
	qd := f.v("quantity-discounts", "0.id")
	qdDel := f.v("quantity-discounts", "1.id")
	xy := f.v("xy-discounts", "0.id")
	review := f.v("product-reviews", "0.id")
	project := f.v("project-reviews", "0.id")
	post := f.v("discussion-posts", "0.id")
	postDel := f.v("discussion-posts", "2.id")
	list := f.v("mailing-lists", "0.code")
	return []*entry{
		e("GetListOfDiscountCoupons").want("data.coupons.#>0"),
		e("GetDetailOfDiscountCoupon", "code", cp).want("data.coupon.code=" + cp),
		e("GetTemplatesOfDiscountCoupons").want("data.couponTemplates.#>0"),
		e("GetDiscountCouponsTemplate", "guid", tpl).want("data.guid=" + tpl),
		e("CreateDiscountCoupons").data(`{"coupons":[{"code":"SBX-ONE","discountType":"percentual","ratio":"0.9500","template":"`+tpl+`","reusable":false},
			{"code":"SBX-TWO","discountType":"absolute","amount":"100.00","currency":"CZK","template":"`+tpl+`","reusable":true}]}`).
			want("data.coupons.#=2").then("/api/discount-coupons/SBX-TWO", "data.coupon.amount=100.00"),
		e("CreateDiscountCouponsSet").data(`{"count":3,"discountType":"percentual","ratio":"0.9000","template":"`+tpl+`"}`).
			want("data.coupons.#=3").then("/api/discount-coupons/{@data.coupons.2.code}", "data.coupon.ratio=0.9000"),
		e("CreateDiscountCouponsTemplate").data(`{"title":"Jen stany","productSelectionMode":"selected","productGuids":["`+prod+`"],"categoryGuids":["`+cat+`"]}`).
			then("/api/discount-coupons/templates/{@data.guid}", "data.title=Jen stany", "data.products.0.guid="+prod),
		e("BulkUpdateDiscountCoupons").data(`{"coupons":[{"code":"`+cp+`","remark":"Prodlouženo"}]}`).
			then("/api/discount-coupons/"+cp, "data.coupon.remark=Prodlouženo"),
		e("UpdateDiscountCouponsUsage", "code", cpUse).data(`{"orderCode":"`+order+`"}`).then("/api/discount-coupons/"+cpUse, "data.coupon.usedCount=1"),
		e("BulkDeleteDiscountCoupons").data(`{"couponCodes":["` + cpBulkDel + `"]}`).gone("/api/discount-coupons/" + cpBulkDel),
		e("DeleteDiscountCoupon", "code", cpDel).gone("/api/discount-coupons/" + cpDel),
		e("DeleteDiscountCouponsTemplate", "guid", tplDel).gone("/api/discount-coupons/templates/" + tplDel),

		e("GetListOfQuantityDiscounts").want("data.discounts.#>0"),
		e("GetDetailOfQuantityDiscounts", "id", qd).want("data.discount.id=" + qd),
		e("CreateQuantityDiscount").data(`{"title":"2+ batohy","isActive":true,"targetingLevel":"product","targeting":{"productGuids":["`+prod+`"]},
			"settings":[{"amountFrom":2,"discountType":"percentual","discountValue":{"priceRatio":0.95}}]}`).
			then("/api/quantity-discounts/{@data.discount.id}", "data.discount.title=2+ batohy", "data.discount.status=active"),
		e("UpdateQuantityDiscount", "id", qd).data(`{"title":"3+ podložky"}`).then("/api/quantity-discounts/"+qd, "data.discount.title=3+ podložky"),
		e("DeleteQuantityDiscount", "id", qdDel).gone("/api/quantity-discounts/" + qdDel),
		e("GetListOfVolumeDiscounts").want("data.discounts.#>0"),

		e("GetListOfXYDiscounts").want("data.discounts.#>0"),
		e("GetDetailOfXYDiscounts", "id", xy).want("data.discount.id=" + xy),
		e("GetXYDiscountsSettings").want("data.categoryTargeting"),
		e("CreateXYDiscount").data(`{"title":"2 za cenu 1","xAmount":"2.000","yAmount":"1.000"}`).
			then("/api/xy-discounts/{@data.discount.id}", "data.discount.title=2 za cenu 1"),
		e("UpdateXYDiscount", "id", xy).data(`{"usageCount":20}`).then("/api/xy-discounts/"+xy, "data.discount.usageCount=20"),
		e("UpdateXYDiscountSettings").data(`{"enableMultipleDiscounts":true}`).then("/api/xy-discounts/settings", "data.enableMultipleDiscounts=true"),
		e("DeleteXYDiscount", "id", xy).gone("/api/xy-discounts/" + xy).last(),

		e("GetListOfProductsReviews").want("data.reviews.#>0"),
		e("CreateProductReview").data(`{"productGuid":"`+prod+`","rating":5,"description":"Výborný stan","fullName":"Jana Testová"}`).
			then("/api/reviews/products?productGuid="+prod, `data.reviews.#(description=="Výborný stan").rating=5`),
		e("UpdateProductReview", "reviewId", review).data(`{"visible":false}`).then("/api/reviews/products", `data.reviews.#(id==`+review+`).visible=false`),
		e("GetListOfProjectReviews").want("data.reviews.#>0"),
		e("CreateProjectReview").data(`{"rating":4,"description":"Rychlé doručení","fullName":"Karel Testový"}`).
			then("/api/reviews/project", `data.reviews.#(description=="Rychlé doručení").rating=4`),
		e("UpdateProjectReview", "reviewId", project).data(`{"description":"Opravdu rychlé"}`).
			then("/api/reviews/project", `data.reviews.#(id==`+project+`).description=Opravdu rychlé`),
		e("GetReviewsSettings").want("data.reviewsPerPage>0"),

		e("GetListOfDiscussionPosts").want("data.discussion.#>0"),
		e("GetDiscussionSettings").want("data.settings.#>0"),
		e("CreateDiscussionPosts").data(`[{"productGuid":"`+prod+`","name":"Tomáš","content":"Jaká je hmotnost?","title":"Hmotnost"}]`).
			then("/api/discussions-posts?productGuid="+prod, `data.discussion.#(title=="Hmotnost").content=Jaká je hmotnost?`),
		e("UpdateDiscussionPost", "id", post).data(`{"authorized":false}`).then("/api/discussions-posts", `data.discussion.#(id==`+post+`).authorized=false`),
		e("DeleteDiscussionById", "id", postDel).then("/api/discussions-posts", `!data.discussion.#(id==`+postDel+`)`),

		e("GetListingOfEmailDistributionLists").want("data.mailingLists.#>0"),
		e("GetDetailOfEmailDistributionList", "code", list).want("data.emails.#>0"),
		e("GetLastChangesInDistributionList", "code", list).q("from=2024-01-01T00:00:00%2B0100").first("POST", "/api/mailing-lists/"+list, map[string]any{"data": map[string]any{"emails": []any{"novy.odber@example.com"}}}).
			want(`data.changes.#(email=="novy.odber@example.com").changeType=add`),
		e("CreateEmailDistributionList").data(`{"name":"Akce a slevy"}`).then("/api/mailing-lists", `data.mailingLists.#(code=="akce-a-slevy").name=Akce a slevy`),
		e("CreateEmailsDistributionList", "code", list).data(`{"emails":["nova.adresa@example.org","neplatna-adresa"]}`).
			want("data.emailsInserted.0=nova.adresa@example.org", "data.emailsInvalid.0=neplatna-adresa").
			then("/api/mailing-lists/"+list+"?itemsPerPage=100", `data.emails.#(email=="nova.adresa@example.org").email=nova.adresa@example.org`),
		e("GetListingOfUnsubscribedEmails").want("data.unsubscribedEmails.#>0"),
		e("CreateUnsubscribedEmail").data(`{"email":"odhlaseny@example.com"}`).
			then("/api/unsubscribed-emails", `data.unsubscribedEmails.#(email=="odhlaseny@example.com").unsubscribedAt`),
	}
}

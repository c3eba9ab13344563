package registry

// contentRows: articles, article sections, pages, and the settings
// documents (one record each in "settings", identified by "_id").
func contentRows() []*Resource {
	return []*Resource{
		{
			Name: "articles", IDField: "id",
			Rename: map[string]string{"sourceImageName": "image", "sourceOgImageName": "ogImage"},
			Ops: []*Op{
				paged("GetListOfArticles", "articles"),
				create("CreateArticle", "article"),
				detail("GetDetailOfArticle", "articleId", "article"),
				update("UpdateArticle", "articleId", "article"),
				del("DeleteArticle", "articleId"),
			},
		},
		{
			Name: "article-sections", IDField: "id",
			Rename: map[string]string{"sourceImageName": "image", "sourceOgImageName": "ogImage"},
			// spec, Events: sectionArticle:* carry the article section id.
			Events: Events{Create: "sectionArticle:create", Update: "sectionArticle:update", Delete: "sectionArticle:delete"},
			Ops: []*Op{
				list("GetListOfArticleSections", "sections"),
				create("CreateArticleSection", "articleSection"),
				detail("GetDetailOfArticleSection", "articleSectionId", "articleSection"),
				update("UpdateArticleSection", "articleSectionId", "articleSection"),
				del("DeleteArticleSection", "articleSectionId").guard("force", "articles", "sectionIds"),
			},
		},
		{
			Name: "pages", IDField: "id",
			Rename: map[string]string{"sourceOgImageName": "ogImage", "description": "content"},
			Ops: []*Op{
				paged("GetListOfPages", "pages"),
				create("CreatePage", "page"),
				detail("GetDetailOfPage", "pageId", "page"),
				update("UpdatePage", "pageId", "page"),
				del("DeletePage", "pageId"),
			},
		},
		{
			// Settings documents: one record per area, identified by _id
			// (a sandbox key, never shown). Singleton endpoints read and
			// change them.
			Name: "settings", IDField: "_id",
			Ops: []*Op{
				single("GetEshopDesign", "eshop-design", ""),
				single("GetEshopDocumentSettings", "document-settings", ""),
				single("GetReviewsSettings", "reviews", ""),
				single("GetDiscussionSettings", "discussions", ""),
				single("GetXYDiscountsSettings", "xy-discounts", ""),
				{Operation: "UpdateXYDiscountSettings", Kind: Update, Fixed: "xy-discounts"},
			},
		},
	}
}

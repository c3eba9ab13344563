package conformance

// contentWrites: articles and their sections, pages, HTML inserts.
func contentWrites(f *fx) []*wentry {
	const (
		noArticleEvents = "the reference has events of article sections, none of articles"
		noContentLog    = "the reference has no change list of content"
	)
	// upload puts an image into the e-shop's files for the entry's
	// sourceImageName and sourceOgImageName.
	upload := func(e *wentry) *wentry {
		return e.pre("POST", "/api/system/file", map[string]any{"data": map[string]any{"name": "wc-content.png", "sourceUrl": pngURL}}).
			str("sourceImageName", "wc-content.png", "sourceOgImageName", "wc-content.png").
			differs("sourceImageName", "the uploaded file becomes the image (image)", "sourceOgImageName", "the uploaded file becomes the social image (ogImage)")
	}
	return []*wentry{
		upload(w("CreateArticleSection")).without("parentId", "a top-level section").keep("sec=data.articleSection.id").
			shows("/api/articles/sections/{sec}", "data.articleSection").
			emits("sectionArticle:create {sec}").unlogged(noContentLog),
		upload(w("UpdateArticleSection", "articleSectionId", "{sec}")).shows("/api/articles/sections/{sec}", "data.articleSection").
			emits("sectionArticle:update {sec}").unlogged(noContentLog),
		upload(w("CreateArticle")).raw("sectionIds", "[{sec}]").raw("defaultSectionId", "{sec}").keep("art=data.article.id").
			shows("/api/articles/{art}", "data.article").quiet(noArticleEvents).unlogged(noContentLog),
		upload(w("UpdateArticle", "articleId", "{art}")).raw("sectionIds", "[{sec}]").raw("defaultSectionId", "{sec}").
			shows("/api/articles/{art}", "data.article").quiet(noArticleEvents).unlogged(noContentLog),
		w("DeleteArticle", "articleId", "{art}").gone("/api/articles/{art}", "").quiet(noArticleEvents).unlogged(noContentLog),
		w("DeleteArticleSection", "articleSectionId", "{sec}").gone("/api/articles/sections/{sec}", "").
			emits("sectionArticle:delete {sec}").unlogged(noContentLog),

		upload(w("CreatePage")).unset("sourceImageName").keep("page=data.page.id").shows("/api/pages/{page}", "data.page").
			quiet("the reference has no page events").unlogged(noContentLog),
		upload(w("UpdatePage", "pageId", "{page}")).unset("sourceImageName").shows("/api/pages/{page}", "data.page").
			quiet("the reference has no page events").unlogged(noContentLog),
		w("DeletePage", "pageId", "{page}").gone("/api/pages/{page}", "").
			quiet("the reference has no page events").unlogged(noContentLog),

		w("CreateAndEditHtmlCodes").answers(200).str("snippets.0.location", "common-footer").
			showsFrom("data.snippets.0", "/api/template-include", `data.snippets.#(location=="common-footer")`).
			quiet("the reference has no template events").unlogged(noContentLog),
		w("DeleteHtmlCode", "location", "common-footer").gone("/api/template-include", `data.snippets.#(location=="common-footer")`).
			quiet("the reference has no template events").unlogged(noContentLog),
	}
}

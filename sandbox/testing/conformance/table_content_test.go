package conformance

// contentTable: articles, sections, pages and the e-shop's design and
// document settings.
func contentTable(f *fx) []*entry {
	art := f.v("articles", "0.id")
	artDel := f.v("articles", "#.id|@reverse|0")
	sec := f.v("article-sections", "0.id")
	secDel := f.v("article-sections", "#.id|@reverse|0")
	page := f.v("pages", "0.id")
	pageDel := f.v("pages", "#.id|@reverse|0")
	return []*entry{
		e("GetListOfArticles").want("data.articles.#>0"),
		e("GetDetailOfArticle", "articleId", art).want("data.article.id=" + art),
		e("CreateArticle").data(`{"title":"Jak sušit spacák","content":"<p>Pomalu.</p>","defaultSectionId":`+sec+`,"visible":true}`).
			then("/api/articles/{@data.article.id}", "data.article.title=Jak sušit spacák", "data.article.indexName=jak-susit-spacak"),
		e("UpdateArticle", "articleId", art).data(`{"metaTitle":"Výběr stanu"}`).then("/api/articles/"+art, "data.article.metaTitle=Výběr stanu"),
		e("DeleteArticle", "articleId", artDel).gone("/api/articles/" + artDel),
		e("GetListOfArticleSections").want("data.sections.#>0"),
		e("GetDetailOfArticleSection", "articleSectionId", sec).want("data.articleSection.id=" + sec),
		e("CreateArticleSection").data(`{"title":"Novinky","visible":true}`).then("/api/articles/sections/{@data.articleSection.id}", "data.articleSection.title=Novinky"),
		e("UpdateArticleSection", "articleSectionId", sec).data(`{"perexLimit":150}`).then("/api/articles/sections/"+sec, "data.articleSection.perexLimit=150"),
		e("DeleteArticleSection", "articleSectionId", secDel).gone("/api/articles/sections/" + secDel).last(),

		e("GetListOfPages").want("data.pages.#>0"),
		e("GetDetailOfPage", "pageId", page).want("data.page.id=" + page),
		e("CreatePage").data(`{"title":"Reklamace","description":"<p>Jak reklamovat.</p>","visible":true}`).
			then("/api/pages/{@data.page.id}", "data.page.title=Reklamace", "data.page.content=<p>Jak reklamovat.</p>"),
		e("UpdatePage", "pageId", page).data(`{"linkText":"Podmínky"}`).then("/api/pages/"+page, "data.page.linkText=Podmínky"),
		e("DeletePage", "pageId", pageDel).gone("/api/pages/" + pageDel),

		e("GetEshopInfo").want("data.contactInformation.eshopId=1001"),
		e("GetEshopMandatoryFields").want("data"),
		e("GetEshopDesign").want("data.template.name"),
		e("GetEshopDocumentSettings").want("data.order.codeLength>0"),
	}
}

// logisticsTable: stocks, shipping methods, shipments, carriers,
// shipping requests, sales channels.
func logisticsTable(f *fx) []*entry {
	stock := f.v("stocks", "0.id")
	supplyCode := f.v("stocks", "0._supplies.0.code")
	ship := f.v("shipping-methods", "0.guid")
	shipment := f.v("shipments", "0.guid")
	shipmentCancel := f.v("shipments", "#.guid|@reverse|0")
	carrier := f.v("carriers", "0.code")
	_ = carrier
	carrierType := f.v("carriers", "0.type")
	order := f.v("orders", "0.code")
	order2 := f.v("orders", "1.code")
	req := f.v("shipping-requests", "0.shippingRequestCode")
	reqShip := f.v("shipping-requests", "0._shippingGuid")
	sc := f.v("sales-channels", "0.guid")
	scID := f.v("sales-channels", "0.salesChannel.id")
	return []*entry{
		e("GetListOfStocks").want("data.stocks.#>0", "data.defaultStockId>0"),
		e("GetStockDetail", "stockId", stock).want("data.stock.id=" + stock),
		e("GetStockMovements", "stockId", stock).want("data.movements.#>0"),
		e("GetStockMovementsLastMove", "stockId", stock).want("data.lastId>0"),
		e("GetProductSuppliesInStock", "stockId", stock).want("data.supplies.#>0"),
		e("UpdateQuantityInStock", "stockId", stock).data(`[{"productCode":"`+supplyCode+`","amountChange":5}]`).
			then("/api/stocks/"+stock+"/movements?itemsPerPage=100&page=1", `data.movements.#(amountChange=="5.000").productCode=`+supplyCode),

		e("GetListOfShippingMethods").want("data.shippingMethods.#>0"),
		e("GetShippingMethodDetail", "guid", ship).want("data.guid=" + ship),
		e("CreateShippingMethod").data(`{"name":"Doručení kolem","description":"Kurýr na kole po Brně","shippingMethodCode":"bike","visibility":true}`).
			then("/api/shipping-methods/{@data.guid}", "data.name=Doručení kolem", "data.visible=true"),

		e("GetListOfShipments").want("data.items.#>0"),
		e("GetShipmentDetail", "guid", shipment).want("data.guid=" + shipment),
		e("GetListOfShipmentCarriers").want("data.shipmentCarriers.#>0"),
		e("GetShipmentCarrierDetail", "code", carrier, "type", carrierType).want("data.name"),
		e("GetShipmentShippingOptionsByOrderCode", "code", order).want("data.shippingOptions.#>0"),
		e("CreateShipment").data(`{"orderCode":"`+order+`","note":"Křehké"}`).then("/api/shipments/{@data.guid}", "data.orderCode="+order, "data.note=Křehké"),
		e("CreateShipmentByOrderCode", "code", order2).then("/api/shipments/{@data.guid}", "data.orderCode="+order2, "data.status=created"),
		e("ShipmentCancellationRequest", "guid", shipmentCancel).then("/api/shipments/"+shipmentCancel, "data.status=cancel-requested"),
		e("CloseCarrierShipments").first("POST", "/api/shipments/order/"+order2, nil, "closed=data.guid").
			first("GET", "/api/shipments/{closed}", nil, "code=data.serviceCode").
			then("/api/shipments/{closed}", "data.status=closed").last(),

		e("GetShippingRequestForCartDetails", "shippingRequestCode", req, "shippingGuid", reqShip).want("data.items.#>0"),
		e("GetShippingRequestForGettingOrderStatus", "shippingRequestCode", req, "shippingGuid", reqShip).want("data.status=pending"),
		e("UpdateShippingData", "shippingRequestCode", req, "shippingGuid", reqShip).
			data(`{"price":{"priceWithVat":"89.00","vatRate":"21.00"},"currency":"CZK","branchId":"BR-001","description":"Výdejní box"}`).
			want("data.verificationCode").then("/api/shipping-request/"+req+"/"+reqShip+"/status", "data.status=answered"),

		e("GetSalesChannels").want("data.salesChannels.#>0"),
		e("GetSalesChannelsDetail", "guid", sc).want("data.salesChannel.guid=" + sc),
		e("GetSalesChannelsDetailById", "id", scID).want("data.salesChannel.id=" + scID),
	}
}

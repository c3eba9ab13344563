package conformance

// orderTable: orders and their items, history, gifts, payment and
// shipping items, gift settings, payment methods and the payment-gateway
// flow (served by sandbox/shop/orders and sandbox/shop/payments).
func orderTable(f *fx) []*entry {
	o1 := f.v("orders", "0.code")
	o2 := f.v("orders", "1.code")
	o3 := f.v("orders", "2.code")
	oDel := f.v("orders", "#.code|@reverse|0")
	item := f.v("orders", "0.items.#(itemType==\"product\").itemId")
	itemDel := f.v("orders", "1.items.#(itemType==\"product\").itemId")
	spItem := f.v("orders", "5.items.0.itemId")
	spOrder := f.v("orders", "5.code")
	payItem := f.v("orders", "0.items.#(itemType==\"billing\").itemId")
	shipItem := f.v("orders", "0.items.#(itemType==\"shipping\").itemId")
	ship := f.v("shipping-methods", "1.guid")
	pay := f.v("payment-methods", "0.guid")
	card := f.v("payment-methods", "#(_online==true).guid")
	code := f.v("products", "0.variants.0.code")
	status := f.v("order-statuses", "statuses.1.id")
	sp := f.v("surcharge-parameters", "0.code")
	spValue := f.v("surcharge-parameters", "0.values.1.valueIndex")
	giftCode := f.v("products", "27.variants.0.code")
	newOrder := func(payment string) string {
		return `{"email":"objednavka@example.com","paymentMethodGuid":"` + payment + `","shippingGuid":"` + ship + `",
			"billingAddress":{"fullName":"Ivana Sandboxová","street":"Krátká","houseNumber":"3","city":"Brno","zip":"602 00","countryCode":"CZ"},
			"currency":{"code":"CZK"},
			"items":[{"itemType":"product","code":"` + code + `","amount":"1.000","vatRate":"21.00","itemPriceWithVat":"8990.00"},
				{"itemType":"shipping","name":"Kurýr","vatRate":"21.00","itemPriceWithVat":"99.00"},
				{"itemType":"billing","name":"Platba","vatRate":"21.00","itemPriceWithVat":"0.00"}]}`
	}
	return []*entry{
		e("GetListOfOrders").want("data.orders.#>0"),
		e("GetOrderDetail", "code", o1).want("data.order.code=" + o1),
		e("GetLastOrderChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetOrderClaims").want("data.orders"),
		e("GetListOfOrderSources").want("data.sources.#>0"),
		e("GetListOfOrderStatuses").want("data.statuses.#>0"),
		e("DownloadOrderAsPdf", "code", o1),
		e("CreateOrder").data(newOrder(pay)).then("/api/orders/{@data.order.code}", "data.order.email=objednavka@example.com"),
		e("OrderCopy", "code", o1).data(`{"scope":"all"}`).then("/api/orders/{@data.order.code}", "data.order.code!="+o1),
		e("UpdateOrderHead", "code", o1).data(`{"phone":"+420 777 000 111"}`).then("/api/orders/"+o1, "data.order.phone=+420 777 000 111"),
		e("UpdateOrderStatus", "code", o2).data(`{"statusId":`+status+`}`).then("/api/orders/"+o2, "data.order.status.id="+status),
		e("BulkOrderStatusChange").data(`{"orderCodes":["`+o3+`"],"statusId":`+status+`}`).then("/api/orders/"+o3, "data.order.status.id="+status),
		e("UpdateRemarksForOrder", "code", o1).data(`{"eshopRemark":"Zkontrolovat adresu"}`).
			then("/api/orders/"+o1+"?include=notes", "data.order.notes.eshopRemark=Zkontrolovat adresu"),
		e("DeleteOrder", "code", oDel).gone("/api/orders/" + oDel).last(),

		e("CreateOrderItem", "code", o1).data(`{"itemType":"product","code":"`+giftCode+`","amount":"1.000","vatRate":"21.00","itemPriceWithVat":"149.00"}`).
			then("/api/orders/"+o1, `data.order.items.#(code=="`+giftCode+`").itemPrice.withVat`),
		e("UpdateOrderItem", "code", o1, "id", item).data(`{"remark":"Zabalit zvlášť"}`).
			then("/api/orders/"+o1, `data.order.items.#(itemId==`+item+`).remark=Zabalit zvlášť`),
		e("DeleteOrderItem", "code", o2, "id", itemDel).then("/api/orders/"+o2, `!data.order.items.#(itemId==`+itemDel+`)`),
		e("CreateOrderItemSurchargeParameters", "code", spOrder, "id", spItem).data(`{"parameterCode":"`+sp+`","valueIndex":"`+spValue+`"}`).
			then("/api/orders/"+spOrder+"?include=surchargeParameters", `data.order.items.#(itemId==`+spItem+`).specificSurchargeParameters.#>0`),
		e("DeleteOrderItemSurchargeParameters", "code", spOrder, "id", spItem).
			first("POST", "/api/orders/"+spOrder+"/item/"+spItem+"/surcharge-parameters", map[string]any{"data": map[string]any{"parameterCode": sp, "valueIndex": spValue}},
				"relationId=data.order.items.#(itemId=="+spItem+").specificSurchargeParameters.0.relationId").
			then("/api/orders/"+spOrder, `!data.order.items.#(itemId==`+spItem+`).specificSurchargeParameters.#(relationId=="{relationId}")`).last(),

		e("GetListOfRemarksForOrder", "code", o1).want("data.orderHistory.#>0"),
		e("CreateOrderRemark", "code", o1).data(`{"text":"Zákazník volal kvůli termínu","type":"note"}`).
			then("/api/orders/"+o1+"/history", `data.orderHistory.#(text=="Zákazník volal kvůli termínu").type=note`),
		e("DeleteOrderHistoryItem", "code", o2).first("POST", "/api/orders/"+o2+"/history", map[string]any{"data": map[string]any{"text": "Dočasná poznámka", "type": "note"}}).
			first("GET", "/api/orders/"+o2+"/history", nil, `id=data.orderHistory.#(text=="Dočasná poznámka").id`).
			then("/api/orders/"+o2+"/history", `!data.orderHistory.#(id=={id})`),

		e("GetOrderGiftsList").want("data.items"),
		e("AddOrderGift").data(`{"code":"`+giftCode+`","currencyCode":"CZK","orderPrice":"2000.00","includingVat":true}`).
			then("/api/orders/gifts", `data.items.#(code=="`+giftCode+`").orderPrice=2000.00`),
		e("DeleteOrderGift").first("POST", "/api/orders/gifts", map[string]any{"data": map[string]any{"code": code, "currencyCode": "CZK", "orderPrice": "5000.00", "includingVat": true}},
			`id=data.items.#(code=="`+code+`").id`).then("/api/orders/gifts", `!data.items.#(id=={id})`),
		e("GetOrderGiftSettings").want("data.productGifts"),
		e("UpdateOrderGiftSettings").data(`{"stockDependent":true}`).then("/api/orders/gifts/settings", "data.stockDependent=true"),

		e("CreateOrderPayment", "code", o3).data(`{"guid":"`+pay+`","itemPriceWithVat":"30.00","vatRate":"21.00"}`).
			then("/api/orders/"+o3, `data.order.paymentMethods.#(paymentMethod.guid=="`+pay+`").paymentMethod.guid=`+pay),
		e("UpdateOrderPayment", "code", o1, "id", payItem).data(`{"itemPriceWithVat":"25.00","vatRate":"21.00"}`).
			then("/api/orders/"+o1, `data.order.items.#(itemId==`+payItem+`).itemPrice.withVat=25.00`),
		e("AddOrderShipping", "code", o3).data(`{"guid":"`+ship+`","itemPriceWithVat":"120.00","vatRate":"21.00"}`).
			then("/api/orders/"+o3, "data.order.shipping.guid="+ship),
		e("UpdateOrderShipping", "code", o1, "id", shipItem).data(`{"itemPriceWithVat":"79.00","vatRate":"21.00"}`).
			then("/api/orders/"+o1, `data.order.items.#(itemId==`+shipItem+`).itemPrice.withVat=79.00`),

		e("GetListingOfPaymentMethods").want("data.paymentMethods.#>0"),
		e("CreatePaymentMethod").data(`{"name":"Platba přes Sandbox Pay","paymentType":"card","visibility":false}`).
			then("/api/payment-methods", `data.paymentMethods.#(guid=="{@data.guid}").name=Platba přes Sandbox Pay`),
		e("DeletePaymentMethod").first("POST", "/api/payment-methods", map[string]any{"data": map[string]any{"name": "Dočasná platba", "paymentType": "card"}}, "guid=data.guid").
			then("/api/payment-methods", `!data.paymentMethods.#(guid=="{guid}")`),
		e("GetInformationAboutPayment").first("POST", "/api/orders", decode(`{"data":`+newOrder(card)+`}`), "paymentCode=data.order.paymentTransactions.0.transactionId").
			want("data.orderCode", "data.returnUrl"),
		e("UpdatePaymentStatus").first("POST", "/api/orders", decode(`{"data":`+newOrder(card)+`}`), "paymentCode=data.order.paymentTransactions.0.transactionId", "order=data.order.code").
			data(`{"status":"paid","message":"OK"}`).then("/api/orders/{order}?include=paymentTransactions", "data.order.paymentTransactions.0.status=paid", "data.order.paid=false"),
	}
}

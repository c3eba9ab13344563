package conformance

// logisticsWrites: stock movements, shipping methods, shipments and
// carriers, shipping requests.
func logisticsWrites(f *fx) []*wentry {
	logo := `{"content":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==","filename":"wc-logo.png"}`
	return []*wentry{
		w("UpdateQuantityInStock", "stockId", "{stock}").list("/api/stocks", "stock=data.stocks.0.id").
			list("/api/stocks/{stock}/supplies", "scode=data.supplies.0.code", "scode2=data.supplies.1.code", "scode3=data.supplies.2.code").
			list("/api/stocks/{stock}/movements/last", "lastMove=data.lastId").
			whole(`{"data":[{"productCode":"{scode}","amountChange":-2},{"productCode":"{scode2}","quantity":7},{"productCode":"{scode3}","realStock":11}]}`).
			showsFrom("data.1", "/api/stocks/{stock}/supplies?code={scode2}", "data.supplies.0",
				"data.supplies.0.amount=7.000").
			as("quantity", "amount").
			says("one row of each shape: amountChange -2, quantity 7 (the supply's amount), realStock 11").
			emits("stock:movement {stock}").unlogged("stock movements are their own list (GET /api/stocks/{stockId}/movements), not a change list"),

		w("CreateShippingMethod").set("logo", logo).keep("sm=data.guid").shows("/api/shipping-methods/{sm}", "data").
			differs("logo", "the logo is stored as a file; the method shows its address (logoUrl)").
			emits("shippingMethod:change {sm}").unlogged("the reference has no change list of shipping methods"),

		w("CreateShipment").list("/api/orders?itemsPerPage=5", "sorder=data.orders.2.code", "sorder2=data.orders.3.code").
			str("orderCode", "{sorder}").without("packages", "the order's own packaging").keep("sh=data.guid").
			differs("cod", "the reference answers cash on delivery as {value, currencyCode}").
			shows("/api/shipments/{sh}", "data").
			emits("shipment:create {sh}").unlogged("the reference has no change list of shipments"),
		w("CreateShipmentByOrderCode", "code", "{sorder2}").keep("sh2=data.guid").
			shows("/api/shipments/{sh2}", "data", "data.orderCode={sorder2}", "data.status=created").
			emits("shipment:create {sh2}").unlogged("the reference has no change list of shipments"),
		w("ShipmentCancellationRequest", "guid", "{sh}").shows("/api/shipments/{sh}", "data", "data.status=cancel-requested").
			emits("shipment:update {sh}").unlogged("the reference has no change list of shipments"),
		w("CloseCarrierShipments", "code", "{carrier}").list("/api/shipments/{sh2}", "carrier=data.serviceCode").
			shows("/api/shipments/{sh2}", "data", "data.status=closed").
			emits("shipment:update {sh2}").unlogged("the reference has no change list of shipments"),

		w("UpdateShippingData", "shippingRequestCode", f.v("shipping-requests", "0.shippingRequestCode"), "shippingGuid", f.v("shipping-requests", "0._shippingGuid")).
			shows("/api/shipping-request/"+f.v("shipping-requests", "0.shippingRequestCode")+"/"+f.v("shipping-requests", "0._shippingGuid")+"/status", "data",
				"data.status=answered").
			says("the cart's shipping request is answered").
			quiet("the reference's shipping request events are the e-shop's answer (confirmed, cancelled), not the carrier's data").
			unlogged("the reference has no change list of shipping requests"),
	}
}

package registry

// logisticsRows: stocks (movements and supplies held in the stock
// record), shipping methods, shipments and carriers, shipping requests
// and sales channels.
func logisticsRows() []*Resource {
	return []*Resource{
		{
			Name: "stocks", IDField: "id",
			Ops: []*Op{
				list("GetListOfStocks", "stocks"),
				detail("GetStockDetail", "stockId", "stock"),
			},
		},
		{
			// Movements live in their own collection (the order flow,
			// sandbox/shop/orders, writes them too), each naming its stock.
			Name: "stock-movements", IDField: "id",
			Ops: []*Op{
				{Operation: "GetStockMovements", Kind: List, Key: "movements", Var: "stockId", Requires: "stocks",
					PerPage: PerPage, MaxPerPage: MaxPerPage,
					Filters: []Filter{
						{Query: "stockId", Path: "_stockId", Op: Equal},
						{Query: "lastId", Path: "id", Op: After},
						{Query: "changeTimeFrom", Path: "changeTime", Op: TimeFrom},
						eq("orderCode", "orderCode"),
					}},
				action("UpdateQuantityInStock"),
				action("GetStockMovementsLastMove"),
			},
		},
		{
			Name: "stocks/supplies", IDField: "code",
			Parent: &Parent{Resource: "stocks", Var: "stockId", Field: "_supplies"},
			Ops: []*Op{
				paged("GetProductSuppliesInStock", "supplies",
					eq("productGuid", "productGuid"), eq("code", "code"),
					Filter{Query: "onlyWithClaim", Path: "claim", Op: NonZero},
					Filter{Query: "changedFrom", Path: "changeTime", Op: TimeFrom}),
			},
		},
		{
			Name: "shipping-methods", IDField: "guid",
			Rename: map[string]string{"visibility": "visible"},
			Events: Events{Create: "shippingMethod:change", Update: "shippingMethod:change", Delete: "shippingMethod:change"},
			Ops: []*Op{
				list("GetListOfShippingMethods", "shippingMethods"),
				create("CreateShippingMethod", ""),
				detail("GetShippingMethodDetail", "guid", ""),
			},
		},
		{
			// sandbox/shop/payments writes them (an add-on's method, the
			// operator's activation); every write is paymentMethod:change.
			Name: "payment-methods", IDField: "guid",
			Events: Events{Create: "paymentMethod:change", Update: "paymentMethod:change", Delete: "paymentMethod:change"},
		},
		{
			Name: "shipments", IDField: "guid",
			Events: Events{Create: "shipment:create", Update: "shipment:update"},
			Ops: []*Op{
				paged("GetListOfShipments", "items", eq("status", "status"), eq("orderCode", "orderCode")),
				{Operation: "CreateShipment", Kind: Action, Status: 201},
				detail("GetShipmentDetail", "guid", ""),
				{Operation: "CreateShipmentByOrderCode", Kind: Action, Status: 201},
				{Operation: "ShipmentCancellationRequest", Kind: Action, Status: 204},
				action("GetShipmentShippingOptionsByOrderCode"),
			},
		},
		{
			Name: "carriers", IDField: "code",
			Ops: []*Op{
				list("GetListOfShipmentCarriers", "shipmentCarriers", eq("type", "type")),
				action("GetShipmentCarrierDetail"),
				{Operation: "CloseCarrierShipments", Kind: Action, Status: 204},
			},
		},
		{
			Name: "shipping-requests", IDField: "shippingRequestCode",
			Ops: []*Op{
				action("GetShippingRequestForCartDetails"),
				action("UpdateShippingData"),
				action("GetShippingRequestForGettingOrderStatus"),
			},
		},
		{
			Name: "sales-channels", IDField: "guid", Alt: []string{"salesChannel.guid"},
			Events: Events{Create: "salesChannel:create", Update: "salesChannel:update", Delete: "salesChannel:delete"},
			Item:   salesChannelListItem,
			Ops: []*Op{
				list("GetSalesChannels", "salesChannels", eq("type", "salesChannel.type")),
				detail("GetSalesChannelsDetail", "guid", ""),
				detail("GetSalesChannelsDetailById", "id", "").by("salesChannel.id"),
			},
		},
	}
}

// orderRows: the collections the order flow owns (sandbox/shop/orders);
// the rows exist so fixtures load and the generic reads (list, detail,
// change log) serve orders; sandbox/shop/orders serves every write.
func orderRows() []*Resource {
	return []*Resource{
		{
			Name: "orders", IDField: "code", Def: "Order",
			Events: Events{Create: "order:create", Update: "order:update", Delete: "order:delete", MassCreate: "order:massCreate"},
			Item:   orderListItem,
			// sandbox/shop/orders records every order write in the log; the
			// generic changes handler serves it like every other log.
			ChangeKey: "code",
			Sections: []Section{
				{Name: "notes", Fields: []string{"notes"}},
				{Name: "shippingDetails", Fields: []string{"shippingDetails"}},
				{Name: "completion", Fields: []string{"completion"}},
				{Name: "paymentTransactions", Fields: []string{"paymentTransactions"}},
				{Name: "images", Fields: []string{"items[].mainImage"}},
				{Name: "surchargeParameters", Fields: []string{"items[].surchargeParameters"}},
			},
			Ops: []*Op{
				paged("GetListOfOrders", "orders", append([]Filter{
					eq("statusId", "status.id"),
					eq("shippingGuid", "shipping.guid"),
					eq("paymentMethodGuid", "paymentMethod.guid"),
					eq("customerGuid", "customerGuid"),
					eq("email", "email"),
					eq("phone", "phone"),
					{Query: "productCode", Path: "items.#.code", Op: Contains},
					eq("sourceId", "source.id"),
					{Query: "orderCodes", Path: "code", Op: OneOf},
					{Query: "codeFrom", Path: "code", Op: From},
					{Query: "codeTo", Path: "code", Op: To},
				}, append(timeFilters("creationTime", "creationTime"), timeFilters("changeTime", "changeTime")...)...)...),
				changes("GetLastOrderChanges"),
				detail("GetOrderDetail", "code", "order"),
				// sandbox/shop/orders serves the order rules; a batch line is one
				// POST /api/orders.
				creating("CreateOrder"),
				batch("OrderBatchInsertion", "CreateOrder", Create),
			},
		},
		// The orders' history entries (OrderHistorySnapshot: an entry plus
		// its orderCode); sandbox/shop/orders serves them.
		{Name: "order-history", IDField: "id"},
	}
}

package registry

// customerRows: customers, their accounts, delivery addresses and
// remarks (held in the customer record), groups and regions.
func customerRows() []*Resource {
	parent := func(field string) *Parent {
		return &Parent{Resource: "customers", Var: "guid", Field: field, Events: true}
	}
	return []*Resource{
		{
			Name: "customers", IDField: "guid", Def: "Customer",
			Refs: []Ref{
				{Field: "customerGroupCode", Into: "customerGroup", Resource: "customer-groups", Pick: []string{"id", "name"}},
				{Field: "pricelistId", Into: "priceList", Resource: "pricelists", Pick: []string{"id", "name"}},
			},
			Events:    Events{Create: "customer:create", Update: "customer:update", Delete: "customer:delete"},
			ChangeKey: "guid",
			Item:      customerListItem,
			Ops: []*Op{
				paged("GetListOfCustomers", "customers", Filter{Query: "email", Path: "accounts.#.email", Op: Contains}, Filter{Query: "phone", Path: "accounts.#.phone", Op: Contains}),
				create("CreateCustomer", "customer"),
				detail("GetCustomerDetail", "guid", "customer"),
				update("UpdateCustomer", "guid", "customer"),
				del("DeleteCustomer", "guid"),
				changes("GetLastCustomerChanges"),
			},
		},
		{
			Name: "customers/accounts", IDField: "guid", Parent: parent("accounts"),
			Ops: []*Op{
				paged("GetListOfCustomerAccounts", "accounts"),
				create("CreateCustomerAccount", "account"),
				detail("GetDetailOfCustomerAccount", "accountGuid", "account"),
				update("UpdateCustomerAccount", "accountGuid", "account"),
				del("DeleteCustomerAccount", "accountGuid"),
			},
		},
		{
			Name: "customers/delivery-addresses", IDField: "guid", Parent: parent("deliveryAddress"),
			Ops: []*Op{
				paged("GeListOfCustomerDeliveryAddresses", "deliveryAddresses"),
				create("CreateDeliveryAddress", "deliveryAddress"),
				detail("GetDetailOfCustomerDeliveryAddress", "addressGuid", "deliveryAddress"),
				update("UpdateCustomerDeliveryAddress", "addressGuid", "deliveryAddress"),
				del("DeleteCustomerDeliveryAddress", "addressGuid"),
			},
		},
		{
			Name: "customers/remarks", IDField: "id", Parent: parent("remarks"),
			Ops: []*Op{
				paged("GetListOfCustomerRemarks", "remarks"),
				create("CreateCustomerRemark", "remark"),
				detail("GetDetailOfCustomerRemark", "id", "remark"),
				update("UpdateCustomerRemark", "id", "remark"),
				del("DeleteCustomerRemark", "id"),
			},
		},
		{
			Name: "customer-groups", IDField: "id", Alt: []string{"customerGroupCode"},
			Events: Events{Create: "customerGroup:create", Update: "customerGroup:update", Delete: "customerGroup:delete"},
			Ops: []*Op{
				list("GetListOfCustomerGroups", "customerGroups"),
				create("CreateCustomerGroup", "customerGroups").answer(AnswerAll),
				update("UpdateCustomerGroup", "id", "customerGroups").answer(AnswerAll),
				del("DeleteCustomerGroup", "id"),
			},
		},
		{Name: "regions", IDField: "id", Ops: []*Op{list("GetListOfCustomerRegions", "regions")}},
	}
}

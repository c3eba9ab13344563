package conformance

// customerWrites: customers, their accounts, delivery addresses and
// remarks, and customer groups. A customer's parts are written through
// the customer: each emits customer:update and shows in its change log.
func customerWrites(f *fx) []*wentry {
	const logs = "/api/customers/changes"
	customer := func(e *wentry) *wentry {
		return e.list("/api/customers/groups", "cgroup=data.customerGroups.0.customerGroupCode", "cgroupID=data.customerGroups.0.id").
			list("/api/pricelists", "cpl=data.pricelists.0.id").
			str("customerGroupCode", "{cgroup}").raw("pricelistId", "{cpl}")
	}
	first := func(e *wentry) *wentry { return e.list("/api/customers", "cust=data.customers.0.guid") }
	return []*wentry{
		customer(w("CreateCustomer")).keep("cust=data.customer.guid").
			shows("/api/customers/{cust}", "data.customer", "data.customer.customerGroup.id={cgroupID}", "data.customer.priceList.id={cpl}",
				"data.customer.accounts.0.email=wc.createcustomer.email@example.com").
			emits("customer:create {cust}").logs(logs, "guid", "{cust}", "add"),
		customer(w("UpdateCustomer", "guid", "{cust}")).shows("/api/customers/{cust}", "data.customer").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("DeleteCustomer", "guid", "{cust}").gone("/api/customers/{cust}", "").
			emits("customer:delete {cust}").logs(logs, "guid", "{cust}", "delete"),

		first(w("CreateCustomerAccount", "guid", "{cust}")).keep("acc=data.account.guid").
			shows("/api/customers/{cust}/accounts/{acc}", "data.account").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("UpdateCustomerAccount", "guid", "{cust}", "accountGuid", "{acc}").shows("/api/customers/{cust}/accounts/{acc}", "data.account").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("DeleteCustomerAccount", "guid", "{cust}", "accountGuid", "{acc}").gone("/api/customers/{cust}/accounts/{acc}", "").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),

		first(w("CreateDeliveryAddress", "guid", "{cust}")).keep("addr=data.deliveryAddress.guid").
			shows("/api/customers/{cust}/delivery-addresses/{addr}", "data.deliveryAddress").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("UpdateCustomerDeliveryAddress", "guid", "{cust}", "addressGuid", "{addr}").
			shows("/api/customers/{cust}/delivery-addresses/{addr}", "data.deliveryAddress").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("DeleteCustomerDeliveryAddress", "guid", "{cust}", "addressGuid", "{addr}").
			gone("/api/customers/{cust}/delivery-addresses/{addr}", "").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),

		first(w("CreateCustomerRemark", "guid", "{cust}")).keep("rem=data.remark.id").
			shows("/api/customers/{cust}/remarks/{rem}", "data.remark").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("UpdateCustomerRemark", "guid", "{cust}", "id", "{rem}").shows("/api/customers/{cust}/remarks/{rem}", "data.remark").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),
		w("DeleteCustomerRemark", "guid", "{cust}", "id", "{rem}").gone("/api/customers/{cust}/remarks/{rem}", "").
			emits("customer:update {cust}").logs(logs, "guid", "{cust}", "edit"),

		w("CreateCustomerGroup").list("/api/orders/statuses", "cstatus=data.statuses.1.id").list("/api/pricelists", "cpl=data.pricelists.0.id").
			raw("defaultOrderStatusId", "{cstatus}", "defaultPricelistId", "{cpl}").
			keep(`grp=data.customerGroups.#(name=="WC CreateCustomerGroup name").id`).
			shows("/api/customers/groups", `data.customerGroups.#(id=={grp})`).
			emits("customerGroup:create {grp}").unlogged("the reference has no change list of customer groups"),
		w("UpdateCustomerGroup", "id", "{grp}").list("/api/orders/statuses", "cstatus2=data.statuses.2.id").
			raw("defaultOrderStatusId", "{cstatus2}", "defaultPricelistId", "{cpl}").shows("/api/customers/groups", `data.customerGroups.#(id=={grp})`).
			emits("customerGroup:update {grp}").unlogged("the reference has no change list of customer groups"),
		w("DeleteCustomerGroup", "id", "{grp}").gone("/api/customers/groups", `data.customerGroups.#(id=={grp})`).
			emits("customerGroup:delete {grp}").unlogged("the reference has no change list of customer groups"),
	}
}

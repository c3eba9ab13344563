package conformance

// customerTable: customers, accounts, delivery addresses, remarks,
// groups, regions.
func customerTable(f *fx) []*entry {
	c0 := f.v("customers", "0.guid")
	c1 := f.v("customers", "1.guid")
	cDel := f.v("customers", "14.guid")
	withRemark := f.v("customers", "#(remarks.#>0).guid")
	remark := f.v("customers", "#(remarks.#>0).remarks.0.id")
	withAddr := f.v("customers", "#(deliveryAddress.#>0).guid")
	addr := f.v("customers", "#(deliveryAddress.#>0).deliveryAddress.0.guid")
	multi := f.v("customers", "#(accounts.#>1).guid")
	acc := f.v("customers", "#(accounts.#>1).accounts.0.guid")
	accDel := f.v("customers", "#(accounts.#>1).accounts.1.guid")
	group := f.v("customer-groups", "0.id")
	groupCode := f.v("customer-groups", "0.customerGroupCode")
	groupDel := f.v("customer-groups", "#.id|@reverse|0")
	return []*entry{
		e("GetListOfCustomers").want("data.customers.#>0"),
		e("GetCustomerDetail", "guid", c0).want("data.customer.guid=" + c0),
		e("GetLastCustomerChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetListOfCustomerRegions").want("data.regions.#>0"),
		e("CreateCustomer").data(`{"billingAddress":{"fullName":"Alena Sandboxová","street":"Dlouhá","houseNumber":"1","city":"Praha","zip":"110 00","countryCode":"CZ"},
			"account":{"email":"alena.sandboxova@example.com","fullName":"Alena Sandboxová"},"customerGroupCode":"`+groupCode+`"}`).
			then("/api/customers/{@data.customer.guid}", "data.customer.billingAddress.fullName=Alena Sandboxová",
				"data.customer.accounts.0.email=alena.sandboxova@example.com", "data.customer.customerGroup.id="+group),
		e("UpdateCustomer", "guid", c0).data(`{"remark":"Preferuje doručení odpoledne."}`).then("/api/customers/"+c0, "data.customer.remark=Preferuje doručení odpoledne."),
		e("DeleteCustomer", "guid", cDel).gone("/api/customers/" + cDel),

		e("GetListOfCustomerAccounts", "guid", c0).want("data.accounts.#>0"),
		e("GetDetailOfCustomerAccount", "guid", multi, "accountGuid", acc).want("data.account.guid=" + acc),
		e("CreateCustomerAccount", "guid", c1).data(`{"email":"druhy.ucet@example.com","fullName":"Druhý účet","authorized":true}`).
			then("/api/customers/"+c1+"/accounts/{@data.account.guid}", "data.account.email=druhy.ucet@example.com", "data.account.mainAccount=false"),
		e("UpdateCustomerAccount", "guid", multi, "accountGuid", acc).data(`{"phone":"+420 700 000 001"}`).
			then("/api/customers/"+multi+"/accounts/"+acc, "data.account.phone=+420 700 000 001"),
		e("DeleteCustomerAccount", "guid", multi, "accountGuid", accDel).gone("/api/customers/" + multi + "/accounts/" + accDel),

		e("GeListOfCustomerDeliveryAddresses", "guid", withAddr).want("data.deliveryAddresses.#>0"),
		e("GetDetailOfCustomerDeliveryAddress", "guid", withAddr, "addressGuid", addr).want("data.deliveryAddress.guid=" + addr),
		e("CreateDeliveryAddress", "guid", c0).data(`{"fullName":"Petr Novotný","street":"Horní","houseNumber":"5","city":"Brno","zip":"602 00","countryCode":"CZ"}`).
			then("/api/customers/"+c0+"/delivery-addresses/{@data.deliveryAddress.guid}", "data.deliveryAddress.city=Brno"),
		e("UpdateCustomerDeliveryAddress", "guid", withAddr, "addressGuid", addr).data(`{"additional":"Zvonit dvakrát"}`).
			then("/api/customers/"+withAddr+"/delivery-addresses/"+addr, "data.deliveryAddress.additional=Zvonit dvakrát"),
		e("DeleteCustomerDeliveryAddress", "guid", withAddr, "addressGuid", addr).gone("/api/customers/" + withAddr + "/delivery-addresses/" + addr),

		e("GetListOfCustomerRemarks", "guid", withRemark).want("data.remarks.#>0"),
		e("GetDetailOfCustomerRemark", "guid", withRemark, "id", remark).want("data.remark.id=" + remark),
		e("CreateCustomerRemark", "guid", c0).data(`{"remark":"Stálý zákazník","rating":"positive"}`).
			then("/api/customers/"+c0+"/remarks/{@data.remark.id}", "data.remark.remark=Stálý zákazník"),
		e("UpdateCustomerRemark", "guid", withRemark, "id", remark).data(`{"rating":"neutral"}`).
			then("/api/customers/"+withRemark+"/remarks/"+remark, "data.remark.rating=neutral"),
		e("DeleteCustomerRemark", "guid", withRemark, "id", remark).gone("/api/customers/" + withRemark + "/remarks/" + remark),

		e("GetListOfCustomerGroups").want("data.customerGroups.#>0"),
		e("CreateCustomerGroup").data(`{"name":"Oddíly a kluby","wholesale":false,"registrationAllowed":true}`).
			then("/api/customers/groups", `data.customerGroups.#(name=="Oddíly a kluby").customerGroupCode=ODDILY_A_KLUBY`),
		e("UpdateCustomerGroup", "id", group).data(`{"description":"Maloobchodní zákazníci"}`).
			then("/api/customers/groups", `data.customerGroups.#(id==`+group+`).description=Maloobchodní zákazníci`),
		e("DeleteCustomerGroup", "id", groupDel).then("/api/customers/groups", `!data.customerGroups.#(id==`+groupDel+`)`),
	}
}

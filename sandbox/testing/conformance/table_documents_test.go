package conformance

// documentTable: invoices, proforma invoices, credit notes, delivery
// notes and proof payments.
func documentTable(f *fx) []*entry {
	inv := f.v("invoices", "0.code")
	inv2 := f.v("invoices", "1.code")
	inv3 := f.v("invoices", "2.code")
	inv3Item := f.v("invoices", "2.items.0.itemId")
	pro := f.v("proforma-invoices", "0.code")
	proFree := f.v("proforma-invoices", "#.code|@reverse|0")
	cn := f.v("credit-notes", "0.code")
	cn2 := f.v("credit-notes", "1.code")
	cn2Item := f.v("credit-notes", "1.items.0.itemId")
	cn2ItemDel := f.v("credit-notes", "1.items.1.itemId")
	dn := f.v("delivery-notes", "0.code")
	pp := f.v("proof-payments", "0.code")
	pp2 := f.v("proof-payments", "1.code")
	ppDel := f.v("proof-payments", "#.code|@reverse|0")
	ppOrder := f.v("proof-payments", "0.orderCode")
	ppProforma := f.v("proof-payments", "#(proformaInvoiceCode!=null).proformaInvoiceCode")
	unpaid := f.v("orders", "#(paid==false).code")
	order := f.v("orders", "0.code")
	return []*entry{
		e("GetListOfInvoices").q("isValid=true").want("data.invoices.#>0"),
		e("GetLastInvoiceChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetInvoiceDetail", "code", inv).want("data.invoice.code=" + inv),
		e("DownloadInvoiceAsPdf", "code", inv),
		e("DownloadInvoiceAsIsdoc", "code", inv),
		e("InvoiceLinkProformaInvoices", "code", inv).data(`{"proformaInvoiceCodes":["`+pro+`"]}`).
			then("/api/invoices/"+inv, "data.invoice.proformaInvoiceCodes.0="+pro),
		e("InvoiceLinkProofPayments", "code", inv2).data(`{"proofPaymentCodes":["`+pp2+`"]}`).
			then("/api/invoices/"+inv2, "data.invoice.proofPayments.0.code="+pp2),
		e("CreateInvoiceFromProformaInvoice", "code", proFree).data(`{"billingMethodId":2}`).
			then("/api/invoices/{@data.invoice.code}", "data.invoice.proformaInvoiceCodes.0="+proFree),
		e("CreateInvoiceFromOrder", "code", unpaid).data(`{}`).then("/api/invoices/{@data.invoice.code}", "data.invoice.orderCode="+unpaid),

		e("GetListOfProformaInvoices").want("data.proformaInvoices.#>0"),
		e("GetLastProformaInvoiceChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetProformaInvoiceDetail", "code", pro).want("data.proformaInvoice.code=" + pro),
		e("DownloadProformaInvoicePdf", "code", pro),
		e("CreateProformaInvoiceFromOrder", "code", order).data(`{}`).
			then("/api/proforma-invoices/{@data.proformaInvoice.code}", "data.proformaInvoice.orderCode="+order),

		e("GetListOfCreditNotes").want("data.creditNotes.#>0"),
		e("GetLastCreditNoteChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetCreditNoteDetail", "code", cn).want("data.creditNote.code=" + cn),
		e("DownloadCreditNotePdf", "code", cn),
		e("DownloadCreditNoteAsIsdoc", "code", cn),
		e("UpdateCreditNote", "code", cn).data(`{"reasonRemark":"Vráceno poškozené zboží","varSymbol":"123456"}`).
			then("/api/credit-notes/"+cn, "data.creditNote.reasonRemark=Vráceno poškozené zboží", "data.creditNote.varSymbol=123456"),
		e("CreateCreditNoteItem", "code", cn).data(`{"name":"Poštovné zpět","itemType":"shipping","price":"99.00","vatRate":"21.00","amount":"1.000"}`).code(201).
			then("/api/credit-notes/"+cn, `data.creditNote.items.#(name=="Poštovné zpět").itemPrice.withVat=99.00`),
		e("UpdateCreditNoteItem", "code", cn2, "id", cn2Item).data(`{"amount":"2.000"}`).
			then("/api/credit-notes/"+cn2, `data.creditNote.items.#(itemId==`+cn2Item+`).amount=2.000`),
		e("DeleteCreditNoteItem", "code", cn2, "id", cn2ItemDel).then("/api/credit-notes/"+cn2, `!data.creditNote.items.#(itemId==`+cn2ItemDel+`)`),
		e("RestockCreditNote", "code", cn).want("data.notes.#>0").then("/api/credit-notes/"+cn, "data.creditNote.restocked=true"),
		e("CreateCreditNoteFromInvoice", "code", inv3).data(`{"useItemIds":[`+inv3Item+`],"reasonRemark":"Vrácení"}`).
			then("/api/credit-notes/{@data.creditNote.code}", "data.creditNote.invoiceCode="+inv3, "data.creditNote.items.#=1"),
		e("CreateCreditNoteFromProofOfPayment", "code", pp).data(`{"reasonRemark":"Vrácení platby"}`).
			then("/api/credit-notes/{@data.creditNote.code}", "data.creditNote.proofPaymentCode="+pp),
		e("DeleteCreditNote", "code", cn2).gone("/api/credit-notes/" + cn2).last(),

		e("GetListOfDeliveryNotes").want("data.deliveryNotes.#>0"),
		e("GetDetailOfDeliveryNote", "code", dn).want("data.deliveryNote.code=" + dn),
		e("DownloadDeliveryNoteAsPdf", "code", dn),
		e("DeliveryNoteFromOrder", "code", unpaid).data(`{}`).then("/api/delivery-notes/{@data.deliveryNote.code}", "data.deliveryNote.orderCode="+unpaid),

		e("GetListOfProofPayments").want("data.items.#>0"),
		e("GetLastProofPaymentsChanges").q("from=2024-01-01T00:00:00%2B0100").want("data.changes.#>0"),
		e("GetProofPaymentDetail", "code", pp).want("data.proofPayments.code=" + pp),
		e("GetProofPaymentDetailByOrderCode", "code", ppOrder).want("data.proofPayments.#>0"),
		e("GetProofPaymentDetailByProformaInvoiceCode", "code", ppProforma).want("data.proofPayments.#>0"),
		e("DownloadProofOfPaymentPdf", "code", pp),
		e("DownloadProofPaymentAsIsdoc", "code", pp),
		e("CreateProofPayment").data(`{"orderCode":"`+unpaid+`","payment":"500.00","currencyCode":"CZK","varSymbol":"`+unpaid+`"}`).
			then("/api/proof-payments/{@data.proofPayments.code}", "data.proofPayments.payment=500.00", "data.proofPayments.orderCode="+unpaid),
		e("CreateProofPaymentByOrderCode", "code", unpaid).then("/api/proof-payments/{@data.proofPayments.code}", "data.proofPayments.orderCode="+unpaid),
		e("CreateProofPaymentByProformaInvoiceCode", "code", proFree).
			then("/api/proof-payments/{@data.proofPayments.code}", "data.proofPayments.proformaInvoiceCode="+proFree),
		e("UpdateProofPayment", "code", pp).data(`{"documentRemark":"Zaplaceno kartou","specSymbol":""}`).
			then("/api/proof-payments/"+pp, "data.proofPayments.documentRemark=Zaplaceno kartou"),
		e("ProofPaymentDocumentSettings", "code", pp2).data(`{"closed":false}`).then("/api/proof-payments/"+pp2, "data.proofPayments.closed=false"),
		e("DeleteProofPayment", "code", ppDel).gone("/api/proof-payments/" + ppDel).last(),
	}
}

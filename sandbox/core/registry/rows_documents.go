package registry

// documentRows: invoices, proforma invoices, credit notes, delivery notes
// and proof payments. The order flow (sandbox/shop/orders) writes new ones into
// these same collections; documents are read, changed and downloaded
// here.
func documentRows() []*Resource {
	created := timeFilters("creationTime", "creationTime")
	return []*Resource{
		{
			Name: "invoices", IDField: "code", Numbered: true, Def: "Invoice",
			Events:    Events{Create: "invoice:create", Update: "invoice:update", Delete: "invoice:delete", MassUpdate: "invoice:massUpdate"},
			ChangeKey: "code",
			Ops: []*Op{
				paged("GetListOfInvoices", "invoices", append([]Filter{
					eq("isValid", "isValid"),
					{Query: "proformaInvoiceCode", Path: "proformaInvoiceCodes", Op: Contains},
					{Query: "taxDateFrom", Path: "taxDate", Op: DateFrom},
					eq("orderCode", "orderCode"),
					{Query: "codeFrom", Path: "code", Op: From},
					{Query: "codeTo", Path: "code", Op: To},
					eq("varSymbol", "varSymbol"),
				}, created...)...),
				changes("GetLastInvoiceChanges"),
				detail("GetInvoiceDetail", "code", "invoice"),
				download("DownloadInvoiceAsPdf", "code", "pdf"),
				download("DownloadInvoiceAsIsdoc", "code", "isdoc"),
				action("InvoiceLinkProformaInvoices"),
				action("InvoiceLinkProofPayments"),
			},
		},
		{
			Name: "proforma-invoices", IDField: "code", Numbered: true, Def: "ProformaInvoice",
			Events:    Events{Create: "proformaInvoice:create", Update: "proformaInvoice:update", Delete: "proformaInvoice:delete"},
			ChangeKey: "code",
			Ops: []*Op{
				paged("GetListOfProformaInvoices", "proformaInvoices", append([]Filter{
					eq("isValid", "isValid"), eq("orderCode", "orderCode"), eq("varSymbol", "varSymbol"),
				}, created...)...),
				changes("GetLastProformaInvoiceChanges"),
				detail("GetProformaInvoiceDetail", "code", "proformaInvoice"),
				download("DownloadProformaInvoicePdf", "code", "pdf"),
				creating("CreateInvoiceFromProformaInvoice"),
			},
		},
		{
			Name: "credit-notes", IDField: "code", Numbered: true,
			Events:    Events{Create: "creditNote:create", Update: "creditNote:update", Delete: "creditNote:delete"},
			ChangeKey: "code",
			Ops: []*Op{
				paged("GetListOfCreditNotes", "creditNotes", append([]Filter{
					eq("isValid", "isValid"), eq("invoiceCode", "invoiceCode"), eq("varSymbol", "varSymbol"),
					eq("proofPaymentCode", "proofPaymentCode"),
				}, created...)...),
				changes("GetLastCreditNoteChanges"),
				detail("GetCreditNoteDetail", "code", "creditNote"),
				update("UpdateCreditNote", "code", "creditNote"),
				del("DeleteCreditNote", "code"),
				download("DownloadCreditNotePdf", "code", "pdf"),
				download("DownloadCreditNoteAsIsdoc", "code", "isdoc"),
				action("RestockCreditNote"),
				creating("CreateCreditNoteFromInvoice"),
				creating("CreateCreditNoteFromProofOfPayment"),
			},
		},
		{
			Name: "credit-notes/items", IDField: "itemId",
			Parent: &Parent{Resource: "credit-notes", Var: "code", Field: "items", Events: true},
			Ops: []*Op{
				create("CreateCreditNoteItem", "creditNote").answer(AnswerParent),
				update("UpdateCreditNoteItem", "id", "creditNoteItem"),
				del("DeleteCreditNoteItem", "id"),
			},
		},
		{
			Name: "delivery-notes", IDField: "code", Numbered: true,
			Events: Events{Create: "deliveryNote:create", Update: "deliveryNote:update", Delete: "deliveryNote:delete"},
			Ops: []*Op{
				paged("GetListOfDeliveryNotes", "deliveryNotes", eq("isValid", "isValid"), eq("orderCode", "orderCode")),
				detail("GetDetailOfDeliveryNote", "code", "deliveryNote"),
				download("DownloadDeliveryNoteAsPdf", "code", "pdf"),
			},
		},
		{
			Name: "proof-payments", IDField: "code", Numbered: true,
			Events:    Events{Create: "proofPayment:create", Update: "proofPayment:update", Delete: "proofPayment:delete"},
			ChangeKey: "code",
			Ops: []*Op{
				paged("GetListOfProofPayments", "items",
					eq("code", "code"), eq("orderCode", "orderCode"), eq("proformaInvoiceCode", "proformaInvoiceCode"),
					eq("invoiceCode", "invoiceCode"), eq("issueDate", "issueDate"),
					eq("isValid", "isValid"), eq("closed", "closed")),
				create("CreateProofPayment", "proofPayments"),
				changes("GetLastProofPaymentsChanges"),
				detail("GetProofPaymentDetailByOrderCode", "code", "proofPayments").by("orderCode"),
				creating("CreateProofPaymentByOrderCode"),
				detail("GetProofPaymentDetailByProformaInvoiceCode", "code", "proofPayments").by("proformaInvoiceCode"),
				creating("CreateProofPaymentByProformaInvoiceCode"),
				detail("GetProofPaymentDetail", "code", "proofPayments"),
				update("UpdateProofPayment", "code", "proofPayments"),
				del("DeleteProofPayment", "code"),
				action("ProofPaymentDocumentSettings"),
				download("DownloadProofOfPaymentPdf", "code", "pdf"),
				download("DownloadProofPaymentAsIsdoc", "code", "isdoc"),
			},
		},
	}
}

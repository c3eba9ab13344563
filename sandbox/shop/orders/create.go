package orders

import (
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

// Billing method names of the spec's code list, for e-shops whose payment
// methods do not name the form.
var billingNames = map[int64]string{1: "Cash on delivery", 2: "Wire transfer", 3: "Cash", 4: "Card"}

// Built-in order sources: the e-shop's storefront and the API (the
// sandbox's default for orders created through POST /api/orders).
var builtinSources = map[int64]string{1: "E-shop", 2: "API"}

// APISource is the source of orders created through the API.
const APISource = 2

// CreateOrder builds, checks and stores a new order from the data of
// POST /api/orders, with everything that follows: order:create, the
// invoice and delivery note, the stock movement, the confirmation e-mail
// and, for an online payment, the first payment code.
func (sh *Shop) CreateOrder(data map[string]any, f rules.Flags, ids *sandbox.IDs) (map[string]any, error) {
	cashDesk := data["cashDeskOrder"] == true
	rawItems, _ := data["items"].([]any)
	var list []*rules.Item
	for i, v := range rawItems {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, sandbox.Invalid("data.items["+strconv.Itoa(i)+"]", "Item %d must be an object.", i)
		}
		it, err := rules.ParseItem(i, m)
		if err != nil {
			return nil, err
		}
		list = append(list, it)
	}
	if err := rules.CheckRules(list, cashDesk); err != nil {
		return nil, err
	}

	currency, rate, err := sh.orderCurrency(data)
	if err != nil {
		return nil, err
	}
	lang := sh.Meta.DefaultLanguage
	if l := strings.TrimSpace(str(data["language"])); l != "" {
		if !slices.Contains(sh.Meta.Languages, l) {
			return nil, sandbox.Invalid("data.language", "Field data.language: %q is not a language of this e-shop; it has %s.", l, strings.Join(sh.Meta.Languages, ", "))
		}
		lang = l
	}
	pm, err := sh.method(PaymentMethods, data["paymentMethodGuid"], "data.paymentMethodGuid", "payment method", f[rules.FlagPayment] || cashDesk, rules.FlagPayment)
	if err != nil {
		return nil, err
	}
	sm, err := sh.method(ShippingMethods, data["shippingGuid"], "data.shippingGuid", "shipping method", f[rules.FlagShipping] || cashDesk, rules.FlagShipping)
	if err != nil {
		return nil, err
	}
	details, err := sh.shippingDetails(sm, data)
	if err != nil {
		return nil, err
	}

	mode := sh.StreetMode()
	ba, _ := crud.Clone(data["billingAddress"]).(map[string]any)
	rules.NormalizeStreet(ba, mode)
	da, _ := crud.Clone(data["deliveryAddress"]).(map[string]any)
	rules.NormalizeStreet(da, mode)
	if !f[rules.FlagMandatory] && !cashDesk {
		check := map[string]any{}
		for k, v := range data {
			check[k] = v
		}
		if ba != nil {
			check["billingAddress"] = ba
		}
		if da != nil {
			check["deliveryAddress"] = da
		}
		if missing := rules.MissingMandatory(sh.Fields, check); len(missing) > 0 {
			return nil, rules.MultiError(rules.MandatoryErrors(missing))
		}
	}

	orderStatus, orderGiven, err := sh.initialStatus(data, cashDesk)
	if err != nil {
		return nil, err
	}
	customer := strings.TrimSpace(str(data["customerGuid"]))
	if customer != "" {
		c, err := Get(sh.Tx, sh.ID, CustomersCollection, customer, "Customer")
		if err != nil {
			return nil, sandbox.Invalid("data.customerGuid", "Field data.customerGuid: customer %s does not exist in this e-shop.", customer)
		}
		if c["disabledOrders"] == true {
			// Spec: a customer whose orders are disabled has future orders canceled automatically.
			if st, ok := sh.Statuses.Canceled(); ok {
				orderStatus, orderGiven = st, true
			}
		}
	}
	itemStatus := make([]rules.Status, len(list))
	for i, it := range list {
		st, err := sh.Statuses.Get(sh.Statuses.ItemStatus(orderStatus, orderGiven, it.StatusID), it.Path("statusId"))
		if err != nil {
			return nil, err
		}
		itemStatus[i] = st
	}
	products, err := sh.lookupProducts(list, f[rules.FlagProducts])
	if err != nil {
		return nil, err
	}
	rules.PriceAll(list)
	statusOf := map[*rules.Item]rules.Status{}
	for i, it := range list {
		statusOf[it] = itemStatus[i]
	}
	if list, err = rules.DistributeCoupons(list); err != nil {
		return nil, err
	}

	code := strings.TrimSpace(str(data["code"]))
	if code != "" {
		if strings.ContainsAny(code, ":*?/") {
			return nil, sandbox.Invalid("data.code", "Field data.code must not contain ':', '*', '?' or '/'.")
		}
		if sh.Tx.Exists(sh.ID, Collection, code) {
			return nil, sandbox.Conflict("data.code", "An order with code %q already exists.", code)
		}
	} else if code, err = sh.NextCode(Collection); err != nil {
		return nil, err
	}
	created := sh.Time()
	ct, err := rules.DateTime(data["creationTime"], "data.creationTime")
	if err != nil {
		return nil, err
	}
	if ct != "" {
		created = ct
	}
	birthDate, err := rules.Date(data["birthDate"], "data.birthDate")
	if err != nil {
		return nil, err
	}
	stockID, err := sh.orderStock(data)
	if err != nil {
		return nil, err
	}
	source, err := sh.source(data)
	if err != nil {
		return nil, err
	}
	billingMethod, err := sh.billingMethod(data["billingMethodCode"], pm, "data.billingMethodCode")
	if err != nil {
		return nil, err
	}

	var recs []any
	var completion, payments, shippings []any
	for _, it := range list {
		id, err := sh.NextID(itemSeq)
		if err != nil {
			return nil, err
		}
		rec := sh.itemRecord(it, id, statusOf[it], products[it], stockID, pm, sm)
		recs = append(recs, rec)
		switch {
		case rules.IsGoods(it.Type):
			completion = append(completion, map[string]any{"amount": rec["amount"], "amountCompleted": rec["amountCompleted"], "amountUnit": rec["amountUnit"],
				"code": rec["code"], "itemId": id, "itemType": it.Type, "name": rec["name"], "parentProductSetItemId": nil,
				"productGuid": rec["productGuid"], "variantName": rec["variantName"]})
		case it.Type == rules.TypeBilling && pm != nil:
			payments = append(payments, map[string]any{"itemId": id, "paymentMethod": ref(pm)})
		case it.Type == rules.TypeShipping && sm != nil:
			shippings = append(shippings, map[string]any{"itemId": id, "shipping": ref(sm)})
		}
	}
	total := rules.Totals(list)
	paid := data["paid"] == true || orderStatus.MarkAsPaid
	addressesEqual, _ := data["addressesEqual"].(bool)
	if data["addressesEqual"] == nil {
		addressesEqual = da == nil
	}
	if da == nil && addressesEqual && ba != nil {
		da = map[string]any{}
		for _, k := range addressKeys {
			da[k] = ba[k]
		}
	}
	vatPayer := sh.InfoField("settings").Get("vatPayer").Bool()
	if v, ok := data["vatPayer"].(bool); ok {
		vatPayer = v
	}
	vatMode := any("Normal")
	if v := str(data["vatMode"]); v != "" {
		vatMode = v
	}
	o := map[string]any{
		"code": code, "guid": ids.UUID(), "adminUrl": "{eshop_url}/admin/orders/" + code + "/",
		"creationTime": created, "changeTime": created, "cashDeskOrder": cashDesk,
		"email": nullIfEmpty(strings.TrimSpace(str(data["email"]))), "phone": data["phone"], "birthDate": birthDate,
		"clientIPAddress": data["clientIPAddress"], "externalCode": data["externalCode"], "customerGuid": nullIfEmpty(customer),
		"salesChannelGuid": nullIfEmpty(str(data["salesChannelGuid"])), "language": lang, "referer": nil,
		"billingAddress": shape(ba, billingAddressKeys), "deliveryAddress": shapeOrNil(da, addressKeys), "addressesEqual": addressesEqual,
		"billingMethod": billingMethod, "paymentMethod": refOrNil(pm), "shipping": refOrNil(sm),
		"paymentMethods": orEmpty(payments), "shippings": orEmpty(shippings), "shippingDetails": details,
		"status": orderStatus.Ref(), "paid": paid, "source": source, "stockId": stockID,
		"vatMode": vatMode, "vatPayer": vatPayer, "preAuthorization": nil, "onlinePaymentLink": nil,
		"notes": sh.notes(data["notes"]), "completion": orEmpty(completion), "paymentTransactions": []any{},
		"items": recs,
		"price": map[string]any{"currencyCode": currency, "exchangeRate": rate, "invoicingExchangeRate": rate,
			"partialPaymentAmount": nil, "partialPaymentType": nil,
			"toPay": rules.Money(total.WithVat), "withVat": rules.Money(total.WithVat), "withoutVat": rules.Money(total.WithoutVat), "vat": rules.Money(total.Vat)},
	}
	if _, err := sh.AddHistory(o, HistoryCreated, "Order created through the API.", true); err != nil {
		return nil, err
	}
	// order:create and the add entry now, before the events of the stock
	// and the documents; the order is stored once, at the end.
	if err := sh.W.Changing(Collection, code, crud.Added); err != nil {
		return nil, err
	}
	if orderStatus.Canceled() {
		sh.Emit(EventCancel, code)
	}
	if !f[rules.FlagStock] && !orderStatus.Canceled() {
		if err := sh.TakeStock(o, stockID); err != nil {
			return nil, err
		}
	}
	if !f[rules.FlagDocuments] && !orderStatus.Canceled() {
		for _, k := range []DocKind{KindInvoice, KindDeliveryNote} {
			if _, err := sh.CreateDocument(k, o, DocOptions{}); err != nil {
				return nil, err
			}
		}
	}
	if sh.NeedsPayment(o) {
		if _, err := sh.CurrentPaymentCode(o, func() string { return ids.Token(32) }); err != nil {
			return nil, err
		}
		o["onlinePaymentLink"] = PaymentLink(code)
	}
	if !f[rules.FlagEmails] {
		if err := sh.SendMail(MailConfirmation, o, nil); err != nil {
			return nil, err
		}
	}
	if err := sh.W.Save(Collection, code, o, crud.Added); err != nil {
		return nil, err
	}
	return o, nil
}

// itemSeq names the item id sequence (primed above the fixtures' ids).
const itemSeq = "order-items"

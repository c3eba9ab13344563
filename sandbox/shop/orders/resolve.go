package orders

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/orders/rules"
)

func (sh *Shop) orderCurrency(data map[string]any) (string, string, error) {
	code := sh.Meta.DefaultCurrency
	var given map[string]any
	if c, ok := data["currency"].(map[string]any); ok {
		given = c
		if v := strings.TrimSpace(str(c["code"])); v != "" {
			code = strings.ToUpper(v)
		}
	}
	if !sh.Meta.HasCurrency(code) {
		return "", "", sandbox.Invalid("data.currency.code", "Field data.currency.code: %q is not a currency of this e-shop; it has %s.", code, strings.Join(sh.Meta.Currencies, ", "))
	}
	rate := sh.Currency(code).Get("exchangeRate").String()
	if v := strings.TrimSpace(str(given["exchangeRate"])); v != "" {
		rate = v
	}
	d, err := sandbox.ParseDecimal(rate)
	if rate == "" {
		d, err = decimal.NewFromInt(1), nil
	}
	if err != nil || !d.IsPositive() {
		return "", "", sandbox.Invalid("data.currency.exchangeRate", "Field data.currency.exchangeRate must be a positive decimal, not %q.", rate)
	}
	return code, sandbox.FormatDecimal(d, 8), nil
}

// method resolves a payment or shipping method GUID of the request.
func (sh *Shop) method(coll string, v any, field, what string, optional bool, flag string) (map[string]any, error) {
	guid := strings.TrimSpace(str(v))
	if guid == "" {
		if optional {
			return nil, nil
		}
		return nil, sandbox.Invalid(field, "Field %s is required; it may be null only in a historical order with %s=true (or in a cash-desk order).", field, flag)
	}
	raw, err := sh.Tx.GetShared(sh.ID, coll, guid)
	if errors.Is(err, sandbox.ErrNotFound) {
		return nil, sandbox.Invalid(field, "Field %s: no %s %s in this e-shop.", field, what, guid)
	}
	if err != nil {
		return nil, err
	}
	m, err := sh.settings.method(sh.ID, coll, guid, raw)
	if err != nil {
		return nil, err
	}
	if m["_active"] == false {
		return nil, sandbox.Invalid(field, "Field %s: %s %s is not active yet; the e-shop operator activates it (POST /_sandbox/eshops/%d/payment-methods/%s/activate).", field, what, guid, sh.ID, guid)
	}
	return m, nil
}

// shippingDetails checks shippingDetails.branchId against the shipping
// method's pickup points and builds the order's shippingDetails.
func (sh *Shop) shippingDetails(sm map[string]any, data map[string]any) (any, error) {
	req, _ := data["shippingDetails"].(map[string]any)
	branch := strings.TrimSpace(str(req["branchId"]))
	if sm == nil {
		if req == nil {
			return nil, nil
		}
		return map[string]any{"branchId": nullIfEmpty(branch), "name": req["branchName"], "carrierId": req["carrierId"], "city": nil, "countryCode": nil,
			"latitude": nil, "longitude": nil, "link": nil, "note": nil, "place": nil, "shippingCompanyCode": nil, "shippingServiceCode": nil, "street": nil, "zipCode": nil}, nil
	}
	branches, _ := sm["_branches"].([]any)
	switch {
	case len(branches) > 0 && branch == "":
		return nil, sandbox.Invalid("data.shippingDetails.branchId", "Field data.shippingDetails.branchId is required: shipping method %s delivers to pickup points (%s).", str(sm["name"]), joinAny(branches))
	case len(branches) > 0 && !slices.ContainsFunc(branches, func(b any) bool { return str(b) == branch }):
		return nil, sandbox.Invalid("data.shippingDetails.branchId", "Field data.shippingDetails.branchId: %q is not a pickup point of shipping method %s; it has %s.", branch, str(sm["name"]), joinAny(branches))
	case len(branches) == 0 && branch != "":
		return nil, sandbox.Invalid("data.shippingDetails.branchId", "Field data.shippingDetails.branchId: shipping method %s has no pickup points.", str(sm["name"]))
	}
	company, _ := sm["shippingCompany"].(map[string]any)
	var carrier, companyCode any
	if company != nil {
		carrier, companyCode = company["id"], company["code"]
	}
	if v, ok := req["carrierId"]; ok && v != nil {
		carrier = v
	}
	var name any
	if req != nil {
		name = req["branchName"]
	}
	return map[string]any{"branchId": nullIfEmpty(branch), "name": name, "carrierId": carrier, "shippingCompanyCode": companyCode,
		"shippingServiceCode": nil, "city": nil, "countryCode": nil, "latitude": nil, "longitude": nil, "link": nil, "note": nil,
		"place": nil, "street": nil, "zipCode": nil}, nil
}

// initialStatus is the order's status at creation: data.statusId, or the
// cash desk's default for cash-desk orders, or the e-shop's default.
func (sh *Shop) initialStatus(data map[string]any, cashDesk bool) (rules.Status, bool, error) {
	id, err := rules.StatusID(data["statusId"], "data.statusId")
	if err != nil {
		return rules.Status{}, false, err
	}
	if id != nil {
		st, err := sh.Statuses.Get(*id, "data.statusId")
		return st, true, err
	}
	def := sh.Statuses.Default
	if cashDesk {
		if v := sh.InfoField("cashDesk").Get("defaultOrderStatusId"); v.Exists() && v.Type != 0 {
			def = int(v.Int())
		}
	}
	st, err := sh.Statuses.Get(def, "data.statusId")
	return st, false, err
}

// lookupProducts applies item rule 3: every item with a code is looked
// up among the e-shop's products (and its productGuid must match); a
// product set must exist with contents. With suppressProductChecking
// nothing is verified, but known products still fill the item's texts.
func (sh *Shop) lookupProducts(list []*rules.Item, skip bool) (map[*rules.Item]*Product, error) {
	out := map[*rules.Item]*Product{}
	cat := sh.Catalog()
	for _, it := range list {
		if it.Code == "" && it.ProductGUID == "" {
			continue
		}
		var p *Product
		if it.Code != "" {
			var ok bool
			var err error
			if p, ok, err = cat.ByCode(it.Code); err != nil {
				return nil, err
			} else if !ok && !skip {
				return nil, sandbox.Invalid(it.Path("code"), "Field %s: product code %q does not exist in this e-shop (suppressProductChecking=true skips the check).", it.Path("code"), it.Code)
			}
		}
		if it.ProductGUID != "" {
			g, ok := cat.ByGUID(it.ProductGUID)
			switch {
			case !ok && !skip:
				return nil, sandbox.Invalid(it.Path("productGuid"), "Field %s: product %s does not exist in this e-shop.", it.Path("productGuid"), it.ProductGUID)
			case ok && p != nil && p.GUID != it.ProductGUID:
				if !skip {
					return nil, sandbox.Invalid(it.Path("productGuid"), "Field %s: code %q belongs to product %s, not %s (a mismatching code/GUID pair).", it.Path("productGuid"), it.Code, p.GUID, it.ProductGUID)
				}
			case ok && p == nil && it.Code == "":
				p = g
			}
		}
		if it.Type == rules.TypeProductSet && !skip {
			if p == nil || p.Get("type", "").String() != rules.TypeProductSet {
				return nil, sandbox.Invalid(it.Path("code"), "Field %s: %q is not a product set of this e-shop.", it.Path("code"), it.Code)
			}
			if len(p.Get("setItems", "").Array()) == 0 {
				return nil, sandbox.Invalid(it.Path("code"), "Field %s: product set %q has no contents defined.", it.Path("code"), it.Code)
			}
		}
		if p != nil {
			out[it] = p
		}
	}
	return out, nil
}

func (sh *Shop) orderStock(data map[string]any) (int64, error) {
	if v := data["stockId"]; v != nil {
		id, ok := intOf(v)
		if !ok || !sh.Tx.Exists(sh.ID, StocksCollection, strconv.FormatInt(id, 10)) {
			return 0, sandbox.Invalid("data.stockId", "Field data.stockId: stock %v does not exist in this e-shop.", v)
		}
		return id, nil
	}
	first := int64(1)
	_ = sh.Tx.Scan(sh.ID, StocksCollection, func(id string, _ []byte) bool {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil {
			first = n
		}
		return false
	})
	return first, nil
}

func (sh *Shop) source(data map[string]any) (map[string]any, error) {
	id := int64(APISource)
	if v := data["sourceId"]; v != nil {
		id, _ = intOf(v)
	}
	if name, ok := builtinSources[id]; ok {
		return map[string]any{"id": id, "name": name}, nil
	}
	for _, s := range Sources(sh) {
		if n, _ := intOf(s["id"]); n == id {
			return s, nil
		}
	}
	return nil, sandbox.Invalid("data.sourceId", "Field data.sourceId: order source %d does not exist (GET /api/orders/sources lists them).", id)
}

// Sources lists the e-shop's order sources: the built-in ones and those
// its orders carry.
func Sources(sh *Shop) []map[string]any {
	seen := map[int64]bool{}
	var out []map[string]any
	add := func(id int64, name any) {
		if !seen[id] {
			seen[id] = true
			out = append(out, map[string]any{"id": id, "name": name})
		}
	}
	for _, id := range []int64{1, 2} {
		add(id, builtinSources[id])
	}
	_ = sh.Tx.Scan(sh.ID, Collection, func(_ string, doc []byte) bool {
		src := gjsonGet(doc, "source")
		if src.Exists() && src.Get("id").Exists() {
			add(src.Get("id").Int(), src.Get("name").Value())
		}
		return true
	})
	slices.SortFunc(out, func(a, b map[string]any) int {
		x, _ := intOf(a["id"])
		y, _ := intOf(b["id"])
		return int(x - y)
	})
	return out
}

// billingMethod resolves a billing method code (1-4), or the payment
// method's form when none is given, to {id, name}.
func (sh *Shop) billingMethod(v any, pm map[string]any, field string) (any, error) {
	var id int64
	if v != nil {
		var ok bool
		if id, ok = intOf(v); !ok || billingNames[id] == "" {
			return nil, sandbox.Invalid(field, "Field %s must be 1 (cash on delivery), 2 (wire transfer), 3 (cash) or 4 (card).", field)
		}
	} else if pm != nil {
		pt, _ := pm["paymentType"].(map[string]any)
		id, _ = intOf(pt["id"])
		if billingNames[id] == "" {
			return nil, nil
		}
	} else {
		return nil, nil
	}
	return BillingMethodRef(sh, id), nil
}

// BillingMethodRef is {id, name} of a billing method, named like the
// e-shop's payment methods of that form.
func BillingMethodRef(sh *Shop, id int64) map[string]any {
	name := billingNames[id]
	_ = sh.Tx.Scan(sh.ID, PaymentMethods, func(_ string, doc []byte) bool {
		pt := gjsonGet(doc, "paymentType")
		if pt.Get("id").Int() == id && pt.Get("name").String() != "" {
			name = pt.Get("name").String()
			return false
		}
		return true
	})
	return map[string]any{"id": id, "name": name}
}

func (sh *Shop) notes(v any) map[string]any {
	req, _ := v.(map[string]any)
	texts := map[int64]any{}
	if list, ok := req["additionalFields"].([]any); ok {
		for _, f := range list {
			if m, ok := f.(map[string]any); ok {
				if i, ok := intOf(m["index"]); ok {
					texts[i] = m["text"]
				}
			}
		}
	}
	fields := []any{}
	for _, f := range sh.InfoField("orderAdditionalFields").Array() {
		i := f.Get("index").Int()
		fields = append(fields, map[string]any{"index": i, "label": f.Get("label").String(), "text": texts[i]})
	}
	return map[string]any{"additionalFields": fields, "customerRemark": req["customerRemark"], "eshopRemark": req["eshopRemark"],
		"trackingNumber": req["trackingNumber"], "trackingUrl": nil}
}

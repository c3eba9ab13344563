package storefront

import (
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// orderView is what the order pages show of an order record (the data
// of GET /api/orders/{code}).
type orderView struct {
	Code                            string
	Status                          string
	Items                           []lineView
	Shipping                        []lineView
	Payment                         []lineView
	Billing                         []string // address lines
	Delivery                        []string // nil when it equals the billing address
	WithoutVAT, VAT, WithVAT, ToPay string
}

// lineView is one order item.
type lineView struct {
	Name, Variant, Code string
	Quantity            string
	UnitPrice, Total    string
}

// summary is the order partial's data.
type summary struct {
	T     *locale.Messages
	Order orderView
}

// viewOrder reads an order record for the pages: amounts written the way
// the e-shop writes the order's currency, quantities with its decimal
// separator and unit.
func viewOrder(s *shop, o map[string]any) orderView {
	price, _ := o["price"].(map[string]any)
	cur := s.currency(str(price["currencyCode"]))
	v := orderView{Code: str(o["code"]), WithoutVAT: cur.Amount(str(price["withoutVat"])), VAT: cur.Amount(str(price["vat"])),
		WithVAT: cur.Amount(str(price["withVat"])), ToPay: cur.Amount(str(price["toPay"]))}
	if st, ok := o["status"].(map[string]any); ok {
		v.Status = str(st["name"])
	}
	items, _ := o["items"].([]any)
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		unit, _ := m["unitPrice"].(map[string]any)
		total, _ := m["itemPrice"].(map[string]any)
		line := lineView{Name: str(m["name"]), Variant: str(m["variantName"]), Code: str(m["code"]),
			Quantity:  quantity(str(m["amount"]), str(m["amountUnit"]), cur.Decimals),
			UnitPrice: cur.Amount(str(unit["withVat"])), Total: cur.Amount(str(total["withVat"]))}
		switch str(m["itemType"]) {
		case "shipping":
			v.Shipping = append(v.Shipping, line)
		case "billing":
			v.Payment = append(v.Payment, line)
		default:
			v.Items = append(v.Items, line)
		}
	}
	billing, _ := o["billingAddress"].(map[string]any)
	v.Billing = addressLines(billing)
	delivery, _ := o["deliveryAddress"].(map[string]any)
	if d := addressLines(delivery); len(d) > 0 && o["addressesEqual"] != true && strings.Join(d, "\n") != strings.Join(v.Billing, "\n") {
		v.Delivery = d
	}
	for _, extra := range []string{str(o["email"]), str(o["phone"])} {
		if extra != "" {
			v.Billing = append(v.Billing, extra)
		}
	}
	return v
}

// addressLines writes an address as its lines: name, company, street and
// number, postcode and city, country.
func addressLines(a map[string]any) []string {
	if a == nil {
		return nil
	}
	var out []string
	add := func(parts ...string) {
		var keep []string
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				keep = append(keep, p)
			}
		}
		if len(keep) > 0 {
			out = append(out, strings.Join(keep, " "))
		}
	}
	add(str(a["fullName"]))
	add(str(a["company"]))
	add(str(a["street"]), str(a["houseNumber"]))
	add(str(a["additional"]))
	add(str(a["zip"]), str(a["city"]))
	add(str(a["district"]))
	add(str(a["countryCode"]))
	return out
}

// quantity writes an amount ("2.000" as "2", "1.500" as "1,5" where the
// decimal separator is a comma) with its unit.
func quantity(amount, unit, sep string) string {
	d, err := decimal.NewFromString(amount)
	if err != nil {
		return strings.TrimSpace(amount + " " + unit)
	}
	s := d.String()
	if sep != "" && sep != "." {
		s = strings.Replace(s, ".", sep, 1)
	}
	if unit != "" {
		s += nbsp + unit
	}
	return s
}

const nbsp = "\u00a0"

// str reads a string value of a decoded record ("" for anything else).
func str(v any) string {
	s, _ := v.(string)
	return s
}

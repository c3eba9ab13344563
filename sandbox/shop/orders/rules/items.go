package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// Order item types of the spec's code list.
const (
	TypeProduct         = "product"
	TypeBazar           = "bazar"
	TypeService         = "service"
	TypeShipping        = "shipping"
	TypeBilling         = "billing"
	TypeDiscountCoupon  = "discount-coupon"
	TypeVolumeDiscount  = "volume-discount"
	TypeGift            = "gift"
	TypeGiftCertificate = "gift-certificate"
	TypeGenericItem     = "generic-item"
	TypeProductSet      = "product-set"
	TypeProductSetItem  = "product-set-item"
	TypeDeposit         = "deposit"
)

// ItemTypes is the spec's "Order item types" code list.
var ItemTypes = []string{TypeProduct, TypeBazar, TypeService, TypeShipping, TypeBilling, TypeDiscountCoupon,
	TypeVolumeDiscount, TypeGift, TypeGiftCertificate, TypeGenericItem, TypeProductSet, TypeProductSetItem, TypeDeposit}

// IsItemType reports whether t is an order item type of the code list.
func IsItemType(t string) bool { return slices.Contains(ItemTypes, t) }

// CodeRequired reports whether an item type needs a code (spec: product,
// bazar, service, gift, product-set).
func CodeRequired(t string) bool {
	return t == TypeProduct || t == TypeBazar || t == TypeService || t == TypeGift || t == TypeProductSet
}

// CodeUnused reports the types whose code the spec says is not used:
// billing, shipping, discount-coupon, volume-discount. A code sent with
// them is ignored, never looked up.
func CodeUnused(t string) bool {
	return t == TypeBilling || t == TypeShipping || t == TypeDiscountCoupon || t == TypeVolumeDiscount
}

// IsGoods reports the item types that are the goods of an order (what
// rule 1 calls the product, and what a coupon is distributed over).
func IsGoods(t string) bool {
	switch t {
	case TypeProduct, TypeBazar, TypeService, TypeGift, TypeGiftCertificate, TypeGenericItem, TypeProductSet, TypeProductSetItem, TypeDeposit:
		return true
	}
	return false
}

// MovesStock reports the item types whose amount leaves the stock.
func MovesStock(t string) bool {
	return t == TypeProduct || t == TypeBazar || t == TypeGift || t == TypeProductSet
}

// Item is one order item of a creation request, as parsed and priced.
type Item struct {
	Index       int    // position in data.items, for error instances
	Prefix      string // instance prefix of a single item's fields ("data"); "" for data.items[Index]
	Type        string
	Code        string
	ProductGUID string
	Name        string
	Pricing     Pricing
	RatioSent   bool
	StatusID    *int
	Fields      map[string]any // the request object, for the optional texts (remark, weight, ...)
	grossField  string         // the request field that gave the price with VAT
	netField    string         // the request field that gave the price without VAT

	Unit      Price
	Total     Price
	Breakdown []Price // itemPriceVatBreakdown; one entry unless a coupon was distributed
}

// Path is the instance of a field of this item in error messages.
func (it *Item) Path(field string) string {
	if it.Prefix != "" {
		return it.Prefix + "." + field
	}
	return fmt.Sprintf("data.items[%d].%s", it.Index, field)
}

// ParseItem reads one element of data.items (already schema-checked).
// Prices may be given as itemPriceWithVat / itemPriceWithoutVat (the
// spec's names) or as unitPriceWithVat / unitPriceWithoutVat (the
// reference's newer names; the item* names win when both are sent).
func ParseItem(i int, m map[string]any) (*Item, error) {
	return parseItem(&Item{Index: i, Fields: m})
}

// ParseSingleItem reads the data of a request that adds or changes one
// item (POST /api/orders/{code}/item and its siblings); errors name
// data.<field>.
func ParseSingleItem(m map[string]any) (*Item, error) {
	return parseItem(&Item{Prefix: "data", Fields: m})
}

func parseItem(it *Item) (*Item, error) {
	m := it.Fields
	it.Type = Text(m["itemType"])
	if !slices.Contains(ItemTypes, it.Type) {
		return nil, sandbox.Invalid(it.Path("itemType"), "Field %s: %q is not an order item type; use one of %s.",
			it.Path("itemType"), it.Type, strings.Join(ItemTypes, ", "))
	}
	it.Code = strings.TrimSpace(Text(m["code"]))
	if CodeUnused(it.Type) {
		it.Code = ""
	}
	if it.Code == "" && CodeRequired(it.Type) {
		return nil, sandbox.Invalid(it.Path("code"), "Field %s is required for items of type %s.", it.Path("code"), it.Type)
	}
	if !CodeUnused(it.Type) {
		it.ProductGUID = Text(m["productGuid"])
	}
	it.Name = strings.TrimSpace(Text(m["name"]))
	var err error
	if it.Pricing.VatRate, err = dec(m, "vatRate", it); err != nil {
		return nil, err
	}
	if m["vatRate"] == nil {
		return nil, sandbox.Invalid(it.Path("vatRate"), "Field %s is required (a decimal with 2 places, e.g. \"21.00\").", it.Path("vatRate"))
	}
	if it.Pricing.VatRate.IsNegative() || it.Pricing.VatRate.GreaterThanOrEqual(hundred) {
		return nil, sandbox.Invalid(it.Path("vatRate"), "Field %s must be between 0.00 and 99.99, not %s.", it.Path("vatRate"), it.Pricing.VatRate)
	}
	for _, pair := range [][2]string{{"itemPriceWithVat", "unitPriceWithVat"}, {"itemPriceWithoutVat", "unitPriceWithoutVat"}} {
		name := pair[0]
		if m[name] == nil || m[name] == "" {
			name = pair[1]
		}
		if m[name] == nil || m[name] == "" {
			continue
		}
		d, err := dec(m, name, it)
		if err != nil {
			return nil, err
		}
		if pair[0] == "itemPriceWithVat" {
			it.Pricing.WithVat, it.grossField = &d, name
		} else {
			it.Pricing.WithoutVat, it.netField = &d, name
		}
	}
	if it.Pricing.WithVat == nil && it.Pricing.WithoutVat == nil {
		return nil, sandbox.Invalid(it.Path("itemPriceWithVat"), "Field %s or %s is required: the item's unit price (the other is computed from vatRate).",
			it.Path("itemPriceWithVat"), it.Path("itemPriceWithoutVat"))
	}
	it.Pricing.Ratio = one
	if it.Type == TypeGift {
		it.Pricing.Ratio = decimal.Zero
	}
	if m["priceRatio"] != nil {
		if it.Pricing.Ratio, err = dec(m, "priceRatio", it); err != nil {
			return nil, err
		}
		it.RatioSent = true
		if it.Pricing.Ratio.IsNegative() {
			return nil, sandbox.Invalid(it.Path("priceRatio"), "Field %s must not be negative.", it.Path("priceRatio"))
		}
	}
	it.Pricing.Amount = one
	if m["amount"] != nil {
		if it.Pricing.Amount, err = dec(m, "amount", it); err != nil {
			return nil, err
		}
		if !it.Pricing.Amount.IsPositive() {
			return nil, sandbox.Invalid(it.Path("amount"), "Field %s must be greater than 0, not %s.", it.Path("amount"), it.Pricing.Amount)
		}
		if it.Pricing.Amount.Exponent() < -3 {
			return nil, sandbox.Invalid(it.Path("amount"), "Field %s has more than 3 decimal places.", it.Path("amount"))
		}
	}
	if it.StatusID, err = StatusID(m["statusId"], it.Path("statusId")); err != nil {
		return nil, err
	}
	return it, nil
}

// CheckRules applies the item rules that need no catalogue: rule 1 (a
// delivered order carries shipping, billing and goods; a cash-desk order
// needs no shipping or billing item), rules 5 and 7 (coupon and volume
// discount are 0 or negative), rule 8 (a gift costs 0.00 at ratio
// 0.0000).
func CheckRules(items []*Item, cashDesk bool) error {
	if len(items) == 0 {
		return sandbox.Invalid("data.items", "Field data.items must hold at least one order item.")
	}
	var shipping, billing, goods bool
	for _, it := range items {
		switch {
		case it.Type == TypeShipping:
			shipping = true
		case it.Type == TypeBilling:
			billing = true
		case IsGoods(it.Type):
			goods = true
		}
		switch it.Type {
		case TypeDiscountCoupon, TypeVolumeDiscount:
			for _, p := range []*decimal.Decimal{it.Pricing.WithVat, it.Pricing.WithoutVat} {
				if p != nil && p.IsPositive() {
					return sandbox.Invalid(it.Path(priceField(it)), "Item %d (%s) must carry a negative price (the discount) or 0, not %s.", it.Index, it.Type, p)
				}
			}
		case TypeGift:
			for _, p := range []*decimal.Decimal{it.Pricing.WithVat, it.Pricing.WithoutVat} {
				if p != nil && !p.IsZero() {
					return sandbox.Invalid(it.Path(priceField(it)), "Item %d is a gift: its price is 0.00, not %s.", it.Index, p)
				}
			}
			if !it.Pricing.Ratio.IsZero() {
				return sandbox.Invalid(it.Path("priceRatio"), "Item %d is a gift: its priceRatio is 0.0000, not %s.", it.Index, Ratio4(it.Pricing.Ratio))
			}
		}
	}
	if cashDesk {
		if !goods {
			return sandbox.Invalid("data.items", "A cash-desk order needs at least one goods item (product, bazar, service, ...).")
		}
		return nil
	}
	var missing []string
	if !shipping {
		missing = append(missing, "a shipping item")
	}
	if !billing {
		missing = append(missing, "a billing item")
	}
	if !goods {
		missing = append(missing, "a product item")
	}
	if len(missing) > 0 {
		return sandbox.Invalid("data.items", "An order with delivery contains at least three items: shipping, billing and product; this one lacks %s. Send cashDeskOrder true for an order without delivery.",
			strings.Join(missing, " and "))
	}
	return nil
}

// PriceAll computes every item's unit price, total and VAT breakdown.
func PriceAll(items []*Item) {
	for _, it := range items {
		it.Unit, it.Total = it.Pricing.Compute()
		it.Breakdown = []Price{it.Total}
	}
}

// Totals sums the items into the order's price.
func Totals(items []*Item) Price {
	var t Price
	for _, it := range items {
		t = t.Add(it.Total)
	}
	return t
}

func priceField(it *Item) string {
	if it.grossField != "" {
		return it.grossField
	}
	return it.netField
}

// dec reads a decimal field of an item; a value that is not a decimal
// answers 400 naming the field.
func dec(m map[string]any, name string, it *Item) (decimal.Decimal, error) {
	v := m[name]
	if v == nil {
		return decimal.Zero, nil
	}
	s := strings.TrimSpace(Text(v))
	d, err := decimal.NewFromString(s)
	if err != nil || s == "" {
		return decimal.Zero, sandbox.Invalid(it.Path(name), "Field %s must be a decimal number written as a string (e.g. \"121.00\"), not %s.", it.Path(name), quote(v))
	}
	return d, nil
}

package products

import "github.com/eshop-sandbox/sandbox/sandbox/core/crud"

// Hooks complete the registry's product rows for the generic handlers
// (crud.Deps.Hooks): a product's variants, flags, parameters and
// addresses (prepare.go, variants.go), the filtering and surcharge
// parameters (parameters.go), the products a product links to
// (related.go), and the price rows (prices.go).
func Hooks() []crud.Hook {
	return []crud.Hook{
		{Resource: "products", Prepare: prepareProduct, Deleted: dropPrices},
		{Resource: "pricelists/prices", Prepare: preparePrice},
		{Resource: "filtering-parameters", Prepare: prepareParameter},
		{Resource: "surcharge-parameters", Prepare: prepareSurcharge},
		{Resource: "products/alternative-products", Prepare: prepareProductLink},
		{Resource: "products/related-products", Prepare: prepareProductLink},
		{Resource: "products/gifts", Prepare: prepareGift},
		{Resource: "products/set-items", Prepare: prepareSetItem},
		{Resource: "products/related-files", Prepare: prepareRelatedFile},
	}
}

// str is a field that holds a string, else "".
func str(v any) string { s, _ := v.(string); return s }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]|0x20) + s[1:]
}

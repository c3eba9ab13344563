// Package catalog serves the product-catalogue endpoints whose behaviour
// the registry table cannot state: deleting one variant by its code,
// copying a product, the order of products in a category, and the
// parameters of parametric categories. It builds on the generic engine
// (sandbox/core/crud), so records, events and the change log stay consistent.
package catalog

import (
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
)

// Handlers returns the catalogue actions keyed by operation.
func Handlers(e *crud.Engine) map[string]api.HandlerFunc {
	h := &handlers{e: e}
	return map[string]api.HandlerFunc{
		"DeleteProductVariant":                     h.deleteVariant,
		"ProductCopy":                              h.copyProduct,
		"GetListOfProductsOrderInCategory":         h.categoryOrder,
		"UpdateProductOrderInCategory":             h.updateCategoryOrder,
		"GetParametricCategoryAvailableParameters": h.availableParameters,
		"CreateParametricCategoryDefinition":       h.defineParametric,
	}
}

type handlers struct{ e *crud.Engine }

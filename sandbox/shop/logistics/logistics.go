// Package logistics serves the stock, shipment and shipping-request
// endpoints whose behaviour the registry table cannot state: changing
// stock amounts (through the order flow's stock movements, so stock
// events and amounts stay one behaviour), the last movement, creating,
// cancelling and closing shipments, a carrier's detail, the shipping
// options of an order, and the cart shipping requests of carrier add-ons.
package logistics

import (
	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
)

// Handlers returns the logistics actions keyed by operation.
func Handlers(e *crud.Engine, site *eshop.Site, ids *sandbox.IDs) map[string]api.HandlerFunc {
	h := &handlers{e: e, site: site, ids: ids}
	return map[string]api.HandlerFunc{
		"UpdateQuantityInStock":                   h.updateQuantity,
		"GetStockMovementsLastMove":               h.lastMove,
		"CreateShipment":                          h.createShipment,
		"CreateShipmentByOrderCode":               h.createShipmentForOrder,
		"ShipmentCancellationRequest":             h.cancelShipment,
		"CloseCarrierShipments":                   h.closeCarrier,
		"GetShipmentShippingOptionsByOrderCode":   h.shippingOptions,
		"GetShipmentCarrierDetail":                h.carrierDetail,
		"GetShippingRequestForCartDetails":        h.requestDetail,
		"UpdateShippingData":                      h.updateShippingData,
		"GetShippingRequestForGettingOrderStatus": h.requestStatus,
	}
}

type handlers struct {
	e    *crud.Engine
	site *eshop.Site
	ids  *sandbox.IDs
}

func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return crud.IDString(v)
}

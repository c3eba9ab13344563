package system

import (
	"fmt"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
)

// NoModule declares that an endpoint group or operation needs no module.
// It is written out for every such group so that a new group of the
// reference cannot slip through undeclared (CheckModules).
const NoModule = "none"

// groupModules says which e-shop module each endpoint group of the
// catalogue needs (spec, private tokens rule 4: a missing module gives
// 403). The reference is silent on modules; where the sandbox chose, the
// module table of docs/api-behaviour.md says so. Every group is listed.
var groupModules = map[string]string{
	"AbandonedCarts":            NoModule,
	"AlternativeProducts":       NoModule,
	"Articles":                  NoModule,
	"Brands":                    NoModule,
	"Categories":                NoModule,
	"ConsumptionTaxes":          NoModule,
	"CreditNotes":               NoModule,
	"CustomerAccounts":          NoModule,
	"CustomerDeliveryAddresses": NoModule,
	"CustomerGroups":            NoModule,
	"CustomerRemarks":           NoModule,
	"Customers":                 NoModule,
	"Delivery":                  NoModule,
	"DeliveryNotes":             NoModule,
	"DiscountCoupons":           NoModule,
	"Discussions":               NoModule,
	"EmailDistributionLists":    NoModule,
	"Endpoints":                 NoModule,
	"Eshop":                     NoModule,
	"Exports":                   NoModule,
	"Files":                     NoModule,
	"FilteringParameters":       NoModule,
	"Flags":                     NoModule,
	"Gifts":                     NoModule,
	"Invoices":                  NoModule,
	"Jobs":                      NoModule,
	"MeasureUnits":              NoModule,
	"OrderGifts":                NoModule,
	"OrderHistory":              NoModule,
	"OrderItems":                NoModule,
	"OrderPayment":              NoModule,
	"OrderShipping":             NoModule,
	"Orders":                    NoModule,
	"Pages":                     NoModule,
	"ParametricCategories":      NoModule,
	"PaymentGateways":           NoModule,
	"PaymentMethods":            NoModule,
	"PriceLists":                eshop.ModulePriceLists,
	"ProductAvailabilities":     NoModule,
	"ProductGifts":              NoModule,
	"ProductImages":             NoModule,
	"ProductRelatedFiles":       NoModule,
	"ProductSets":               NoModule,
	"Products":                  NoModule,
	"ProformaInvoices":          NoModule,
	"ProofPayments":             NoModule,
	"QuantityDiscounts":         NoModule,
	"RecyclingFees":             NoModule,
	"RelatedProducts":           NoModule,
	"Reviews":                   NoModule,
	"SalesChannels":             NoModule,
	"ShippingMethods":           NoModule,
	"ShippingRequests":          NoModule,
	"Stocks":                    eshop.ModuleMultipleStocks,
	"Suppliers":                 NoModule,
	"SurchargeParameters":       NoModule,
	"Templates":                 NoModule,
	"Units":                     NoModule,
	"UnsubscribedEmails":        NoModule,
	"VariantParameters":         eshop.ModuleProductVariants,
	"VolumeDiscounts":           NoModule,
	"Warranties":                NoModule,
	"Webhooks":                  NoModule,
	"XYDiscounts":               NoModule,
}

// operationModules overrides the group's module for single operations:
// the products snapshot with price-list prices reads price lists.
var operationModules = map[string]string{
	"GetListOfAllProductsAndPricelistPrices": eshop.ModulePriceLists,
}

// ModuleOf returns the module an operation needs ("" when none) and
// whether the table declares the operation at all (its own entry or its
// group's).
func (c *Catalogue) ModuleOf(operation string) (module string, declared bool) {
	if m, ok := operationModules[operation]; ok {
		return orNone(m), true
	}
	e, ok := c.byOp[operation]
	if !ok {
		return "", false
	}
	m, ok := groupModules[e.Group]
	return orNone(m), ok
}

func orNone(m string) string {
	if m == NoModule {
		return ""
	}
	return m
}

// CheckModules refuses a module table that leaves an operation of the
// catalogue undeclared, names a group or operation the catalogue does not
// have, or names a module badly; the sandbox does not start with one.
func (c *Catalogue) CheckModules() error {
	var problems []string
	for _, e := range c.Endpoints {
		if _, ok := c.ModuleOf(e.Operation); !ok {
			problems = append(problems, fmt.Sprintf("operation %s (group %s) declares no module; add its group to groupModules (%q if none)", e.Operation, e.Group, NoModule))
		}
	}
	for g, m := range groupModules {
		if !c.HasGroup(g) {
			problems = append(problems, fmt.Sprintf("groupModules names group %s, which the catalogue does not have", g))
		}
		problems = append(problems, badModule("group "+g, m)...)
	}
	for op, m := range operationModules {
		if _, ok := c.byOp[op]; !ok {
			problems = append(problems, fmt.Sprintf("operationModules names operation %s, which the catalogue does not have", op))
		}
		problems = append(problems, badModule("operation "+op, m)...)
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("module table: %s", strings.Join(problems, "; "))
}

func badModule(what, m string) []string {
	if m == NoModule {
		return nil
	}
	if err := eshop.CheckModuleName(m); err != nil {
		return []string{fmt.Sprintf("%s: %v", what, err)}
	}
	if _, ok := eshop.KnownModules[m]; !ok {
		return []string{fmt.Sprintf("%s needs module %s, which eshop.KnownModules does not list", what, m)}
	}
	return nil
}

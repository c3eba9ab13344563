package system

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func catalogue(t *testing.T) *Catalogue {
	t.Helper()
	c, err := schemas.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return NewCatalogue(c)
}

// TestEveryOperationDeclaresItsModule: each of the reference's 328
// endpoints has a module in the table, or an explicit "none" through its
// group; the table names no group or operation the catalogue lacks.
func TestEveryOperationDeclaresItsModule(t *testing.T) {
	c := catalogue(t)
	if len(c.Endpoints) != 328 {
		t.Fatalf("the catalogue has %d endpoints, want the reference's 328", len(c.Endpoints))
	}
	for _, e := range c.Endpoints {
		m, ok := c.ModuleOf(e.Operation)
		if !ok {
			t.Errorf("%s %s (%s, group %s) declares no module", e.Method, e.Path, e.Operation, e.Group)
			continue
		}
		if m != "" {
			if _, known := eshop.KnownModules[m]; !known {
				t.Errorf("%s needs module %q, which is not a known module", e.Operation, m)
			}
		}
	}
	if len(groupModules) != len(c.Groups()) {
		t.Errorf("the table lists %d groups, the catalogue has %d", len(groupModules), len(c.Groups()))
	}
	if err := c.CheckModules(); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.ModuleOf("NoSuchOperation"); ok {
		t.Fatal("an unknown operation is declared")
	}
}

// TestModuleChoices pins the module of each gated group and of the one
// operation that differs from its group, as the table of docs/api-behaviour.md lists them.
func TestModuleChoices(t *testing.T) {
	c := catalogue(t)
	tests := []struct {
		operation, module string
	}{
		{"GetListOfPriceLists", eshop.ModulePriceLists},
		{"UpdatePricelistBatch", eshop.ModulePriceLists},
		{"GetListOfAllProductsAndPricelistPrices", eshop.ModulePriceLists},
		{"GetListOfStocks", eshop.ModuleMultipleStocks},
		{"UpdateQuantityInStock", eshop.ModuleMultipleStocks},
		{"GetListOfVariantParameters", eshop.ModuleProductVariants},
		{"GetListOfAllProducts", ""},
		{"GetListOfProducts", ""},
		{"GetListOfOrders", ""},
		{"GetEshopInfo", ""},
		{"GetListOfAvailableEndpoints", ""},
	}
	for _, tc := range tests {
		t.Run(tc.operation, func(t *testing.T) {
			m, ok := c.ModuleOf(tc.operation)
			if !ok || m != tc.module {
				t.Fatalf("module %q (declared %v), want %q", m, ok, tc.module)
			}
		})
	}
	gated := 0
	for _, e := range c.Endpoints {
		if m, _ := c.ModuleOf(e.Operation); m != "" {
			gated++
		}
	}
	if gated != 7+6+8+1 { // PriceLists, Stocks, VariantParameters and the snapshot with price-list prices
		t.Fatalf("%d operations need a module, want 22", gated)
	}
}

// TestCheckModulesRefusesGaps: a group left out, a group or operation the
// catalogue lacks and a misspelt module each stop the start, named.
func TestCheckModulesRefusesGaps(t *testing.T) {
	c := catalogue(t)
	tests := []struct {
		name   string
		change func() (undo func())
		want   string
	}{
		{"group left out", func() func() {
			old := groupModules["Stocks"]
			delete(groupModules, "Stocks")
			return func() { groupModules["Stocks"] = old }
		}, "operation GetListOfStocks (group Stocks) declares no module"},
		{"unknown group", func() func() {
			groupModules["NoSuchGroup"] = NoModule
			return func() { delete(groupModules, "NoSuchGroup") }
		}, "group NoSuchGroup, which the catalogue does not have"},
		{"unknown operation", func() func() {
			operationModules["NoSuchOperation"] = eshop.ModulePriceLists
			return func() { delete(operationModules, "NoSuchOperation") }
		}, "operation NoSuchOperation, which the catalogue does not have"},
		{"misspelt module", func() func() {
			old := groupModules["PriceLists"]
			groupModules["PriceLists"] = "priceLists"
			return func() { groupModules["PriceLists"] = old }
		}, `group PriceLists: module name "priceLists" is spelled "pricelists"`},
		{"module nobody knows", func() func() {
			old := groupModules["Orders"]
			groupModules["Orders"] = "ordersPro"
			return func() { groupModules["Orders"] = old }
		}, "group Orders needs module ordersPro, which eshop.KnownModules does not list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			undo := tc.change()
			err := c.CheckModules()
			undo()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
		})
	}
	if err := c.CheckModules(); err != nil {
		t.Fatalf("after undoing: %v", err)
	}
}

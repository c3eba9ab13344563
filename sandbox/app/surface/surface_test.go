package surface

import (
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// TestGatherRefusesTwoParts: an operation served by two parts of the
// surface (the generic table and an action package, or two packages)
// fails naming both; otherwise each operation records its part.
func TestGatherRefusesTwoParts(t *testing.T) {
	h := func(*api.Request) (any, error) { return nil, nil }
	_, owner, err := gather([]part{
		{TablePart, map[string]api.HandlerFunc{"GetListOfProducts": h}},
		{"catalog", map[string]api.HandlerFunc{"ProductCopy": h}},
	})
	if err != nil || owner["GetListOfProducts"] != TablePart || owner["ProductCopy"] != "catalog" {
		t.Fatalf("distinct parts: %v %v", owner, err)
	}
	_, _, err = gather([]part{
		{TablePart, map[string]api.HandlerFunc{"GetListOfProducts": h}},
		{"catalog", map[string]api.HandlerFunc{"GetListOfProducts": h}},
	})
	if err == nil || !strings.Contains(err.Error(), "GetListOfProducts is served by both table and catalog") {
		t.Fatalf("two parts: %v", err)
	}
}

// TestHooksCompleteTheTable: the shop areas' hooks and crud's own
// complete the registry: every row with downloads draws its document,
// every numbered row has its sequence, and no hook names a row or
// operation the table lacks or sets a field twice.
func TestHooksCompleteTheTable(t *testing.T) {
	reg, err := registry.New(registry.Rows())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crud.New(reg, crud.Deps{Hooks: Hooks()}); err != nil {
		t.Fatal(err)
	}
}

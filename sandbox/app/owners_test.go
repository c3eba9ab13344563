package app

import (
	"context"
	"strings"
	"testing"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// withModules runs Open with extra modules after the real ones.
func withModules(t *testing.T, extra ...ModuleFunc) (*App, error) {
	t.Helper()
	saved := modules
	modules = append(append([]ModuleFunc{}, saved...), extra...)
	defer func() { modules = saved }()
	a, err := Open(sandbox.Config{Addr: "127.0.0.1:0"}, nil)
	if err == nil {
		t.Cleanup(func() { _ = a.Close(context.Background()) })
	}
	return a, err
}

// TestOpenRefusesTwoOwners: a module serving an operation another module
// already serves stops Open, naming the operation and both modules.
func TestOpenRefusesTwoOwners(t *testing.T) {
	impostor := func(*Deps) (*Module, error) {
		return &Module{Name: "impostor", Handlers: map[string]api.HandlerFunc{
			"GetListOfProducts": func(*api.Request) (any, error) { return nil, nil },
		}}, nil
	}
	_, err := withModules(t, impostor)
	if err == nil || !strings.Contains(err.Error(), "GetListOfProducts is served by two modules: surface and impostor") {
		t.Fatalf("Open: %v", err)
	}
}

// TestOwnersOfTheLiveTable: Open records who serves each operation: the
// surface's generic table or action package, or another module.
func TestOwnersOfTheLiveTable(t *testing.T) {
	a, err := withModules(t)
	if err != nil {
		t.Fatal(err)
	}
	for op, want := range map[string]string{
		"GetListOfProducts":               "surface/table",
		"UpdateSurchargeParameter":        "surface/table",
		"UpdatePricelist":                 "surface/table",
		"UpdateProductOrderInCategory":    "surface/catalog",
		"CreateOrder":                     "orders",
		"ProductBatchUpdate":              "jobs",
		"GetOverviewOfRegisteredWebhooks": "webhooks",
	} {
		if o, ok := a.Owner(op); !ok || o.String() != want {
			t.Errorf("%s: owner %v (%v), want %s", op, o, ok, want)
		}
	}
	if n := len(a.Owners()); n != len(a.Catalogue.Endpoints) {
		t.Errorf("%d owners for %d endpoints", n, len(a.Catalogue.Endpoints))
	}
}

// TestActionWithoutOwner: a registry action no module serves fails,
// naming its row.
func TestActionWithoutOwner(t *testing.T) {
	reg, err := registry.New([]*registry.Resource{{Name: "gadgets", IDField: "id",
		Ops: []*registry.Op{{Operation: "PolishGadget", Kind: registry.Action}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := newOwners().check(reg); err == nil || !strings.Contains(err.Error(), "registry row gadgets: action PolishGadget") {
		t.Fatalf("check: %v", err)
	}
}

// TestOneWriteEngine: the jobs module writes batch lines and uploads with
// the engine the surface's endpoints write with, not one of its own.
func TestOneWriteEngine(t *testing.T) {
	var seen *Deps
	spy := func(d *Deps) (*Module, error) { seen = d; return &Module{Name: "spy"}, nil }
	if _, err := withModules(t, spy); err != nil {
		t.Fatal(err)
	}
	if seen.Engine == nil || seen.Jobs == nil {
		t.Fatalf("engine %p, jobs %p", seen.Engine, seen.Jobs)
	}
	if seen.Jobs.Engine != seen.Engine {
		t.Fatalf("engine %p, the jobs module's %p", seen.Engine, seen.Jobs.Engine)
	}
}

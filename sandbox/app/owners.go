package app

import (
	"fmt"
	"slices"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
)

// Owner says who serves a reference operation: the module, and inside a
// module made of parts (the surface: the generic table and the action
// packages) the part.
type Owner struct {
	Operation string `json:"operation"`
	Module    string `json:"module"`
	Part      string `json:"part,omitempty"`
}

// String is the owner as `sandbox routes` prints it: "surface/catalog",
// "orders".
func (o Owner) String() string {
	if o.Part == "" {
		return o.Module
	}
	return o.Module + "/" + o.Part
}

// owners gathers the modules' handlers so that every operation has
// exactly one owner: a second module serving an operation stops Open,
// naming both, whatever the order of the modules.
type owners struct {
	handlers map[string]api.HandlerFunc
	by       map[string]Owner
}

func newOwners() *owners {
	return &owners{handlers: map[string]api.HandlerFunc{}, by: map[string]Owner{}}
}

// add takes a module's handlers.
func (o *owners) add(m *Module) error {
	ops := make([]string, 0, len(m.Handlers))
	for op := range m.Handlers {
		ops = append(ops, op)
	}
	slices.Sort(ops) // the same message on every run
	for _, op := range ops {
		if prev, dup := o.by[op]; dup {
			return fmt.Errorf("operation %s is served by two modules: %s and %s", op, prev.Module, m.Name)
		}
		own := Owner{Operation: op, Module: m.Name}
		if m.Part != nil {
			own.Part = m.Part(op)
		}
		o.by[op] = own
		o.handlers[op] = m.Handlers[op]
	}
	return nil
}

// check refuses a registry action no module serves, naming its row.
func (o *owners) check(reg *registry.Registry) error {
	for _, row := range reg.Resources() {
		for _, op := range row.Ops {
			if op.Kind == registry.Action {
				if _, ok := o.by[op.Operation]; !ok {
					return fmt.Errorf("registry row %s: action %s has no handler in any module", row.Name, op.Operation)
				}
			}
		}
	}
	return nil
}

// Owners lists who serves each operation, sorted by operation.
func (a *App) Owners() []Owner {
	out := make([]Owner, 0, len(a.owners))
	for _, o := range a.owners {
		out = append(out, o)
	}
	slices.SortFunc(out, func(x, y Owner) int {
		if x.Operation < y.Operation {
			return -1
		}
		if x.Operation > y.Operation {
			return 1
		}
		return 0
	})
	return out
}

// Owner says who serves an operation (false for none).
func (a *App) Owner(operation string) (Owner, bool) {
	o, ok := a.owners[operation]
	return o, ok
}

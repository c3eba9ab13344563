package app

import (
	"github.com/eshop-sandbox/sandbox/sandbox/crud"
	"github.com/eshop-sandbox/sandbox/sandbox/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/pricelists"
	"github.com/eshop-sandbox/sandbox/sandbox/products"
)

// modules lists the behaviour packages, one line each. A later module's
// handler for an operation replaces an earlier one's, so the generic
// registry handlers come first and hand-written behaviour after them.
var modules = []ModuleFunc{
	func(d *Deps) (*Module, error) {
		h, err := crud.Handlers(d.Registry, crud.Deps{Store: d.Store, Site: d.Site})
		return &Module{Name: "crud", Handlers: h}, err
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "system", Handlers: d.Catalogue.Handlers()}, nil
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "eshop", Handlers: eshop.Handlers(d.Store, d.Site)}, nil
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "products", Handlers: products.Handlers(d.Store, d.Site)}, nil
	},
	func(d *Deps) (*Module, error) {
		return &Module{Name: "pricelists", Handlers: pricelists.Handlers(d.Store, d.Site)}, nil
	},
}

package control

import (
	"net/http"
	"slices"
	"sort"
	"strconv"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// modulesPath is where an e-shop's modules are switched; the fixtures'
// eshop.json activeModules are where a reset takes them back to.
const modulesPath = Prefix + "/eshops/{eshopId:[0-9]+}/modules"

// moduleRoutes let a test switch an e-shop's modules: which it has
// decides which endpoints answer 403 module-not-enabled, and whether the
// language parameter selects a translation.
func (c *controller) moduleRoutes() []api.Route {
	return []api.Route{
		{Operation: "sandbox.modules", Method: http.MethodGet, Path: modulesPath, Handler: c.modules, Public: true, NoContentType: true, Answer: ModulesView{},
			Summary: "An e-shop's active modules and the endpoints each module it lacks would open"},
		{Operation: "sandbox.modules.put", Method: http.MethodPut, Path: modulesPath, Handler: c.putModules, Public: true, NoContentType: true, Answer: ModulesView{},
			Summary: `Replace an e-shop's active modules: {"modules":["pricelists","multipleStocks"]}`, BodySchema: modulesBodySchema()},
		{Operation: "sandbox.module.put", Method: http.MethodPut, Path: modulesPath + "/{module}", Handler: c.switchModule(true), Public: true, NoContentType: true, Answer: ModulesView{}, Body: api.NoData{},
			Summary: "Switch one module on for an e-shop (no body)"},
		{Operation: "sandbox.module.delete", Method: http.MethodDelete, Path: modulesPath + "/{module}", Handler: c.switchModule(false), Public: true, NoContentType: true, Answer: ModulesView{},
			Summary: "Switch one module off for an e-shop"},
	}
}

// ModulesView is the data of the module routes.
type ModulesView struct {
	EshopID int `json:"eshopId"` // the e-shop
	// ActiveModules are as GET /api/eshop lists them.
	ActiveModules []eshop.ActiveModule `json:"activeModules"`
	// Required are the modules some endpoint needs, whether the e-shop has
	// them, and those endpoints.
	Required []RequiredModule `json:"required"`
}

// RequiredModule is a module some endpoints need.
type RequiredModule struct {
	Module     string   `json:"module"`     // the module's name
	Title      string   `json:"title"`      // its title
	Active     bool     `json:"active"`     // whether the e-shop has it
	Operations []string `json:"operations"` // the operations that need it
}

func (c *controller) modules(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	var active []eshop.ActiveModule
	err := c.d.Store.View(func(tx *store.Tx) (err error) {
		active, err = eshop.Modules(tx, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.modulesView(id, active), nil
}

func (c *controller) putModules(r *api.Request) (any, error) {
	id, _ := strconv.Atoi(r.Var("eshopId"))
	names, err := decodeModules(r.RawBody())
	if err != nil {
		return nil, err
	}
	return c.setModules(id, func([]eshop.ActiveModule) []string { return names })
}

// switchModule serves PUT (on) and DELETE (off) of one module; switching
// a module to the state it is in changes nothing.
func (c *controller) switchModule(on bool) api.HandlerFunc {
	return func(r *api.Request) (any, error) {
		id, _ := strconv.Atoi(r.Var("eshopId"))
		name := r.Var("module")
		if err := eshop.CheckModuleName(name); err != nil {
			return nil, sandbox.Invalid("module", "%s.", err.Error())
		}
		return c.setModules(id, func(old []eshop.ActiveModule) []string {
			var names []string
			for _, m := range old {
				if m.Name != name {
					names = append(names, m.Name)
				}
			}
			if on {
				names = append(names, name)
			}
			return names
		})
	}
}

// setModules replaces the modules with what change makes of the current
// ones, in one transaction.
func (c *controller) setModules(id int, change func([]eshop.ActiveModule) []string) (any, error) {
	var active []eshop.ActiveModule
	err := c.d.Store.Update(func(tx *store.Tx) error {
		old, err := eshop.Modules(tx, id)
		if err != nil {
			return err
		}
		active, err = eshop.SetModules(tx, id, change(old))
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.modulesView(id, active), nil
}

// modulesView joins the active modules to the live route table's module
// requirements.
func (c *controller) modulesView(id int, active []eshop.ActiveModule) ModulesView {
	ops := map[string][]string{}
	if c.d.Routes != nil {
		for _, rt := range c.d.Routes() {
			if rt.Module != "" {
				ops[rt.Module] = append(ops[rt.Module], rt.Operation)
			}
		}
	}
	names := make([]string, 0, len(ops))
	for m := range ops {
		names = append(names, m)
	}
	sort.Strings(names)
	v := ModulesView{EshopID: id, ActiveModules: active, Required: []RequiredModule{}}
	for _, m := range names {
		list := ops[m]
		sort.Strings(list)
		title := eshop.KnownModules[m]
		on := slices.ContainsFunc(active, func(a eshop.ActiveModule) bool { return a.Name == m })
		v.Required = append(v.Required, RequiredModule{Module: m, Title: title, Active: on, Operations: list})
	}
	return v
}

// decodeModules reads {"modules": [names]}, bare or inside "data".
func decodeModules(raw []byte) ([]string, error) {
	v, err := api.DecodeJSON(raw)
	if err != nil {
		return nil, err
	}
	in, ok := v.(map[string]any)
	if d, isData := in["data"].(map[string]any); isData && len(in) == 1 {
		in = d
	}
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "body", `Send a JSON object: {"modules": ["pricelists", "multipleStocks"]}.`)
	}
	for k := range in {
		if k != "modules" {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, k, `Unknown field %s: the body is {"modules": [names]}, the whole set of active modules.`, k)
		}
	}
	list, ok := in["modules"].([]any)
	if !ok {
		return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "modules", `Field modules must be an array of module names, e.g. ["pricelists"] ([] switches every module off).`)
	}
	if len(list) > eshop.MaxModules {
		return nil, sandbox.Invalid("modules", "%d modules; an e-shop may have at most %d.", len(list), eshop.MaxModules)
	}
	names := make([]string, 0, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, sandbox.Unprocessable(sandbox.CodeSchemaMismatch, "modules["+strconv.Itoa(i)+"]", "Each module is its name, a string.")
		}
		names = append(names, s)
	}
	return names, nil
}

// modulesBodySchema documents PUT /_sandbox/eshops/{eshopId}/modules in
// the control plane's OpenAPI document.
func modulesBodySchema() map[string]any {
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"modules"},
		"properties": map[string]any{
			"modules": map[string]any{
				"type":        "array",
				"maxItems":    eshop.MaxModules,
				"uniqueItems": true,
				"description": "The whole set of the e-shop's active modules (activeModules[].name of GET /api/eshop), e.g. pricelists, multipleStocks, productVariants, foreignLanguages.",
				"items":       map[string]any{"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9]{0,63}$"},
			},
		},
	}
}

package eshop

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// The e-shop modules (GET /api/eshop activeModules[].name) the sandbox
// gives a meaning: the ones some endpoint needs (sandbox/shop/system's module
// table) and the one that makes the language parameter effective. An
// e-shop may list any other name too; it changes nothing here.
const (
	ModuleForeignLanguages = "foreignLanguages" // the language query parameter selects a translation
	ModulePriceLists       = "pricelists"       // /api/pricelists and the price-list snapshot of products
	ModuleMultipleStocks   = "multipleStocks"   // /api/stocks
	ModuleProductVariants  = "productVariants"  // /api/products/variant-parameters
)

// KnownModules are the module names the sandbox knows with the English
// title a module switched on through the control plane gets: the four
// above and the other modules of the embedded fixtures. A name differing
// from one of them only in case is refused as a typo.
var KnownModules = map[string]string{
	ModuleForeignLanguages: "Foreign languages",
	ModulePriceLists:       "Price lists",
	ModuleMultipleStocks:   "Multiple stocks",
	ModuleProductVariants:  "Product variants",
	"foreignCurrencies":    "Foreign currencies",
	"wholesale":            "Wholesale",
	"bazaar":               "Bazaar",
}

// MaxModules bounds how many modules one e-shop may list.
const MaxModules = 100

// ActiveModule is one entry of GET /api/eshop activeModules.
type ActiveModule struct {
	Name  string `json:"name"`  // the module's name, e.g. pricelists
	Title string `json:"title"` // its title
}

var moduleName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,63}$`)

// CheckModuleName says what is wrong with a module name: its shape, or a
// spelling that differs from a known module's only in case (priceLists
// for pricelists), which would otherwise switch nothing on silently.
func CheckModuleName(name string) error {
	if !moduleName.MatchString(name) {
		return fmt.Errorf("module name %q must be a letter followed by up to 63 letters or digits, e.g. %s", name, ModulePriceLists)
	}
	if _, ok := KnownModules[name]; ok {
		return nil
	}
	for known := range KnownModules {
		if strings.EqualFold(known, name) {
			return fmt.Errorf("module name %q is spelled %q", name, known)
		}
	}
	return nil
}

// HasModule reports whether the e-shop has the module active.
func (m *Meta) HasModule(name string) bool { return slices.Contains(m.Modules, name) }

// ForeignLanguages reports whether the language parameter selects a
// translation (spec: effective only with the foreign-languages module).
func (m *Meta) ForeignLanguages() bool { return m.HasModule(ModuleForeignLanguages) }

// Gate refuses a call whose endpoint needs a module the e-shop does not
// have active (spec, private tokens rule 4: 403). The API server asks it
// once per request, right after the rights check, in either access mode.
type Gate struct {
	Store *store.Store
}

// CodeModuleNotEnabled is the errorCode of the 403 for a missing module;
// the spec names no code for it, so the sandbox has its own.
const CodeModuleNotEnabled = "module-not-enabled"

// RequireModule answers nil when e-shop id has module active, else the
// 403 naming the module (instance) and the endpoint.
func (g *Gate) RequireModule(id int, module, operation string) error {
	var meta *Meta
	err := g.Store.View(func(tx *store.Tx) (err error) {
		meta, err = Get(tx, id)
		return err
	})
	if err != nil {
		return err
	}
	if meta.HasModule(module) {
		return nil
	}
	title := KnownModules[module]
	if title == "" {
		title = module
	}
	return sandbox.Errorf(sandbox.KindForbidden, CodeModuleNotEnabled, module,
		"Endpoint %s needs the module %s (%s), which e-shop %d does not have active. The e-shop activates it in its administration; "+
			"in the sandbox: PUT /_sandbox/eshops/%d/modules.", operation, module, title, id, id)
}

// Modules returns the e-shop's active modules as GET /api/eshop lists them.
func Modules(tx *store.Tx, id int) ([]ActiveModule, error) {
	if !tx.Exists(store.Global, Collection, strconv.Itoa(id)) {
		return nil, notFound(id)
	}
	info, err := infoDoc(tx, id)
	if err != nil {
		return nil, err
	}
	var out []ActiveModule
	if raw, ok := info["activeModules"]; ok && raw != nil {
		b, err := json.Marshal(raw)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &out); err != nil {
			return nil, fmt.Errorf("e-shop %d activeModules: %w", id, err)
		}
	}
	if out == nil {
		out = []ActiveModule{}
	}
	return out, nil
}

// SetModules replaces the e-shop's active modules: the sandbox's summary
// (which the module gate and the language parameter read) and the
// activeModules of GET /api/eshop change together. A module keeps the
// title it had; a new one gets its known title, else its name. Names are
// checked (CheckModuleName), without duplicates, at most MaxModules.
func SetModules(tx *store.Tx, id int, names []string) ([]ActiveModule, error) {
	if len(names) > MaxModules {
		return nil, sandbox.Invalid("modules", "%d modules; an e-shop may have at most %d.", len(names), MaxModules)
	}
	seen := map[string]bool{}
	for i, n := range names {
		if err := CheckModuleName(n); err != nil {
			return nil, sandbox.Invalid(fmt.Sprintf("modules[%d]", i), "%s.", upperFirst(err.Error()))
		}
		if seen[n] {
			return nil, sandbox.Invalid(fmt.Sprintf("modules[%d]", i), "Module %s is listed twice.", n)
		}
		seen[n] = true
	}
	meta, err := Get(tx, id)
	if err != nil {
		return nil, err
	}
	old, err := Modules(tx, id)
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	for _, m := range old {
		titles[m.Name] = m.Title
	}
	out := make([]ActiveModule, 0, len(names))
	for _, n := range names {
		t := titles[n]
		if t == "" {
			t = KnownModules[n]
		}
		if t == "" {
			t = n
		}
		out = append(out, ActiveModule{Name: n, Title: t})
	}
	info, err := infoDoc(tx, id)
	if err != nil {
		return nil, err
	}
	info["activeModules"] = out
	raw, err := json.Marshal(info)
	if err != nil {
		return nil, err
	}
	if _, err := tx.Put(id, InfoCollection, "info", raw); err != nil {
		return nil, err
	}
	meta.Modules = slices.Clone(names)
	if meta.Modules == nil {
		meta.Modules = []string{}
	}
	return out, Put(tx, meta)
}

// infoDoc decodes the e-shop's GET /api/eshop document, numbers kept as
// written.
func infoDoc(tx *store.Tx, id int) (map[string]any, error) {
	raw, err := tx.Get(id, InfoCollection, "info")
	if errors.Is(err, sandbox.ErrNotFound) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("e-shop %d info: %w", id, err)
	}
	if doc == nil {
		doc = map[string]any{}
	}
	return doc, nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

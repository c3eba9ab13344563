package scenario

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
)

// addonUse is one place a scenario names an add-on: the addon section or
// an install step.
type addonUse struct {
	name  string
	eshop int // 0: not said
	field string
	pos   Pos
}

// collectAddons records where the scenario names add-ons, for CheckAddons.
func (sc *Scenario) collectAddons(loc *locator) {
	sc.addons = nil
	pos := func(at string) Pos {
		if n := loc.node(at); n != nil {
			return Pos{Line: n.Line, Column: n.Column}
		}
		return Pos{}
	}
	name, eshop := "", 0
	if a := sc.Addon; a != nil {
		name, eshop = a.Name, a.Eshop
		sc.addons = append(sc.addons, addonUse{name: a.Name, eshop: a.Eshop, field: "addon.name", pos: pos("/addon/name")})
	}
	for i, st := range sc.Steps {
		if st.Install == nil || st.Install.Addon == "" || st.Install.Addon == name && (st.Install.Eshop == 0 || st.Install.Eshop == eshop) {
			continue
		}
		e := st.Install.Eshop
		if e == 0 {
			e = eshop
		}
		at := "/steps/" + strconv.Itoa(i) + "/install/addon"
		sc.addons = append(sc.addons, addonUse{name: st.Install.Addon, eshop: e, field: fmt.Sprintf("steps[%d].install.addon", i), pos: pos(at)})
	}
}

// CheckAddons reports, with file:line:column, every add-on the scenario
// names that neither its fixtures configure (in that e-shop) nor its
// addon section defines (installUrl or url): the run would otherwise find
// no such add-on, or register one that may call nothing. `sandbox test`
// and `sandbox scenario validate` call it before anything starts.
func (sc *Scenario) CheckAddons() Problems {
	if len(sc.addons) == 0 {
		return nil
	}
	fsys, where := sc.fixturesFS()
	if fsys == nil {
		return nil // the runner says the folder is missing
	}
	var ps Problems
	for _, u := range sc.addons {
		if sc.Addon != nil && u.name == sc.Addon.Name && sc.Addon.Defines() && (u.eshop == 0 || u.eshop == sc.Addon.Eshop) {
			continue
		}
		ids := []int{u.eshop}
		if u.eshop == 0 {
			ids = seed.EshopIDs(fsys)
		}
		var known []string
		checked, found := false, false
		for _, id := range ids {
			names, ok := seed.AddonNames(fsys, id)
			if !ok {
				continue
			}
			checked = true
			known = append(known, names...)
			found = found || slices.Contains(names, u.name)
		}
		if !checked || found {
			continue
		}
		shop := "any e-shop"
		if u.eshop != 0 {
			shop = "e-shop " + strconv.Itoa(u.eshop)
		}
		fix := "; define it in the addon section with installUrl (or url) and it is registered for the run with every endpoint"
		if sc.Addon != nil && u.name == sc.Addon.Name {
			fix = "; define it here with installUrl (or url) and it is registered for the run with every endpoint"
		}
		have := "none"
		if len(known) > 0 {
			have = strings.Join(known, ", ")
		}
		ps = append(ps, Problem{File: sc.File, Line: u.pos.Line, Column: u.pos.Column,
			Message: fmt.Sprintf("%s: add-on %q is not in the %s fixtures of %s (they have: %s)%s", u.field, u.name, where, shop, have, fix)})
	}
	return ps
}

// fixturesFS is the fixture set the scenario's sandbox is seeded from,
// and how to name it (nil when the folder cannot be read).
func (sc *Scenario) fixturesFS() (fs.FS, string) {
	if sc.Sandbox == nil || sc.Sandbox.Fixtures == "" || sc.Sandbox.Fixtures == "embedded" {
		return fixtures.FS, "embedded"
	}
	dir := sc.Sandbox.Fixtures
	if !filepath.IsAbs(dir) && sc.File != "" {
		dir = filepath.Join(filepath.Dir(sc.File), dir)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, ""
	}
	return os.DirFS(dir), dir
}

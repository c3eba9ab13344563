package scenario

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The variables the runner fills itself, for ${NAME} in the add-on's url,
// command, dir and env and in call and expectRequest steps. Any other
// name must come from `sandbox test --var NAME=VALUE` or the environment.
const (
	VarSandboxURL  = "SANDBOX_URL"  // the scenario's sandbox, e.g. http://127.0.0.1:41234
	VarSandboxBin  = "SANDBOX_BIN"  // the sandbox program itself: ${SANDBOX_BIN} example-addon starts the example add-on
	VarAddonPort   = "ADDON_PORT"   // a free loopback port for the add-on
	VarAddonURL    = "ADDON_URL"    // addon.url expanded (only when addon.url is given)
	VarEshopURL    = "ESHOP_URL"    // the address of addon.eshop (only when addon.eshop is given)
	VarScenarioDir = "SCENARIO_DIR" // the scenario file's folder, absolute
	// VarScenarioTmp is a fresh empty folder of the run's own, removed when
	// it ends: an add-on keeps its files and database there, so two runs
	// of it side by side (sandbox test runs scenarios in parallel) never
	// share one.
	VarScenarioTmp = "SCENARIO_TMP"
	// VarHeaderPrefix is the brand word the run's sandbox speaks
	// (sandbox.headerPrefix, or sandbox test --header-prefix; Service by
	// default), so an add-on that can be told its word reads it here.
	VarHeaderPrefix = "SANDBOX_HEADER_PREFIX"
)

// What the add-on under test needs to know, as `sandbox addon add
// --output env` prints it: set (and put in the command's environment)
// when the scenario gives addon.eshop.
const (
	VarAddonEshop        = "SANDBOX_ESHOP"         // the e-shop's id
	VarAddonEshopURL     = "SANDBOX_ESHOP_URL"     // {eshop_url}
	VarAddonOAuthURL     = "SANDBOX_OAUTH_URL"     // the OAuth server: {eshop_url}/action/ApiOAuthServer/token
	VarAddonClientID     = "SANDBOX_CLIENT_ID"     // the add-on's OAuth client id
	VarAddonClientSecret = "SANDBOX_CLIENT_SECRET" // the add-on's OAuth client secret
	VarAddonName         = "SANDBOX_ADDON"         // the add-on's name
)

// AddonVars lists the add-on's variables, in the order messages name them.
var AddonVars = []string{VarAddonEshop, VarAddonEshopURL, VarAddonOAuthURL, VarAddonClientID, VarAddonClientSecret, VarAddonName}

// RunnerVars lists the variables the runner fills, in the order messages
// name them.
var RunnerVars = append([]string{VarSandboxURL, VarSandboxBin, VarHeaderPrefix, VarAddonPort, VarAddonURL, VarEshopURL, VarScenarioDir, VarScenarioTmp}, AddonVars...)

// VarPattern matches ${NAME}: braces required, so a lone $ stays as written.
var VarPattern = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// VarUse is one ${NAME} in a scenario file, where the runner will expand
// it.
type VarUse struct {
	Name  string
	Field string // faults-style path, e.g. addon.command[0]
	Pos   Pos
}

// expandedFields are the locations whose strings the runner expands (see
// the runner's expand calls).
var expandedFields = regexp.MustCompile(`^/addon/(url|installUrl|webhookUrl|clientId|clientSecret|dir|command/\d+|env/[^/]+)$` +
	`|^/steps/\d+/call/(path|header/[^/]+|body(/.*)?|expect/body(/.*)?)$` +
	`|^/steps/\d+/expectRequest/(header/[^/]+|body(/.*)?)$`)

// collectVars finds every ${NAME} in the expanded fields, in file order.
func collectVars(loc *locator) []VarUse {
	var out []VarUse
	for at, n := range loc.values {
		if n.Kind != yaml.ScalarNode || !expandedFields.MatchString(at) {
			continue
		}
		for _, m := range VarPattern.FindAllStringSubmatchIndex(n.Value, -1) {
			p := Pos{Line: n.Line, Column: n.Column}
			if !strings.Contains(n.Value[:m[0]], "\n") && (n.Style == 0 || n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle) {
				p.Column += m[0]
				if n.Style != 0 {
					p.Column++ // the opening quote
				}
			}
			out = append(out, VarUse{Name: n.Value[m[2]:m[3]], Field: strings.TrimSuffix(pathLabel(at), ": "), Pos: p})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Pos.Line != out[j].Pos.Line {
			return out[i].Pos.Line < out[j].Pos.Line
		}
		return out[i].Pos.Column < out[j].Pos.Column
	})
	return out
}

// Vars lists every ${NAME} the runner will expand, in file order.
func (sc *Scenario) Vars() []VarUse { return sc.vars }

// CheckVars reports, with file:line:column, every variable the scenario
// needs that nobody sets: not filled by the runner, not in given (the
// --var values), not in the environment. `sandbox test` and `sandbox
// scenario validate` call it before anything starts, so a missing value is
// named with the flag that supplies it rather than failing mid-run.
func (sc *Scenario) CheckVars(given map[string]string) Problems {
	var ps Problems
	reported := map[string]bool{}
	for _, u := range sc.vars {
		if _, ok := given[u.Name]; ok {
			continue
		}
		msg := ""
		switch u.Name {
		case VarSandboxURL, VarSandboxBin, VarAddonPort, VarScenarioDir, VarScenarioTmp:
			continue
		case VarAddonURL:
			if sc.Addon != nil && sc.Addon.URL != "" {
				continue
			}
			msg = "variable ADDON_URL is set only when the scenario gives addon.url"
		case VarEshopURL, VarAddonEshop, VarAddonEshopURL, VarAddonOAuthURL, VarAddonClientID, VarAddonClientSecret, VarAddonName:
			if sc.Addon != nil && sc.Addon.Eshop != 0 {
				continue
			}
			msg = "variable " + u.Name + " is set only when the scenario gives addon.eshop"
		default:
			if _, ok := os.LookupEnv(u.Name); ok {
				continue
			}
			msg = fmt.Sprintf("variable %s is not set: pass --var %s=VALUE (the runner itself sets %s)", u.Name, u.Name, strings.Join(RunnerVars, ", "))
			if u.Name == "EXAMPLE_ADDON" {
				msg += `; the example add-on ships inside sandbox: start it with ["${SANDBOX_BIN}", "example-addon", ...]`
			}
		}
		key := u.Name + "\x00" + u.Field
		if reported[key] {
			continue
		}
		reported[key] = true
		ps = append(ps, Problem{File: sc.File, Line: u.Pos.Line, Column: u.Pos.Column, Message: u.Field + ": " + msg})
	}
	return ps
}

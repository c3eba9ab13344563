package runner

import (
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

// Filter is `sandbox test --run`, read as `go test -run` reads it: the
// pattern is split at its first slash outside brackets and parentheses;
// the first part picks scenarios by their file's name (without its
// folder) or their name, the second, when given, steps by their name (a
// step without a name is named by its kind). Both are unanchored regular
// expressions.
type Filter struct {
	Scenario, Step *regexp.Regexp
}

// ParseFilter reads a --run pattern.
func ParseFilter(expr string) (*Filter, error) {
	first, rest, hasStep := splitRun(expr)
	f := &Filter{}
	var err error
	if f.Scenario, err = regexp.Compile(first); err != nil {
		return nil, fmt.Errorf("--run %q: %v", expr, err)
	}
	if hasStep {
		if f.Step, err = regexp.Compile(rest); err != nil {
			return nil, fmt.Errorf("--run %q: %v", expr, err)
		}
	}
	return f, nil
}

// splitRun splits at the first slash outside [...] and (...).
func splitRun(expr string) (string, string, bool) {
	depth := 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '\\':
			i++
		case '[', '(':
			depth++
		case ']', ')':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth == 0 {
				return expr[:i], expr[i+1:], true
			}
		}
	}
	return expr, "", false
}

// Selects reports whether the scenario of file (sc nil: the file does not
// load, and only its name counts) is picked: its file's name or its own
// name matches, and with a step pattern one of its steps does.
func (f *Filter) Selects(file string, sc *scenario.Scenario) bool {
	if f == nil {
		return true
	}
	if !f.Scenario.MatchString(filepath.Base(file)) && (sc == nil || !f.Scenario.MatchString(sc.Name)) {
		return false
	}
	if f.Step == nil || sc == nil {
		return true
	}
	return lastSelected(sc, f.Step) >= 0
}

// lastSelected is the index of the last step whose name matches, -1 when
// none does.
func lastSelected(sc *scenario.Scenario, re *regexp.Regexp) int {
	last := -1
	for i := range sc.Steps {
		if re.MatchString(stepName(&sc.Steps[i])) {
			last = i
		}
	}
	return last
}

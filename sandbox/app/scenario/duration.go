package scenario

import (
	"fmt"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a Go duration written as a string in scenario files ("250ms",
// "30s", "3h"), so a file reads like the durations people type elsewhere in
// the sandbox (flags, the control plane).
type Duration time.Duration

// UnmarshalYAML reads "30s" and friends; a bare number is refused because
// its unit would be a guess.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return typeError(n, "a duration is written as a string such as \"30s\" or \"5m\", not %q", n.Value)
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return typeError(n, "%q is not a duration such as \"250ms\", \"30s\" or \"3h\"", n.Value)
	}
	*d = Duration(v)
	return nil
}

// typeError reports a bad value at the node's position in the form the
// loader turns into file:line:column, and lets decoding go on so one run
// reports every mistake.
func typeError(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d, column %d: ", n.Line, n.Column) + fmt.Sprintf(format, args...)}}
}

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String prints the duration the way it is written in files.
func (d Duration) String() string { return time.Duration(d).String() }

package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestFlagValueNames walks every command and checks that each flag's help
// names its value by its type (string, int, duration, ...): pflag takes a
// back-quoted word in the usage as the value's name, so a usage that
// quotes `sandbox up` printed "--url sandbox up" on every client command.
func TestFlagValueNames(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			name, usage := pflag.UnquoteUsage(f)
			if strings.ContainsAny(name, " `") {
				t.Errorf("%s --%s: the help names the value %q (a back-quoted word in the usage); quote with ' instead", c.CommandPath(), f.Name, name)
			}
			if strings.Contains(usage, "sandbox sandbox") {
				t.Errorf("%s --%s: %q", c.CommandPath(), f.Name, usage)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}

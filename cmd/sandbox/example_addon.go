package main

import (
	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/exampleaddon"
)

// newExampleAddonCmd ships cmd/example-addon inside the sandbox binary, so
// the example scenarios run from a fresh clone with no build step: they
// start it as ${SANDBOX_BIN} example-addon. It is the add-on's own cobra
// command, so both programs print the same help.
func newExampleAddonCmd() *cobra.Command {
	cmd := exampleaddon.Command(discover.Locate)
	cmd.Use = "example-addon [flags]"
	inner := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := inner(cmd, args); err != nil {
			return fail(cmd, "example-addon: %v", err)
		}
		return nil
	}
	return cmd
}

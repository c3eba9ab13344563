package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
)

// urlFlagHelp documents --url the same way on every client command.
const urlFlagHelp = "the sandbox to talk to, http://host:port (env SANDBOX_URL); by default the one that 'sandbox up' recorded, else http://127.0.0.1:8080"

// addURLFlag gives a client command its --url flag. Clients never take
// --addr: that is where `sandbox up` listens.
func addURLFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "url", "", urlFlagHelp)
}

// resolveTarget finds the sandbox a client command talks to: --url, then
// SANDBOX_URL, then the running sandbox `sandbox up` recorded, then the
// default address (sandbox/app/discover).
func resolveTarget(cmd *cobra.Command) (discover.Target, error) {
	given := ""
	if f := cmd.Flags().Lookup("url"); f != nil && f.Changed {
		given = f.Value.String()
	}
	return discover.Resolve(cmd.Context(), given)
}

// unreachable explains a failed connection to the target, with where the
// target came from and how to name another one.
func unreachable(t discover.Target, err error) string {
	return fmt.Sprintf("cannot reach the sandbox at %s: %v\nstart one with `sandbox up`, or name it with --url URL or SANDBOX_URL=URL", t.Describe(), err)
}

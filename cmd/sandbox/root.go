package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "sandbox",
		Short: "A stateful sandbox of the e-shop management API, for add-on developers",
		Long: `sandbox emulates the e-shop platform's JSON-over-HTTP management API on your
machine: envelope, errors, paging, both access modes and their rights, seeded
from realistic fixtures, so an add-on can be developed and tested without a
live e-shop.`,
		Example: `  sandbox up                       # serve on http://127.0.0.1:8080
  sandbox up --addr 127.0.0.1:9000 --data sandbox.db
  sandbox version`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newUpCmd(), newVersionCmd())
	root.AddCommand(newTUICmd(), newTrafficCmd())
	root.AddCommand(newInstallCmd())
	root.AddCommand(newTestCmd(), newScenarioCmd())
	root.AddCommand(newRoutesCmd(), newFixturesCmd())
	root.SetErr(os.Stderr)
	return root
}

// bindEnv makes every flag of cmd also readable from SANDBOX_<FLAG> (dashes
// become underscores), unless the flag was given on the command line.
func bindEnv(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed || f.Name == "help" {
			return
		}
		name := "SANDBOX_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			if serr := f.Value.Set(v); serr != nil {
				err = fmt.Errorf("environment variable %s=%q: %v", name, v, serr)
			}
		}
	})
	return err
}

func envHelp(flag string) string {
	return " (env SANDBOX_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_")) + ")"
}

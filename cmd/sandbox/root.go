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
machine: all 328 endpoints, stateful and seeded from realistic fixtures, with
both access modes, limits, orders and payments, signed webhooks, asynchronous
jobs and the add-on install handshake. Scenario files script faults and
expectations and run as CI tests; a terminal UI shows the traffic live.`,
		Example: `  sandbox up                                   # serve on http://127.0.0.1:8080 (UI in a terminal)
  sandbox up --addr 127.0.0.1:0 --data sandbox.db   # any free port; clients find it by themselves
  sandbox tui                                  # watch the running sandbox (--url or SANDBOX_URL for another)
  sandbox install --addon example-addon --eshop 1001
  sandbox test --junit report.xml scenarios/
  sandbox certify --addon my-addon --addon-url http://127.0.0.1:9191/install --command 'python3 addon.py' --trigger order:create
  sandbox example-addon --install 1001         # the example add-on, built in
  source <(sandbox completion bash)            # completion (also zsh, fish)
  sandbox routes
  sandbox version`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newUpCmd(), newVersionCmd())
	root.AddCommand(newTUICmd(), newTrafficCmd())
	root.AddCommand(newInstallCmd(), newEmitCmd(), newExampleAddonCmd())
	root.AddCommand(newAddonCmd(), newFaultCmd())
	root.AddCommand(newTestCmd(), newScenarioCmd(), newCertifyCmd())
	root.AddCommand(newRoutesCmd(), newFixturesCmd())
	root.AddCommand(newRecordCmd(), newDiffCmd())
	root.AddCommand(newDataCmd())
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

// flagGiven reports whether the user gave a flag, on the command line or
// by its SANDBOX_<FLAG> environment variable (bindEnv sets the value but
// not pflag's Changed mark).
func flagGiven(cmd *cobra.Command, name string) bool {
	if cmd.Flags().Changed(name) {
		return true
	}
	_, ok := os.LookupEnv("SANDBOX_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
	return ok
}

func envHelp(flag string) string {
	return " (env SANDBOX_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_")) + ")"
}

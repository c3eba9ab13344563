package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/scenarios"
)

func newScenarioCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scenario",
		Short: "Check scenario files and see the examples",
		Long: `Scenario files script faults and steps for 'sandbox test' and
'sandbox up --scenario'. Their JSON Schema is schemas/scenario.schema.json;
point your editor at it for completion.`,
	}
	cmd.AddCommand(newScenarioValidateCmd(), newScenarioExamplesCmd(), newScenarioShowCmd())
	return cmd
}

func newScenarioValidateCmd() *cobra.Command {
	var vars []string
	cmd := &cobra.Command{
		Use:   "validate FILE|DIR...",
		Short: "Check scenario files; every problem is shown with file:line:column",
		Long: `Check scenario files as 'sandbox test' loads them: YAML syntax, the format
(schemas/scenario.schema.json), the rules the schema cannot say, operation
names against the endpoint catalogue and event names against the webhook
catalogue (with the closest known name), that every add-on it names is in
its fixtures or defined in its addon section, and that every ${NAME} the run
needs is set: by the runner, by --var NAME=VALUE, or in the environment.
A folder checks every *.yaml and *.yml in it.`,
		Example: `  sandbox scenario validate my-addon.yaml
  sandbox scenario validate scenarios/
  sandbox scenario validate --var ADDON_BIN=./bin/my-addon my-addon.yaml`,
		Args:              needArgs(1, "a scenario file or folder"),
		ValidArgsFunction: completeScenarioFiles,
		RunE: func(cmd *cobra.Command, args []string) error {
			given, err := parseVars(vars)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			files, err := scenarioFiles(args)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			bad := 0
			for _, f := range files {
				sc, err := scenario.Load(f)
				if err == nil {
					if ps := append(sc.CheckVars(given), sc.CheckAddons()...); len(ps) > 0 {
						err = ps
					}
				}
				if err != nil {
					bad++
					var ps scenario.Problems
					if errors.As(err, &ps) {
						for _, p := range ps {
							fmt.Fprintln(cmd.ErrOrStderr(), p.String())
						}
					} else {
						fmt.Fprintln(cmd.ErrOrStderr(), err)
					}
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: ok, %q: %d fault(s), %d step(s)\n", f, sc.Name, len(sc.Faults), len(sc.Steps))
			}
			if bad > 0 {
				return reported{fmt.Errorf("%d invalid scenario file(s)", bad)}
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&vars, "var", nil, "NAME=VALUE a scenario's ${NAME} will get from sandbox test --var (repeatable)")
	return cmd
}

// exampleNames lists the embedded example scenarios without extension.
func exampleNames() []string {
	entries, _ := fs.ReadDir(scenarios.FS, ".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

func newScenarioExamplesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "examples",
		Short: "List the example scenarios (one per fault kind and step kind)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			for _, n := range exampleNames() {
				title := ""
				if raw, err := scenarios.FS.ReadFile(n + ".yaml"); err == nil {
					if sc, err := scenario.Parse(n+".yaml", raw); err == nil {
						title = sc.Name
					}
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%-34s %s\n", n, title)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "\nsandbox scenario show NAME prints one.")
			return nil
		},
	}
}

func newScenarioShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "show NAME",
		Short:             "Print an example scenario, to start your own from",
		Example:           "  sandbox scenario show fault-respond-locked > my-addon.yaml",
		Args:              exactArgs(1, "the name of one example (sandbox scenario examples lists them)"),
		ValidArgsFunction: completeExamples,
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := scenarios.FS.ReadFile(strings.TrimSuffix(args[0], ".yaml") + ".yaml")
			if err != nil {
				return fail(cmd, "no example scenario %q; sandbox scenario examples lists them", args[0])
			}
			_, err = cmd.OutOrStdout().Write(raw)
			return err
		},
	}
}

// loadScenario reads and checks a scenario file for sandbox up; a broken
// file stops the start with every problem and its position.
func loadScenario(path string) (*scenario.Scenario, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Parse(path, raw)
	if err != nil {
		return nil, fmt.Errorf("is not a valid scenario:\n%v", err)
	}
	return sc, nil
}

// printScenario tells the developer which faults a --scenario file
// switched on.
func printScenario(w io.Writer, file string, raw []byte) {
	if file == "" {
		return
	}
	sc, err := scenario.Parse(file, raw)
	if err != nil {
		return
	}
	names := make([]string, len(sc.Faults))
	for i, f := range sc.Faults {
		names[i] = f.Name
	}
	fmt.Fprintf(w, "scenario %s: %d fault(s) active: %s\n  GET /_sandbox/faults lists them, GET /_sandbox/report shows the contract report\n",
		file, len(sc.Faults), strings.Join(names, ", "))
}

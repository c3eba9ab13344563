package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/runner"
)

func newTestCmd() *cobra.Command {
	var (
		junit string
		vars  []string
		logs  bool
		count int
		chaos chaosFlags // --chaos, --seed (chaos.go)
		// --payment-status-within
		paymentWithin time.Duration
		prefix        string // --header-prefix
		parallel      int
		runExpr       string // --run
		failFast      bool
		jsonOut       bool // --json
		annotateMode  string
		shard         string // --shard K/N
		watch         bool
		watchDirs     []string
	)
	cmd := &cobra.Command{
		Use:   "test FILE|DIR...",
		Short: "Run scenario files, each on a fresh sandbox, and report",
		Long: `Run scenario files (YAML, see schemas/scenario.schema.json and
'sandbox scenario examples'). Each runs on a fresh in-process sandbox with its
fixtures, limits, clock and faults; the add-on under test is started from the
scenario's command and stopped afterwards. For every step the report says pass
or fail, and for a failure what was expected, what happened instead and the
relevant traffic. A folder runs every *.yaml and *.yml in it, in name order.

An add-on built on the platform's official client library sends headers in
its platform's word (<word>-Access-Token, application/vnd.<word>.v1.0):
give that word once, with --header-prefix (or SANDBOX_HEADER_PREFIX) for the
whole run, or in a file's sandbox section (sandbox: {headerPrefix: WORD}),
which also holds the run's fixtures and limits. The flag wins over the file.

The runner sets ${SANDBOX_URL}, ${SANDBOX_BIN} (this program: the example
scenarios start the built-in example add-on as ${SANDBOX_BIN} example-addon),
${SANDBOX_HEADER_PREFIX}, ${ADDON_PORT}, ${ADDON_URL}, ${ESHOP_URL},
${SCENARIO_DIR} and ${SCENARIO_TMP} (a fresh empty folder per run, removed
afterwards, for the add-on's files and database), and gives them to the
add-on's command in its environment too; any other ${NAME} comes from --var
NAME=VALUE or the environment, and a scenario that needs one nobody set
fails before it starts, naming it.

Scenario files run in parallel, each as above on a sandbox, add-on process,
port and ${SCENARIO_TMP} folder of its own; the report still prints each
scenario whole, in name order, as a run one at a time would. --parallel N
caps how many run at once; the default, four per CPU core (at most 16), suits
scenarios, which spend nearly all their time waiting (an add-on's back-off
after a 429, latency faults, wait steps) and use a few percent of a core
each. --parallel 1 runs one at a time: a scenario that passes alone and
fails beside others has found state its add-on shares between runs.

The exit code is 0 only when every step of every scenario passed. --junit
writes JUnit XML (a test suite per scenario, a test case per step) for CI.
--count N runs each scenario N times, each on a fresh sandbox, to show that
an add-on passes every time (a race that fails one run in ten shows up).

--run REGEXP picks scenarios as go test -run picks tests: by the file's name
(without its folder) or the scenario's name; SCENARIO/STEP also picks steps
by name (a step without one by its kind) and runs the steps up to the last
one it picks, since a step builds on the ones before it. --fail-fast starts
no new scenario after the first failure; the running ones finish and are
reported.

--shard K/N runs the K-th of N parts of the files, so N CI jobs share a
suite. The split depends only on each file's path relative to the folder
argument it came from (rendezvous hashing with bounded loads): every job
computes the same one, the parts differ in size by at most one file, the N
parts together hold every file once, and adding a file moves few others.

--watch is the developer's loop: it runs the scenarios, then runs a scenario
again whenever its file changes, and all of them whenever a file under a
--watch-dir folder (the add-on's source) changes, until Ctrl-C. It polls
modification times twice a second.

--json prints one JSON object a line instead of the text report
(schemas/test-events.schema.json). In GitHub Actions (GITHUB_ACTIONS=true, or
--annotate github anywhere) every failing step also prints an error
annotation at its line in the scenario file, which the pull request shows
on that line, and when GITHUB_STEP_SUMMARY is set a Markdown table of the
scenarios (result, steps, duration, first failure) is added to it.`,
		Example: `  sandbox test scenarios/
  sandbox test my-addon.yaml --junit report.xml
  sandbox test --var ADDON_BIN=./bin/my-addon my-addon.yaml
  sandbox test --count 20 my-addon.yaml
  sandbox test --run 'latency|locked' scenarios/            # by file name or scenario name
  sandbox test --run 'fault-hold-lock/install' scenarios/   # a scenario up to its install step
  sandbox test --fail-fast scenarios/
  sandbox test --shard 2/4 --junit report-2.xml scenarios/   # the second of four CI jobs
  sandbox test --watch --watch-dir ./src my-addon.yaml     # re-run on every save, until Ctrl-C
  sandbox test --header-prefix Acme my-addon.yaml   # an add-on whose client library says Acme-Access-Token`,
		Args:              needArgs(1, "a scenario file or folder"),
		ValidArgsFunction: completeScenarioFiles,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			given, err := parseVars(vars)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			switch annotateMode {
			case "":
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					annotateMode = "github"
				}
			case "github", "none":
			default:
				return usageError(cmd, "--annotate %q: give github or none", annotateMode)
			}
			if parallel < 1 {
				return usageError(cmd, "--parallel %d: give 1 or more scenarios at once", parallel)
			}
			if count < 1 {
				return usageError(cmd, "--count %d: give 1 or more runs per scenario", count)
			}
			if paymentWithin <= 0 {
				return usageError(cmd, "--payment-status-within %v: give a time above 0", paymentWithin)
			}
			if prefix != "" {
				if err := sandbox.CheckHeaderPrefix(prefix); err != nil {
					return usageError(cmd, "--header-prefix: %v", err)
				}
			}
			shardK, shardN := 0, 0
			if shard != "" {
				if shardK, shardN, err = runner.ParseShard(shard); err != nil {
					return usageError(cmd, "%v", err)
				}
			}
			var filter *runner.Filter
			if runExpr != "" {
				if filter, err = runner.ParseFilter(runExpr); err != nil {
					return usageError(cmd, "%v", err)
				}
			}
			if len(watchDirs) > 0 && !watch {
				return usageError(cmd, "--watch-dir: give --watch too")
			}
			opts := runner.Options{Vars: given, Version: buildVersion(), PaymentStatusWithin: paymentWithin, HeaderPrefix: prefix}
			if filter != nil {
				opts.Steps = filter.Step
			}
			if opts.ChaosRate, opts.ChaosSeed, err = chaos.parse(); err != nil {
				return usageError(cmd, "%v", err)
			}
			out, notes, errw := cmd.OutOrStdout(), cmd.OutOrStdout(), cmd.ErrOrStderr()
			if jsonOut { // stdout holds only the JSON lines
				notes = errw
			}
			printChaos(notes, opts.ChaosRate, opts.ChaosSeed)
			if exe, err := os.Executable(); err == nil {
				opts.Program = exe
			}
			if logs {
				opts.Log = errw
			}
			if _, fixed := given[scenario.VarAddonPort]; fixed && parallel != 1 {
				// Every run would be told the same port.
				fmt.Fprintf(errw, "--var %s fixes one port for every run: running one scenario at a time (--parallel 1)\n", scenario.VarAddonPort)
				parallel = 1
			}

			// pick lists the files to run: the arguments expanded, this
			// shard's part of them, those --run selects. none says why
			// there are none ("" when there are).
			pick := func() (files []string, none string, err error) {
				files, keys, err := scenarioFileKeys(args)
				if err != nil {
					return nil, "", err
				}
				if shardN > 0 {
					var part []string
					for _, i := range runner.InShard(keys, shardK, shardN) {
						part = append(part, files[i])
					}
					fmt.Fprintf(errw, "shard %d/%d: %d of the %d scenario file(s)\n", shardK, shardN, len(part), len(files))
					if len(part) == 0 { // more shards than files: this one has nothing to do
						return nil, "shard", nil
					}
					files = part
				}
				if filter != nil {
					var picked []string
					for _, f := range files {
						sc, _ := scenario.Load(f) // a file that does not load is picked by its name and reported as it fails
						if filter.Selects(f, sc) {
							picked = append(picked, f)
						}
					}
					if len(picked) == 0 {
						return nil, fmt.Sprintf("--run %q selects none of the %d scenario file(s)", runExpr, len(files)), nil
					}
					files = picked
				}
				return files, "", nil
			}

			// suite runs the files and reports them (text or JSON, the
			// annotations, the job summary, JUnit) and returns the results.
			suite := func(ctx context.Context, files []string) ([]*runner.Result, error) {
				var jobs []runner.Job
				for _, f := range files {
					for i := 1; i <= count; i++ {
						jobs = append(jobs, runner.Job{File: f, Run: i, Of: count})
					}
				}
				began := time.Now()
				results := runner.RunSuite(ctx, jobs, opts, runner.SuiteOptions{Parallel: parallel, FailFast: failFast}, func(res *runner.Result) {
					if jsonOut {
						_ = runner.WriteEvents(out, runner.ScenarioEvents(res)...)
					} else {
						runner.WriteText(out, res)
					}
					if annotateMode == "github" {
						runner.WriteAnnotations(notes, res)
					}
				})
				notRun := len(jobs) - len(results)
				if jsonOut {
					_ = runner.WriteEvents(out, runner.SuiteEvent(results, notRun, time.Since(began)))
				} else {
					runner.WriteSummary(out, results)
					if notRun > 0 && ctx.Err() == nil {
						fmt.Fprintf(out, "  not run: %d scenario run(s), --fail-fast after the first failure\n", notRun)
					}
				}
				if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
					if err := appendStepSummary(p, results, notRun); err != nil {
						fmt.Fprintf(errw, "GITHUB_STEP_SUMMARY: %v\n", err)
					}
				}
				if junit != "" {
					var buf bytes.Buffer
					if err := runner.WriteJUnit(&buf, results); err != nil {
						return results, fmt.Errorf("--junit: %v", err)
					}
					if err := os.WriteFile(junit, buf.Bytes(), 0o644); err != nil {
						return results, fmt.Errorf("--junit: %v", err)
					}
					fmt.Fprintf(notes, "JUnit report written to %s\n", junit)
				}
				return results, nil
			}

			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if watch {
				w := runner.Watch{
					Dirs: watchDirs,
					Files: func() ([]string, error) {
						files, none, err := pick()
						if err == nil && none != "" && none != "shard" {
							err = errors.New(none)
						}
						return files, err
					},
					Run: func(ctx context.Context, files []string) {
						if _, err := suite(ctx, files); err != nil {
							fmt.Fprintf(errw, "%v\n", err)
						}
						fmt.Fprintf(notes, "watching %d scenario file(s)%s for changes; Ctrl-C stops\n", len(files), watchedDirs(watchDirs))
					},
					Failed: func(err error) { fmt.Fprintf(errw, "%v\n", err) },
				}
				if err := w.Loop(ctx); err != nil {
					return fail(cmd, "%v", err)
				}
				return nil
			}
			files, none, err := pick()
			switch {
			case err != nil:
				return fail(cmd, "%v", err)
			case none == "shard":
				return nil
			case none != "" && shardN > 0: // another shard may hold them
				fmt.Fprintf(errw, "%s in this shard\n", none)
				return nil
			case none != "":
				return fail(cmd, "%s", none)
			}
			results, err := suite(ctx, files)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			for _, r := range results {
				if !r.Passed {
					return reported{fmt.Errorf("scenarios failed")}
				}
			}
			if ctx.Err() != nil {
				return fail(cmd, "interrupted")
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&junit, "junit", "", "write JUnit XML to this file"+envHelp("junit"))
	f.StringArrayVar(&vars, "var", nil, "NAME=VALUE for ${NAME} in the scenarios' add-on command, url, dir and env (repeatable)")
	f.BoolVar(&logs, "sandbox-log", false, "show the sandboxes' warnings and errors on stderr")
	chaos.add(f)
	f.StringVar(&prefix, "header-prefix", "", "brand word in header names and media types of every scenario's sandbox, for an add-on built on a client library that hard-codes its platform's word; default: the file's sandbox.headerPrefix, else "+sandbox.DefaultHeaderPrefix+envHelp("header-prefix"))
	f.IntVar(&parallel, "parallel", runner.DefaultParallel(), "how many scenario runs at once, each on its own sandbox, add-on process and port; 1 runs them one after another"+envHelp("parallel"))
	f.StringVar(&runExpr, "run", "", "run only the scenarios whose file name or name matches this regular expression; SCENARIO/STEP also picks steps by name, running those up to the last one that matches"+envHelp("run"))
	f.BoolVar(&failFast, "fail-fast", false, "start no new scenario after the first failure (the running ones finish and are reported)"+envHelp("fail-fast"))
	f.BoolVar(&jsonOut, "json", false, "print one JSON object a line instead of the text report: each scenario's start, every step's result (expected, got, file line), its end with its duration, then the suite's end; schemas/"+runner.EventsSchema+" describes them"+envHelp("json"))
	f.StringVar(&annotateMode, "annotate", "", "github: print a GitHub Actions error annotation for every failing step, at its line in the scenario file (the default when GITHUB_ACTIONS=true); none: never"+envHelp("annotate"))
	f.StringVar(&shard, "shard", "", "K/N: run only the K-th of N parts of the scenario files, for a CI matrix of N jobs; the N parts together run every file once"+envHelp("shard"))
	f.BoolVar(&watch, "watch", false, "run the scenarios, then again each scenario whose file changes (all of them when a file under --watch-dir changes), until Ctrl-C")
	f.StringArrayVar(&watchDirs, "watch-dir", nil, "with --watch: a folder (the add-on's source) whose every change re-runs all the scenarios (repeatable)")
	f.IntVar(&count, "count", 1, "run each scenario this many times, each on a fresh sandbox"+envHelp("count"))
	f.DurationVar(&paymentWithin, "payment-status-within", sandbox.DefaultPaymentStatusWithin, "contract report: how long (sandbox clock) an add-on has between the payment result and the matching order status call"+envHelp("payment-status-within"))
	return cmd
}

// watchedDirs names the --watch-dir folders in the watch message.
func watchedDirs(dirs []string) string {
	if len(dirs) == 0 {
		return ""
	}
	return " and " + strings.Join(dirs, ", ")
}

// appendStepSummary adds the results' Markdown table to the GitHub
// Actions job summary file.
func appendStepSummary(path string, results []*runner.Result, notRun int) error {
	var buf bytes.Buffer
	runner.WriteStepSummary(&buf, results, notRun)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// parseVars reads repeated --var NAME=VALUE flags.
func parseVars(vars []string) (map[string]string, error) {
	out := map[string]string{}
	for _, v := range vars {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--var %q: write it as NAME=VALUE", v)
		}
		out[k] = val
	}
	return out, nil
}

// scenarioFiles expands the arguments: files as given, folders to their
// *.yaml and *.yml files in name order.
func scenarioFiles(args []string) ([]string, error) {
	files, _, err := scenarioFileKeys(args)
	return files, err
}

// scenarioFileKeys is scenarioFiles with each file's key for --shard: its
// path relative to the folder argument it was found in (slash-separated),
// or the name of a file given as such, so the split is the same wherever
// the repository is checked out.
func scenarioFileKeys(args []string) ([]string, []string, error) {
	var out, keys []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: no such file or folder", a)
		}
		if !st.IsDir() {
			out = append(out, a)
			keys = append(keys, filepath.Base(a))
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if len(found) == 0 {
			return nil, nil, fmt.Errorf("%s: no scenario files (*.yaml, *.yml) in this folder", a)
		}
		sort.Strings(found)
		for _, p := range found {
			rel, err := filepath.Rel(a, p)
			if err != nil {
				rel = p
			}
			out = append(out, p)
			keys = append(keys, filepath.ToSlash(rel))
		}
	}
	return out, keys, nil
}

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

func newDataCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "data",
		Short: "Check or repair a --data file",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newDataCheckCmd(), newDataRepairCmd())
	return cmd
}

// printReport writes what check found and reports whether the file is
// sound and would start.
func printReport(w io.Writer, rep *store.Report) bool {
	fmt.Fprintf(w, "%s: %s\n", rep.Path, rep.Summary())
	ok := rep.OK()
	for _, p := range rep.Problems() {
		fmt.Fprintf(w, "  %s\n", p)
	}
	if rep.Keys > 0 && !rep.HasValue(seed.SeededMark) {
		fmt.Fprintln(w, "  the mark a completed seeding writes is missing: the file was cut short or is not a sandbox's data file")
		ok = false
	}
	return ok
}

func newDataCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE",
		Short: "Check a data file without starting a sandbox or changing the file",
		Long: `check reads a data file (sandbox up --data FILE) as a start does, without
changing it: a file that ends inside a write (cut short, or torn by a crash),
bytes that do not read as writes, and records whose value is not a JSON
object are named with their byte offset or key, with how much of the file
reads. A sound file prints its size and record count; a damaged one exits
with code 1 (a start refuses it the same way; see sandbox data repair).`,
		Example: `  sandbox data check sandbox.db`,
		Args:    exactArgs(1, "one data file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := store.Check(args[0])
			if errors.Is(err, fs.ErrNotExist) {
				return fail(cmd, "%s does not exist (a start would create it)", args[0])
			}
			if err != nil {
				return fail(cmd, "%v", err)
			}
			if !printReport(cmd.OutOrStdout(), rep) {
				return fail(cmd, "%s is damaged: repair it with sandbox data repair %s --out NEW", args[0], args[0])
			}
			if rep.Size == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "empty: a start seeds it")
			} else {
				fmt.Fprintln(cmd.OutOrStdout(), "sound")
			}
			return nil
		},
	}
}

func newDataRepairCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "repair FILE --out NEW",
		Short: "Write every readable record of a damaged data file to a new file",
		Long: `repair reads a data file as sandbox data check does, without changing it,
and writes every key that reads, with a sound value, to the new file NEW (which
must not exist). What is lost is listed: stretches of bytes that do not read
(the writes they held), and records left out because their value is not a
JSON object. Record counts are set to match the records kept. Start the
sandbox on NEW once you accept the loss.`,
		Example: `  sandbox data repair sandbox.db --out repaired.db && sandbox up --data repaired.db`,
		Args:    exactArgs(1, "one data file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError(cmd, "--out is required: the new file to write what reads into")
			}
			if _, err := os.Stat(out); err == nil {
				return fail(cmd, "%s exists: repair writes a new file and overwrites none", out)
			}
			rep, lost, err := store.Repair(args[0], out)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			w := cmd.OutOrStdout()
			printReport(w, rep)
			switch n := len(lost.Damage) + len(lost.BadValues); {
			case n == 0:
				fmt.Fprintln(w, "nothing lost")
			default:
				fmt.Fprintf(w, "lost: %s of bytes (with the writes in them), %s with a broken value\n",
					plural(len(lost.Damage), "unreadable stretch", "unreadable stretches"), plural(len(lost.BadValues), "record", "records"))
			}
			if lost.Counters > 0 {
				fmt.Fprintf(w, "record counts recomputed: %d\n", lost.Counters)
			}
			fmt.Fprintf(w, "wrote %d keys to %s\n", lost.Written, out)
			if rep.Keys > 0 && !rep.HasValue(seed.SeededMark) {
				return fail(cmd, "%s will not start: its seeding never completed; start afresh without it", out)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "the new file to write (must not exist)")
	return cmd
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

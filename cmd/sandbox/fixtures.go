package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/app/seed"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/fixturegen"
)

func newFixturesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fixtures",
		Short: "Work with fixture sets",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newFixturesGenerateCmd(), newFixturesCheckCmd())
	return cmd
}

// checkFixtures checks a fixture folder in full as a start with
// --fixtures does and, with stamp, notes the checked files in its stamp.
func checkFixtures(dir string, stamp bool) (*seed.Summary, error) {
	l, err := app.FixtureLoader(os.DirFS(dir), dir)
	if err != nil {
		return nil, err
	}
	out := ""
	if stamp {
		out = dir
	}
	sum, err := l.Check(out)
	if err != nil || !stamp {
		return sum, err
	}
	if sum.Packed, err = writePacks(dir); err != nil {
		return nil, err
	}
	return sum, nil
}

// writePacks writes the packed form of a stamped folder's large
// collection files (see seed.PackDir), which starts attach as they are.
func writePacks(dir string) ([]string, error) {
	l, err := app.FixtureLoader(os.DirFS(dir), dir)
	if err != nil {
		return nil, err
	}
	return l.WritePacks(dir, store.DefaultPackAbove)
}

func newFixturesCheckCmd() *cobra.Command {
	var stamp bool
	cmd := &cobra.Command{
		Use:   "check DIR",
		Short: "Check a fixture folder in full, without starting a sandbox",
		Long: `check reads a fixture folder as sandbox up --fixtures does: JSON syntax,
identifiers, credentials, and every record against the reference's schema.
The first problem is printed with its file and line, and the exit code is 1.

With --stamp, a folder that passes gets a stamp (` + seed.StampFile + `) noting the
size and checksum of each collection file. A later start skips the checks of
a file that is unchanged since, which makes large sets start in a second
instead of a minute; a changed file, or a sandbox with other schemas, is
checked again. The collection files of 4 MiB or more also get their packed
form (` + seed.PackDir + `/): the records compressed as a sandbox holds them, which a
start attaches as they are instead of reading the JSON (100,000 products and
orders start in well under a second). sandbox fixtures generate stamps and
packs what it writes.`,
		Example: `  sandbox fixtures check ./my-fixtures
  sandbox fixtures check --stamp ./big && sandbox up --fixtures ./big`,
		Args:              exactArgs(1, "one fixture folder"),
		ValidArgsFunction: completeFolders,
		RunE: func(cmd *cobra.Command, args []string) error {
			sum, err := checkFixtures(args[0], stamp)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d records in %d e-shops, all valid\n", args[0], sum.Records, len(sum.Eshops))
			if stamp {
				fmt.Fprintf(cmd.OutOrStdout(), "stamped: %s\n", filepath.Join(args[0], seed.StampFile))
				fmt.Fprintf(cmd.OutOrStdout(), "packed: %d files of 4 MiB or more into %s\n", len(sum.Packed), filepath.Join(args[0], seed.PackDir))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&stamp, "stamp", false, "note the checked files in "+seed.StampFile+" so that starts skip checking them again")
	return cmd
}

func newFixturesGenerateCmd() *cobra.Command {
	var opt fixturegen.Options
	var out string
	var noStamp bool
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write a large, realistic, deterministic fixture set for scale tests",
		Long: `generate writes a fixture tree (the format of fixtures/README.md) for e-shop 1001:
the default set's settings, code lists, credentials and content, with as many
products, customers and orders as asked. Products are numbered editions of the
default catalogue (at least one of each), orders re-address the default orders
to generated customers and products, and invoices, delivery notes, proof
payments, stock movements and the order history follow from them. The same
flags always write the same files. The written set comes stamped (see sandbox
fixtures check), so that starts skip checking it; sandbox fixtures check DIR
checks it in full.
Serve the set with sandbox up --fixtures DIR.`,
		Example: `  sandbox fixtures generate --products 5000 --orders 20000 --customers 3000 --out ./big
  sandbox up --fixtures ./big`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("--out is required: the folder to write the fixture tree into")
			}
			// The set is stamped as it is written, so that starts skip
			// checking it (see sandbox fixtures check): its records are
			// valid by construction, which the generator's tests check.
			opt.Stamp = !noStamp
			sum, err := fixturegen.Generate(fixtures.FS, out, opt)
			if err != nil {
				return err
			}
			var packed []string
			if opt.Stamp {
				if packed, err = writePacks(out); err != nil {
					return err
				}
			}
			names := make([]string, 0, len(sum.Count))
			for n := range sum.Count {
				names = append(names, n)
			}
			sort.Strings(names)
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "wrote %d files to %s/eshops/%s\n", sum.Files, out, fixturegen.Eshop)
			for _, n := range names {
				fmt.Fprintf(w, "  %-28s %d\n", n+".json", sum.Count[n])
			}
			if opt.Stamp {
				fmt.Fprintf(w, "packed: %d files of 4 MiB or more into %s, which starts attach as they are\n", len(packed), filepath.Join(out, seed.PackDir))
			}
			fmt.Fprintf(w, "serve it: sandbox up --fixtures %s\n", out)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&opt.Products, "products", 1000, "number of products (at least the default catalogue's 37)")
	f.IntVar(&opt.Orders, "orders", 1000, "number of orders")
	f.IntVar(&opt.Customers, "customers", 500, "number of customers")
	f.Uint64Var(&opt.Seed, "seed", 1, "seed of the generated names and identifiers")
	f.StringVar(&out, "out", "", "folder to write the fixture tree into")
	f.BoolVar(&noStamp, "no-stamp", false, "do not stamp the written set (starts then check it in full)")
	return cmd
}

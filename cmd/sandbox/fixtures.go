package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/fixtures"
	"github.com/eshop-sandbox/sandbox/sandbox/fixturegen"
)

func newFixturesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fixtures",
		Short: "Work with fixture sets",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newFixturesGenerateCmd())
	return cmd
}

func newFixturesGenerateCmd() *cobra.Command {
	var opt fixturegen.Options
	var out string
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Write a large, realistic, deterministic fixture set for scale tests",
		Long: `generate writes a fixture tree (the format of fixtures/README.md) for e-shop 1001:
the default set's settings, code lists, credentials and content, with as many
products, customers and orders as asked. Products are numbered editions of the
default catalogue (at least one of each), orders re-address the default orders
to generated customers and products, and invoices, delivery notes, proof
payments, stock movements and the order history follow from them. The same
flags always write the same files. Serve the set with sandbox up --fixtures DIR.`,
		Example: `  sandbox fixtures generate --products 5000 --orders 20000 --customers 3000 --out ./big
  sandbox up --fixtures ./big`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return fmt.Errorf("--out is required: the folder to write the fixture tree into")
			}
			sum, err := fixturegen.Generate(fixtures.FS, out, opt)
			if err != nil {
				return err
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
	return cmd
}

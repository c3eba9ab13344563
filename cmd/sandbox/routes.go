package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/registry"
	"github.com/eshop-sandbox/sandbox/schemas"
)

// route is one line of `sandbox routes`.
type route struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation"`
	Group     string `json:"group"`
	Resource  string `json:"resource"`
	Kind      string `json:"kind"`
	Status    int    `json:"status,omitempty"`
}

func newRoutesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "routes",
		Short: "Print every endpoint and what serves it (the registry table)",
		Long: `routes prints the reference's endpoints in catalogue order: method, path,
operation, rights group, the registry resource that serves it, the generic
behaviour it gets (list, detail, create, update, replace, delete, bulk,
changes, download) or "action" when a behaviour package serves it, and the
success status. Endpoints outside the table are served by their own package
(orders, payments, webhooks, jobs, ...): resource "-".`,
		Example: `  sandbox routes
  sandbox routes --json | jq '.[] | select(.group=="Products")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := routeTable()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			return printRoutes(cmd.OutOrStdout(), rows)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	return cmd
}

// routeTable joins the catalogue with the registry.
func routeTable() ([]route, error) {
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, err
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	out := make([]route, 0, len(cat.Endpoints))
	for _, e := range cat.Endpoints {
		rt := route{Method: e.Method, Path: e.Path, Operation: e.Operation, Group: e.Group, Resource: "-", Kind: "package"}
		if row, op, ok := reg.Op(e.Operation); ok {
			rt.Resource, rt.Kind, rt.Status = row.Name, string(op.Kind), op.SuccessStatus()
		} else if e.Async {
			rt.Kind = "async job"
		}
		out = append(out, rt)
	}
	return out, nil
}

func printRoutes(w io.Writer, rows []route) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tPATH\tOPERATION\tGROUP\tRESOURCE\tKIND\tSTATUS")
	table := 0
	for _, r := range rows {
		st := "-"
		if r.Status != 0 {
			st = strconv.Itoa(r.Status)
			table++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Method, r.Path, r.Operation, r.Group, r.Resource, r.Kind, st)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d endpoints; %d from the registry table, %d served by their own packages\n", len(rows), table, len(rows)-table)
	return err
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/registry"
	"github.com/eshop-sandbox/sandbox/sandbox/surface"
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
	ServedBy  string `json:"servedBy"`
}

func newRoutesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "routes",
		Short: "Print every endpoint and who serves it (the registry table and the modules)",
		Long: `routes prints the reference's endpoints in catalogue order: method, path,
operation, rights group, the registry resource that serves it, the generic
behaviour it gets (list, detail, create, update, replace, delete, bulk,
changes, download, batch) or "action" when a behaviour package serves it,
the success status, and who serves it in a sandbox built as "sandbox up"
builds it (not started): "surface/table" for the generic handlers,
"surface/<package>" for an action package of the table, else the module
(orders, webhooks, jobs, ...). Endpoints outside the table have resource "-".`,
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

// routeTable joins the catalogue with the registry and with the owner
// table of a sandbox opened on a free loopback port and closed again
// without serving: the live table, not a copy of it.
func routeTable() ([]route, error) {
	a, err := app.Open(sandbox.Config{Addr: "127.0.0.1:0"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, err
	}
	defer func() { _ = a.Close(context.Background()) }()
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	out := make([]route, 0, len(a.Catalogue.Endpoints))
	for _, e := range a.Catalogue.Endpoints {
		rt := route{Method: e.Method, Path: e.Path, Operation: e.Operation, Group: e.Group, Resource: "-", Kind: "package", ServedBy: "-"}
		if o, ok := a.Owner(e.Operation); ok {
			rt.ServedBy = o.String()
		}
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
	fmt.Fprintln(tw, "METHOD\tPATH\tOPERATION\tGROUP\tRESOURCE\tKIND\tSTATUS\tSERVED BY")
	table, generic := 0, 0
	for _, r := range rows {
		st := "-"
		if r.Status != 0 {
			st = strconv.Itoa(r.Status)
			table++
		}
		if r.ServedBy == "surface/"+surface.TablePart {
			generic++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Method, r.Path, r.Operation, r.Group, r.Resource, r.Kind, st, r.ServedBy)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d endpoints; %d in the registry table (%d served by its generic handlers), %d outside it\n", len(rows), table, generic, len(rows)-table)
	return err
}

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
	"github.com/eshop-sandbox/sandbox/sandbox/app/surface"
	"github.com/eshop-sandbox/sandbox/sandbox/core/registry"
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
	// Module is the e-shop module the endpoint needs ("" when none): an
	// e-shop without it answers 403 module-not-enabled.
	Module string `json:"module,omitempty"`
	// Aliases are the other methods and paths the same route answers at
	// (the spec's order status path, PUT sent as POST).
	Aliases []routeAlias `json:"aliases,omitempty"`
}

// routeAlias is another method and path of a route; ByBody says the body
// decides (a POST path that is also the PUT's).
type routeAlias struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	ByBody bool   `json:"byBody,omitempty"`
}

func newRoutesCmd() *cobra.Command {
	var asJSON, pipeline bool
	cmd := &cobra.Command{
		Use:   "routes",
		Short: "Print every endpoint and who serves it (the registry table and the modules)",
		Long: `routes prints the reference's endpoints in catalogue order: method, path,
operation, rights group, the registry resource that serves it, the generic
behaviour it gets (list, detail, create, update, replace, delete, bulk,
changes, download, batch) or "action" when a behaviour package serves it,
the success status, who serves it in a sandbox built as "sandbox up"
builds it (not started): "surface/table" for the generic handlers,
"surface/<package>" for an action package of the table, else the module
(orders, webhooks, jobs, ...), and the e-shop module it needs ("-" for
none; an e-shop without it answers 403 module-not-enabled). Endpoints
outside the table have resource "-".
An alias row (kind "alias") is another method and path of the route above
it: the same operation, pipeline and handler.

Every request takes one pipeline: the route and the caller's token are
resolved once, then the guards, the limits, the body, the faults and the
endpoint read that resolution. --pipeline lists its steps in order.`,
		Example: `  sandbox routes
  sandbox routes --pipeline
  sandbox routes --json | jq '.[] | select(.group=="Products")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if pipeline {
				return printPipeline(cmd.OutOrStdout(), asJSON)
			}
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
	cmd.Flags().BoolVar(&pipeline, "pipeline", false, "print the steps every request takes, in order, instead of the routes")
	return cmd
}

// openQuiet opens a sandbox on a free loopback port without serving it,
// to read its live tables.
func openQuiet() (*app.App, error) {
	return app.Open(sandbox.Config{Addr: "127.0.0.1:0"}, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// printPipeline prints the live pipeline of a sandbox built as `sandbox
// up` builds it.
func printPipeline(w io.Writer, asJSON bool) error {
	a, err := openQuiet()
	if err != nil {
		return err
	}
	defer func() { _ = a.Close(context.Background()) }()
	steps := a.Server.Pipeline()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(steps)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tSTAGE\tSTEP\tWHAT")
	for i, s := range steps {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i+1, s.Stage, s.Name, s.What)
	}
	return tw.Flush()
}

// routeTable joins the catalogue with the registry and with the owner
// table of a sandbox opened on a free loopback port and closed again
// without serving: the live table, not a copy of it.
func routeTable() ([]route, error) {
	a, err := openQuiet()
	if err != nil {
		return nil, err
	}
	defer func() { _ = a.Close(context.Background()) }()
	aliases := map[string][]routeAlias{}
	for _, rt := range a.Routes() {
		for _, al := range rt.Aliases {
			aliases[rt.Operation] = append(aliases[rt.Operation], routeAlias{Method: al.Method, Path: al.Path, ByBody: al.When != nil})
		}
	}
	reg, err := registry.New(registry.Rows())
	if err != nil {
		return nil, err
	}
	out := make([]route, 0, len(a.Catalogue.Endpoints))
	for _, e := range a.Catalogue.Endpoints {
		rt := route{Method: e.Method, Path: e.Path, Operation: e.Operation, Group: e.Group, Resource: "-", Kind: "package", ServedBy: "-",
			Aliases: aliases[e.Operation]}
		if o, ok := a.Owner(e.Operation); ok {
			rt.ServedBy = o.String()
		}
		rt.Module, _ = a.Catalogue.ModuleOf(e.Operation)
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
	fmt.Fprintln(tw, "METHOD\tPATH\tOPERATION\tGROUP\tRESOURCE\tKIND\tSTATUS\tSERVED BY\tMODULE")
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
		module := r.Module
		if module == "" {
			module = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Method, r.Path, r.Operation, r.Group, r.Resource, r.Kind, st, r.ServedBy, module)
		for _, al := range r.Aliases {
			kind := "alias"
			if al.ByBody {
				kind = "alias (by body)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", al.Method, al.Path, r.Operation, r.Group, r.Resource, kind, st, r.ServedBy, module)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d endpoints; %d in the registry table (%d served by its generic handlers), %d outside it\n", len(rows), table, generic, len(rows)-table)
	return err
}

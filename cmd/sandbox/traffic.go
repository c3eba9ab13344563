package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/controlclient"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

func newTrafficCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "traffic",
		Short: "Work with the traffic a sandbox recorded",
		Example: `  sandbox traffic export --har calls.har
  sandbox traffic export --har - --url http://127.0.0.1:9000 | jq '.log.entries | length'`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newTrafficExportCmd())
	return cmd
}

func newTrafficExportCmd() *cobra.Command {
	var url, harFile string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the recorded calls and webhook attempts as HAR",
		Long: `Fetch the calls and webhook delivery attempts a running sandbox recorded
(GET /_sandbox/traffic.har) and write them as an HTTP Archive (HAR 1.2), which
a browser's developer tools can open (Network tab, import). The sandbox keeps
the newest calls and attempts only (see --traffic-history of sandbox up).`,
		Example: `  sandbox traffic export --har calls.har
  sandbox traffic export --har - --url http://127.0.0.1:9000`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if harFile == "" {
				return usageError(cmd, "--har: give the file to write (- for standard output)")
			}
			target, err := resolveTarget(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			base := target.URL
			body, err := fetchHAR(target)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			var doc traffic.HAR
			if err := json.Unmarshal(body, &doc); err != nil {
				return fail(cmd, "%s%s did not answer HAR: %v", base, traffic.HARPath, err)
			}
			if harFile == "-" {
				_, err = cmd.OutOrStdout().Write(body)
				return err
			}
			if err := os.WriteFile(harFile, body, 0o644); err != nil {
				return fail(cmd, "%v", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d entries to %s\n", len(doc.Log.Entries), harFile)
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &url)
	f.StringVar(&harFile, "har", "", "HAR file to write; - writes to standard output")
	return cmd
}

func fetchHAR(t discover.Target) ([]byte, error) {
	cc := controlclient.New(t.URL, &http.Client{Timeout: 30 * time.Second})
	body, err := cc.Document(context.Background(), traffic.HARPath)
	var te *controlclient.TransportError
	if errors.As(err, &te) {
		return nil, errors.New(unreachable(t, te.Err))
	}
	return body, err
}

package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

func newInstallCmd() *cobra.Command {
	var (
		url, name string
		eshopID   int
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Install an add-on into an e-shop of a running sandbox and judge the handshake",
		Long: `Play the e-shop installing an add-on: the sandbox sends GET <installUrl>?code=<255
characters> to the add-on, watches it exchange the code at
{eshop_url}/action/ApiOAuthServer/token, and judges the handshake. The add-on
must exchange the code while handling the install request and answer 200 only
once it holds the OAuth access token.

The report lists every code exchange, the answer and each problem with what to
fix. The exit code is 0 when the handshake passed, 1 when it failed or could
not start. Past reports: GET /_sandbox/installs.`,
		Example: `  sandbox install --addon example-addon --eshop 1001
  sandbox install --addon example-addon --eshop 1002 --url http://127.0.0.1:9000
  sandbox install --addon example-addon --eshop 1001 --json`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if name == "" || eshopID <= 0 {
				return usageError(cmd, "name the add-on and the e-shop: sandbox install --addon NAME --eshop ID")
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			// The handshake may take the add-on its whole install time.
			c.HTTP.Timeout = addons.DefaultInstallTimeout + addons.DefaultLateGrace + 30*time.Second
			var data json.RawMessage
			if err := c.call(cmd.Context(), http.MethodPost, fmt.Sprintf("/_sandbox/eshops/%d/install", eshopID), map[string]string{"addon": name}, &data); err != nil {
				return fail(cmd, "%v", err)
			}
			var rec addons.InstallReport
			if err := json.Unmarshal(data, &rec); err != nil {
				return fail(cmd, "the install report could not be read: %v", err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(out, data); err != nil {
					return fail(cmd, "%v", err)
				}
			} else {
				rec.WriteText(out)
			}
			if !rec.Passed {
				return fail(cmd, "the install handshake of %s into e-shop %d failed (%d problem(s), see the report)", name, eshopID, len(rec.Problems))
			}
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &url)
	f.StringVar(&name, "addon", "", "name of the add-on to install (as configured in the sandbox)"+envHelp("addon"))
	f.IntVar(&eshopID, "eshop", 0, "id of the e-shop to install it into"+envHelp("eshop"))
	f.BoolVar(&asJSON, "json", false, "print the report as JSON"+envHelp("json"))
	mustComplete(cmd, "addon", completeAddons)
	mustComplete(cmd, "eshop", completeEshops)
	return cmd
}

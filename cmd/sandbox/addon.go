package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/addons"
)

func newAddonCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "addon",
		Short: "Register your own add-on with a running sandbox, list and remove add-ons",
		Long: `Add-ons are configured per e-shop, as in the partner administration of the real
service: the install URL the e-shop calls with a code, the webhook URL its system
events go to, the OAuth client credentials and the endpoints it may call. The
fixtures bring example-addon; 'sandbox addon add' registers yours. A reset or a
restart forgets it: run the same command again (give --client-id and
--client-secret, so your add-on's own configuration stays valid).`,
	}
	cmd.AddCommand(newAddonAddCmd(), newAddonListCmd(), newAddonRemoveCmd())
	return cmd
}

// outputFormats are the values of --output.
var outputFormats = []string{"text", "env", "json"}

func checkOutput(cmd *cobra.Command, output string, allowed ...string) error {
	for _, a := range allowed {
		if output == a {
			return nil
		}
	}
	return usageError(cmd, "--output %q: give %s", output, strings.Join(allowed, ", "))
}

func newAddonAddCmd() *cobra.Command {
	var (
		url, installURL, webhookURL, redirectURI string
		endpoints, clientID, clientSecret        string
		output                                   string
		eshopID                                  int
		pending                                  bool
	)
	cmd := &cobra.Command{
		Use:   "add NAME --install-url URL",
		Short: "Register an add-on (yours) with a running sandbox, and print its credentials",
		Long: `Register an add-on in an e-shop of the running sandbox (PUT
/_sandbox/eshops/{eshopId}/addons/{name}), or change it when it exists, and
print what the add-on needs: its OAuth client id and secret, the OAuth server
URL it exchanges the install code at, and the e-shop URL.

--endpoints is "all" (every endpoint of the catalogue, the default) or a
comma-separated list of operation names (GetOrderDetail,UpdateOrderStatus) or
"METHOD /path" entries; they are approved at once unless --pending. Without
--client-id and --client-secret a new add-on gets generated ones; give them
to keep your add-on's configuration valid across restarts and resets. Without
--eshop the add-on goes into the sandbox's first e-shop.

--output env prints SANDBOX_URL, SANDBOX_ESHOP, SANDBOX_ESHOP_URL,
SANDBOX_OAUTH_URL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET and SANDBOX_ADDON
as NAME=VALUE lines an add-on can read (an env file); --output json prints the
sandbox's answer. Then install it: sandbox install --addon NAME --eshop ID.`,
		Example: `  sandbox addon add my-addon --install-url http://127.0.0.1:9090/install --webhook-url http://127.0.0.1:9090/webhooks
  sandbox addon add my-addon --install-url http://127.0.0.1:9090/install --output env > my-addon.env
  sandbox addon add my-addon --install-url http://127.0.0.1:9090/install --client-id my-client --client-secret my-secret --eshop 1002
  sandbox addon add my-addon --install-url http://127.0.0.1:9090/install --endpoints GetOrderDetail,UpdateOrderStatus --pending`,
		Args: exactArgs(1, "the add-on's name"),
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(cmd, output, outputFormats...); err != nil {
				return err
			}
			if installURL == "" {
				return usageError(cmd, "--install-url: give the URL the e-shop calls with the install code")
			}
			if (clientID == "") != (clientSecret == "") {
				return usageError(cmd, "give --client-id and --client-secret together (or neither, for generated ones)")
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			ctx := cmd.Context()
			if eshopID == 0 {
				shops, err := listEshops(cmd, c)
				if err != nil {
					return fail(cmd, "%v", err)
				}
				if len(shops) == 0 {
					return fail(cmd, "the sandbox at %s has no e-shop", c.target.URL)
				}
				eshopID = shops[0].ID
			}
			body := map[string]any{"installUrl": installURL, "approved": !pending}
			if webhookURL != "" {
				body["webhookUrl"] = webhookURL
			}
			if redirectURI != "" {
				body["redirectUri"] = redirectURI
			}
			if clientID != "" {
				body["clientId"], body["clientSecret"] = clientID, clientSecret
			}
			if strings.TrimSpace(endpoints) == "all" {
				body["endpoints"] = "all"
			} else {
				var list []string
				for _, e := range strings.Split(endpoints, ",") {
					if e = strings.TrimSpace(e); e != "" {
						list = append(list, e)
					}
				}
				if len(list) == 0 {
					return usageError(cmd, "--endpoints: give all, or operation names separated by commas")
				}
				body["endpoints"] = list
			}
			var v addons.View
			path := fmt.Sprintf("/_sandbox/eshops/%d/addons/%s", eshopID, args[0])
			if err := c.call(ctx, http.MethodPut, path, body, &v); err != nil {
				return fail(cmd, "%v", err)
			}
			out := cmd.OutOrStdout()
			switch output {
			case "env":
				writeAddonEnv(out, c.target.URL, &v)
			case "json":
				return writeJSON(out, v)
			default:
				writeAddonText(out, &v)
			}
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &url)
	f.StringVar(&installURL, "install-url", "", "where the e-shop sends GET <install-url>?code=... (required)"+envHelp("install-url"))
	f.StringVar(&webhookURL, "webhook-url", "", "where the add-on's system events go (addon:uninstall, addon:suspend, ...)"+envHelp("webhook-url"))
	f.StringVar(&redirectURI, "redirect-uri", "", "the redirect_uri the add-on sends in the code exchange (default: the install URL)"+envHelp("redirect-uri"))
	f.StringVar(&endpoints, "endpoints", "all", "all, or operation names (or \"METHOD /path\") separated by commas"+envHelp("endpoints"))
	f.BoolVar(&pending, "pending", false, "leave the endpoints waiting for approval (POST .../approve), as a new add-on's are"+envHelp("pending"))
	f.StringVar(&clientID, "client-id", "", "fixed OAuth client id (default: generated)"+envHelp("client-id"))
	f.StringVar(&clientSecret, "client-secret", "", "fixed OAuth client secret (default: generated)"+envHelp("client-secret"))
	f.IntVar(&eshopID, "eshop", 0, "the e-shop to register it in (default: the sandbox's first)"+envHelp("eshop"))
	f.StringVarP(&output, "output", "o", "text", "text, env (NAME=VALUE lines) or json"+envHelp("output"))
	mustComplete(cmd, "eshop", completeEshops)
	mustComplete(cmd, "output", completeWords(outputFormats...))
	return cmd
}

// grantCounts counts an add-on's approved endpoints and those waiting for
// approval.
func grantCounts(v *addons.View) (approved, waiting int) {
	for _, g := range v.Endpoints {
		if g.Approved {
			approved++
		} else {
			waiting++
		}
	}
	return approved, waiting
}

// writeAddonText prints what a developer copies into their add-on.
func writeAddonText(w io.Writer, v *addons.View) {
	approved, waiting := grantCounts(v)
	fmt.Fprintf(w, "add-on %s in e-shop %d (%s): %d endpoints approved, %d waiting for approval\n", v.Name, v.EshopID, v.Status, approved, waiting)
	fmt.Fprintf(w, "  client id:     %s\n  client secret: %s\n", v.ClientID, v.ClientSecret)
	fmt.Fprintf(w, "  OAuth server:  %s\n  e-shop URL:    %s\n", v.TokenURL, v.EshopURL)
	fmt.Fprintf(w, "  install URL:   %s\n", v.InstallURL)
	if v.WebhookURL != "" {
		fmt.Fprintf(w, "  webhook URL:   %s\n", v.WebhookURL)
	}
	fmt.Fprintf(w, "install it:      sandbox install --addon %s --eshop %d\n", v.Name, v.EshopID)
}

// writeAddonEnv prints the add-on's settings as an env file.
func writeAddonEnv(w io.Writer, base string, v *addons.View) {
	for _, kv := range [][2]string{
		{"SANDBOX_URL", base},
		{"SANDBOX_ESHOP", strconv.Itoa(v.EshopID)},
		{"SANDBOX_ESHOP_URL", v.EshopURL},
		{"SANDBOX_OAUTH_URL", v.TokenURL},
		{"SANDBOX_CLIENT_ID", v.ClientID},
		{"SANDBOX_CLIENT_SECRET", v.ClientSecret},
		{"SANDBOX_ADDON", v.Name},
	} {
		fmt.Fprintf(w, "%s=%s\n", kv[0], shellQuote(kv[1]))
	}
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:@%+=,-]+$`)

// shellQuote leaves plain words as they are (an env file reads them the
// same in every tool) and single-quotes anything else.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeJSON(w io.Writer, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(raw))
	return err
}

// eshopSummary is one e-shop of GET /_sandbox/eshops.
type eshopSummary struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Addons []struct {
		Name string `json:"name"`
	} `json:"addons"`
}

// listEshops reads the running sandbox's e-shops, lowest id first.
func listEshops(cmd *cobra.Command, c *controlClient) ([]eshopSummary, error) {
	var data struct {
		Eshops []eshopSummary `json:"eshops"`
	}
	if err := c.call(cmd.Context(), http.MethodGet, "/_sandbox/eshops", nil, &data); err != nil {
		return nil, err
	}
	sort.Slice(data.Eshops, func(i, j int) bool { return data.Eshops[i].ID < data.Eshops[j].ID })
	return data.Eshops, nil
}

func newAddonListCmd() *cobra.Command {
	var (
		url, output string
		eshopID     int
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the add-ons of the running sandbox's e-shops",
		Long: `List every add-on of every e-shop (or of --eshop): its status, approved and
waiting endpoints, valid API tokens and install URL.`,
		Example: `  sandbox addon list
  sandbox addon list --eshop 1001 --output json`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(cmd, output, "text", "json"); err != nil {
				return err
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			shops, err := listEshops(cmd, c)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			all := []addons.View{}
			for _, s := range shops {
				if eshopID != 0 && s.ID != eshopID {
					continue
				}
				var data struct {
					Addons []addons.View `json:"addons"`
				}
				if err := c.call(cmd.Context(), http.MethodGet, fmt.Sprintf("/_sandbox/eshops/%d/addons", s.ID), nil, &data); err != nil {
					return fail(cmd, "%v", err)
				}
				all = append(all, data.Addons...)
			}
			if output == "json" {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"addons": all})
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ESHOP\tNAME\tSTATUS\tENDPOINTS\tTOKENS\tINSTALL URL")
			for i := range all {
				v := &all[i]
				approved, waiting := grantCounts(v)
				eps := strconv.Itoa(approved)
				if waiting > 0 {
					eps += fmt.Sprintf(" (+%d waiting)", waiting)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\n", v.EshopID, v.Name, v.Status, eps, v.ValidAPITokens, v.InstallURL)
			}
			return tw.Flush()
		},
	}
	addURLFlag(cmd, &url)
	cmd.Flags().IntVar(&eshopID, "eshop", 0, "only this e-shop's add-ons"+envHelp("eshop"))
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json"+envHelp("output"))
	mustComplete(cmd, "eshop", completeEshops)
	mustComplete(cmd, "output", completeWords("text", "json"))
	return cmd
}

func newAddonRemoveCmd() *cobra.Command {
	var (
		url     string
		eshopID int
	)
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an add-on from the running sandbox (its tokens are revoked)",
		Long: `Remove an add-on from one e-shop (--eshop) or from every e-shop that has it
(DELETE /_sandbox/eshops/{eshopId}/addons/{name}). Its API and OAuth tokens are
revoked; no system event is sent (POST .../uninstall first for addon:uninstall).`,
		Example: `  sandbox addon remove my-addon
  sandbox addon remove my-addon --eshop 1002`,
		Args:              exactArgs(1, "the add-on's name"),
		ValidArgsFunction: completeAddonArg,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			var ids []int
			if eshopID != 0 {
				ids = []int{eshopID}
			} else {
				shops, err := listEshops(cmd, c)
				if err != nil {
					return fail(cmd, "%v", err)
				}
				for _, s := range shops {
					for _, a := range s.Addons {
						if a.Name == name {
							ids = append(ids, s.ID)
						}
					}
				}
				if len(ids) == 0 {
					return fail(cmd, "no e-shop of the sandbox at %s has an add-on %q (sandbox addon list shows them)", c.target.URL, name)
				}
			}
			for _, id := range ids {
				var res addons.Removed
				if err := c.call(cmd.Context(), http.MethodDelete, fmt.Sprintf("/_sandbox/eshops/%d/addons/%s", id, name), nil, &res); err != nil {
					return fail(cmd, "%v", err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed add-on %s from e-shop %d (%d API token(s), %d OAuth token(s) revoked)\n",
					name, id, res.Revoked.APITokens, res.Revoked.OAuthTokens)
				fmt.Fprintf(cmd.OutOrStdout(), "  its webhooks deleted: %d; deliveries to them still waiting, canceled: %d\n",
					res.Webhooks.Webhooks, res.Webhooks.Deliveries)
			}
			return nil
		},
	}
	addURLFlag(cmd, &url)
	cmd.Flags().IntVar(&eshopID, "eshop", 0, "only from this e-shop (default: every e-shop that has it)"+envHelp("eshop"))
	mustComplete(cmd, "eshop", completeEshops)
	return cmd
}

// completeAddonArg completes an add-on name given as the argument.
func completeAddonArg(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return completeAddons(cmd, args, toComplete)
}

package main

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox/shop/webhooks"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func newEmitCmd() *cobra.Command {
	var (
		target, addonName, created string
		eshopID                    int
		instances                  []string
		asJSON                     bool
	)
	cmd := &cobra.Command{
		Use:   "emit EVENT --eshop ID --instance VALUE",
		Short: "Send a webhook event of a running sandbox to its registered receivers",
		Long: `Emit an event as if the e-shop had made the change (POST /_sandbox/events):
every add-on of the e-shop with a webhook registered for the event gets the
notification, signed with its key and retried like every delivery, and the
attempts show in the traffic, the terminal UI and GET /_sandbox/deliveries.

EVENT is any event of the reference (order:create, product:update, ...),
system events included (addon:uninstall, ... with --addon naming the
add-on; every add-on with a webhook URL when absent). --instance is the
changed entity's identifier; give it several times for a mass event, whose
eventInstance is the list as the service writes it.`,
		Example: `  sandbox emit order:create --eshop 1001 --instance 2025000001
  sandbox emit product:update --eshop 1001 --instance 12 --instance 14   # a mass event
  sandbox emit addon:suspend --eshop 1001 --instance example-addon --addon example-addon
  sandbox emit order:create --eshop 1001 --instance 2025000001 --json`,
		Args:              exactArgs(1, "the event to emit"),
		ValidArgsFunction: completeEvents,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if eshopID <= 0 || len(instances) == 0 {
				return usageError(cmd, "name the e-shop and the changed entity: sandbox emit %s --eshop ID --instance VALUE", args[0])
			}
			body := map[string]any{"eshop": eshopID, "event": args[0], "instance": instances[0]}
			if len(instances) > 1 {
				body["instance"] = instances
			}
			if addonName != "" {
				body["addon"] = addonName
			}
			if created != "" {
				body["eventCreated"] = created
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			var data json.RawMessage
			if err := c.call(cmd.Context(), http.MethodPost, "/_sandbox/events", body, &data); err != nil {
				return fail(cmd, "%v", err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(out, data); err != nil {
					return fail(cmd, "%v", err)
				}
				return nil
			}
			var ev webhooks.EmittedEvent
			if err := json.Unmarshal(data, &ev); err != nil {
				return fail(cmd, "the sandbox's answer could not be read: %v", err)
			}
			fmt.Fprintf(out, "emitted %s %s in e-shop %d at %s\n", ev.Event, ev.Instance, ev.EshopID, ev.EventCreated)
			if ev.Addon != "" {
				fmt.Fprintf(out, "  to add-on %s\n", ev.Addon)
			}
			// Event names are letters and a colon, which a query may hold as
			// they are: the address stays readable and copyable.
			fmt.Fprintf(out, "  its deliveries: %s/_sandbox/deliveries?eshop=%d&event=%s (or sandbox traffic, sandbox tui)\n", c.target.URL, ev.EshopID, ev.Event)
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &target)
	f.IntVar(&eshopID, "eshop", 0, "id of the e-shop whose change it is"+envHelp("eshop"))
	f.StringArrayVar(&instances, "instance", nil, "the changed entity's identifier (repeat for a mass event)")
	f.StringVar(&addonName, "addon", "", "system events (addon:*) only: the add-on it concerns; every add-on with a webhook URL when absent")
	f.StringVar(&created, "created", "", "the event's eventCreated time (default: the sandbox clock's now)")
	f.BoolVar(&asJSON, "json", false, "print the emitted event as JSON"+envHelp("json"))
	mustComplete(cmd, "eshop", completeEshops)
	mustComplete(cmd, "addon", completeAddons)
	return cmd
}

// completeEvents offers the reference's event names.
func completeEvents(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	cat, err := schemas.LoadCatalogue()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return cat.Events, cobra.ShellCompDirectiveNoFileComp
}

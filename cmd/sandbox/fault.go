package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/eshop-sandbox/sandbox/sandbox/app/scenario"
)

func newFaultCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fault",
		Short: "Add, list and clear faults of a running sandbox",
		Long: `Faults make the running sandbox misbehave on purpose while your add-on runs:
answer an error (429 with a full bucket's Retry-After, 401 expired-token, 503, ...), answer
late, close the connection, expire a token, hold a write lock, fill the rate
bucket, open a maintenance window, fail a job, or break webhook deliveries.
They act on every matching call, the add-on's own included, and the traffic
marks the calls they acted on. They use the scenario file's fault syntax
(POST /_sandbox/faults) and last until removed or until a reset.`,
	}
	cmd.AddCommand(newFaultAddCmd(), newFaultListCmd(), newFaultClearCmd())
	return cmd
}

// faultFlags are the flags of sandbox fault add that build a fault.
type faultFlags struct {
	from, name                                     string
	operation, path, method, addon, tokenKind, evt string
	eshop, nth, times                              int
	status                                         int
	errorCode, message                             string
	retryAfter, latency, holdLock, maintenance     time.Duration
	close, fillBucket                              bool
	expireAfter                                    int
	job, webhook                                   string
	delay                                          time.Duration
}

// fault builds the fault in the scenario file's syntax from the flags
// that were given (the sandbox checks it, as it checks a file's).
func (ff *faultFlags) fault(cmd *cobra.Command) (map[string]any, error) {
	if ff.from != "" {
		var raw []byte
		var err error
		if ff.from == "-" {
			raw, err = io.ReadAll(io.LimitReader(cmd.InOrStdin(), scenario.MaxFaultBody+1))
		} else {
			raw, err = os.ReadFile(ff.from)
		}
		if err != nil {
			return nil, err
		}
		var v map[string]any
		if err := yaml.Unmarshal(raw, &v); err != nil {
			return nil, fmt.Errorf("--from %s: not a YAML or JSON fault: %v", ff.from, err)
		}
		if v == nil {
			return nil, fmt.Errorf("--from %s: the file holds no fault", ff.from)
		}
		return v, nil
	}
	set := cmd.Flags().Changed
	f := map[string]any{}
	match := map[string]any{}
	if ff.name != "" {
		f["name"] = ff.name
	}
	for _, s := range []struct {
		flag, key string
		v         any
	}{
		{"operation", "operation", ff.operation}, {"path", "path", ff.path}, {"method", "method", strings.ToUpper(ff.method)},
		{"addon", "addon", ff.addon}, {"token-kind", "tokenKind", ff.tokenKind}, {"event", "event", ff.evt},
		{"eshop", "eshop", ff.eshop}, {"nth", "nth", ff.nth}, {"times", "times", ff.times},
	} {
		if set(s.flag) {
			match[s.key] = s.v
		}
	}
	if len(match) > 0 {
		f["match"] = match
	}
	if set("status") {
		r := map[string]any{"status": ff.status}
		if ff.errorCode != "" {
			r["errorCode"] = ff.errorCode
		}
		if ff.message != "" {
			r["message"] = ff.message
		}
		if set("retry-after") {
			r["retryAfter"] = ff.retryAfter.String()
		}
		f["respond"] = r
	} else if set("retry-after") || set("error-code") || set("message") {
		return nil, fmt.Errorf("--retry-after, --error-code and --message go with --status")
	}
	if set("latency") {
		f["latency"] = ff.latency.String()
	}
	if ff.close {
		f["close"] = true
	}
	if set("expire-token-after") {
		f["expireToken"] = map[string]any{"after": ff.expireAfter}
	}
	if set("hold-lock") {
		f["holdLock"] = map[string]any{"for": ff.holdLock.String()}
	}
	if ff.fillBucket {
		f["fillBucket"] = true
	}
	if set("maintenance") {
		f["maintenance"] = map[string]any{"for": ff.maintenance.String()}
	}
	if ff.job != "" {
		f["job"] = map[string]any{"outcome": ff.job}
	}
	if ff.webhook != "" {
		w := map[string]any{"fault": ff.webhook}
		if set("delay") {
			w["delay"] = ff.delay.String()
		}
		f["webhook"] = w
	}
	return f, nil
}

func newFaultAddCmd() *cobra.Command {
	var (
		url, output string
		ff          faultFlags
	)
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Add a fault to the running sandbox; it acts on the calls it matches until removed",
		Long: `Add one fault to the running sandbox (POST /_sandbox/faults). The match flags
say which calls it acts on (all given must hold; none: every API call), the
action flags what it does: exactly one of --status (with --retry-after,
--error-code, --message), --close, --expire-token-after, --hold-lock,
--fill-bucket, --maintenance, --job or --webhook; --latency alone or with
another. --from reads a fault in the scenario file's syntax (YAML or JSON, -
for standard input) instead. The answer names the fault's id, for
'sandbox fault clear ID'.`,
		Example: `  sandbox fault add --operation GetOrderDetail --addon my-addon --times 1 --status 429 --retry-after 2s
  sandbox fault add --path '/api/orders/*' --latency 3s
  sandbox fault add --addon my-addon --status 401 --error-code expired-token --nth 1
  sandbox fault add --event order:create --webhook bad-signature --times 1
  sandbox fault add --from fault.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(cmd, output, "text", "json"); err != nil {
				return err
			}
			body, err := ff.fault(cmd)
			if err != nil {
				return usageError(cmd, "%v", err)
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			var v scenario.FaultView
			if err := c.call(cmd.Context(), http.MethodPost, scenario.FaultsPath, body, &v); err != nil {
				return fail(cmd, "%v", err)
			}
			if output == "json" {
				return writeJSON(cmd.OutOrStdout(), v)
			}
			def, _ := json.Marshal(v.Fault)
			fmt.Fprintf(cmd.OutOrStdout(), "added fault %s (%s): %s\nremove it with: sandbox fault clear %s\n", v.ID, v.Kind, def, v.ID)
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &url)
	f.StringVar(&ff.from, "from", "", "read the fault from this YAML or JSON file in the scenario file's fault syntax (- for standard input)")
	f.StringVar(&ff.name, "name", "", "the fault's name, shown in the traffic (default: its id)")
	f.StringVar(&ff.operation, "operation", "", "match: the call's operation (GetOrderDetail; sandbox routes lists them)")
	f.StringVar(&ff.path, "path", "", "match: the URL path; * is one segment, a trailing /** any rest (/api/orders/*)")
	f.StringVar(&ff.method, "method", "", "match: the HTTP method")
	f.StringVar(&ff.addon, "addon", "", "match: calls made with this add-on's API tokens")
	f.StringVar(&ff.tokenKind, "token-kind", "", "match: private or addon (by the header the token came in)")
	f.StringVar(&ff.evt, "event", "", "match, webhook faults: deliveries of this event (order:create)")
	f.IntVar(&ff.eshop, "eshop", 0, "match: calls for this e-shop")
	f.IntVar(&ff.nth, "nth", 0, "match: only the nth matching call (1 is the first)")
	f.IntVar(&ff.times, "times", 0, "match: at most this many matching calls")
	f.IntVar(&ff.status, "status", 0, "action: answer this status with the spec's error envelope (400 401 403 404 409 413 422 423 429 500 503)")
	f.StringVar(&ff.errorCode, "error-code", "", "with --status: the errorCode (default per status: 401 expired-token, 429 too-many-connections, ...)")
	f.StringVar(&ff.message, "message", "", "with --status: the message")
	f.DurationVar(&ff.retryAfter, "retry-after", 0, "with --status 429: hold the caller's rate bucket full this long (rate-limit-exceeded, Retry-After this far ahead)")
	f.DurationVar(&ff.latency, "latency", 0, "action: answer this much later")
	f.BoolVar(&ff.close, "close", false, "action: close the connection without an answer")
	f.IntVar(&ff.expireAfter, "expire-token-after", 0, "action: the call's token works for this many matching calls, then expires")
	f.DurationVar(&ff.holdLock, "hold-lock", 0, "action: hold the call's write lock this long (423)")
	f.BoolVar(&ff.fillBucket, "fill-bucket", false, "action: fill the caller's rate bucket (429 with Retry-After)")
	f.DurationVar(&ff.maintenance, "maintenance", 0, "action: open a maintenance window this long (503)")
	f.StringVar(&ff.job, "job", "", "action: fail or stall the job the call queues")
	f.StringVar(&ff.webhook, "webhook", "", "action on deliveries: bad-signature, duplicate, out-of-order or delay")
	f.DurationVar(&ff.delay, "delay", 0, "with --webhook delay: how long")
	f.StringVarP(&output, "output", "o", "text", "text or json")
	mustComplete(cmd, "token-kind", completeWords("private", "addon"))
	mustComplete(cmd, "job", completeWords("fail", "stall"))
	mustComplete(cmd, "webhook", completeWords("bad-signature", "duplicate", "out-of-order", "delay"))
	mustComplete(cmd, "eshop", completeEshops)
	mustComplete(cmd, "addon", completeAddons)
	mustComplete(cmd, "output", completeWords("text", "json"))
	return cmd
}

func newFaultListCmd() *cobra.Command {
	var (
		url, output string
		builtins    bool
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the faults in force, the calls each matched and the calls it faulted",
		Long: `List the faults of the running sandbox (GET /_sandbox/faults): those of the
scenario it serves and those added while serving, with two counts:

  CALLS MATCHED  calls that met the fault's conditions (JSON: matched)
  CALLS FAULTED  of those, the calls the fault changed (JSON: hits); a fault
                 with --times N faults at most N, so an add-on's retry after
                 a --times 1 fault is matched but served as usual (2 and 1)

--builtin adds the built-in faults a call can name in the <prefix>-Sandbox-Fault
header.`,
		Example: `  sandbox fault list
  sandbox fault list --builtin --output json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(cmd, output, "text", "json"); err != nil {
				return err
			}
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			var data struct {
				Faults []scenario.FaultView `json:"faults"`
			}
			if err := c.call(cmd.Context(), http.MethodGet, scenario.FaultsPath, nil, &data); err != nil {
				return fail(cmd, "%v", err)
			}
			shown := []scenario.FaultView{}
			for _, v := range data.Faults {
				if builtins || v.Source != scenario.SourceBuiltin {
					shown = append(shown, v)
				}
			}
			if output == "json" {
				return writeJSON(cmd.OutOrStdout(), map[string]any{"faults": shown})
			}
			if len(shown) == 0 {
				fmt.Fprintln(cmd.OutOrStdout(), "no faults in force (sandbox fault add puts one in)")
				return nil
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tSOURCE\tKIND\tTRIGGER\tCALLS MATCHED\tCALLS FAULTED")
			for _, v := range shown {
				id := v.ID
				if id == "" {
					id = "-"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%d\n", id, v.Name, v.Source, v.Kind, v.Trigger, v.Matched, v.Hits)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), "CALLS MATCHED met the fault's conditions; CALLS FAULTED were changed by it (at most --times: the others were served as usual)")
			return nil
		},
	}
	addURLFlag(cmd, &url)
	cmd.Flags().BoolVar(&builtins, "builtin", false, "also list the built-in faults")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	mustComplete(cmd, "output", completeWords("text", "json"))
	return cmd
}

func newFaultClearCmd() *cobra.Command {
	var url string
	cmd := &cobra.Command{
		Use:   "clear [ID...]",
		Short: "Remove faults added while serving: the ones named, or all",
		Long: `Remove faults added while serving (DELETE /_sandbox/faults/{id}), by id or
name; without an argument, all of them (DELETE /_sandbox/faults). The faults of
the scenario the sandbox serves stay.`,
		Example: `  sandbox fault clear
  sandbox fault clear f2`,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := newControlClient(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			out := cmd.OutOrStdout()
			if len(args) == 0 {
				var res struct {
					Removed int `json:"removed"`
				}
				if err := c.call(cmd.Context(), http.MethodDelete, scenario.FaultsPath, nil, &res); err != nil {
					return fail(cmd, "%v", err)
				}
				fmt.Fprintf(out, "removed %d fault(s)\n", res.Removed)
				return nil
			}
			for _, id := range args {
				if err := c.call(cmd.Context(), http.MethodDelete, scenario.FaultsPath+"/"+id, nil, nil); err != nil {
					return fail(cmd, "%v", err)
				}
				fmt.Fprintf(out, "removed fault %s\n", id)
			}
			return nil
		},
	}
	addURLFlag(cmd, &url)
	return cmd
}

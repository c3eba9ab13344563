package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/tools/certify"
	"github.com/eshop-sandbox/sandbox/schemas"
)

func newCertifyCmd() *cobra.Command {
	var (
		o                  certify.Options
		chaos              chaosFlags // --chaos, --seed (chaos.go)
		triggers           []string
		junit, html        string
		asJSON, logs       bool
		requireAll         bool // --require-all
		webhook, quiet     time.Duration
		settle, startAfter time.Duration
	)
	cmd := &cobra.Command{
		Use:   "certify --addon NAME --addon-url URL [--command CMD] [--trigger EVENT]...",
		Short: "Judge any add-on against the platform's rules and print a report card",
		Long: `Certify an add-on, whatever language it is written in: start a sandbox of
its own (on loopback, a free port unless --listen), register the add-on there
(its install URL, webhook URL and OAuth credentials; every endpoint approved),
start it with --command, and play the e-shop:

  install       the install handshake twice: the code exchanged before the
                answer 200, each code used once, the second install working;
  webhooks      a wrong and a missing signature (refused) beside a correctly
                signed notification (2xx within --webhook-timeout), the same
                one twice and two out of order (reported: handling is the
                add-on's choice);
  API           while the add-on calls: its next call answered 429 with
                Retry-After (it must wait), 423 (retry later), a 503
                maintenance window (stay away while it lasts), a 400 and
                a 422 (never sent again unchanged), a burst of slow calls (at
                most 3 open per token), an expired token (the next call uses a
                new one); and over the run: a Content-Type the API takes on
                every call, job:finished registered before asynchronous calls;
  system events addon:suspend, addon:approve and addon:uninstall acknowledged.

--trigger EVENT makes the add-on call: --trigger order:create creates a fresh
order through the API each time, in the e-shop's default status as a buyer's
order comes in (the e-shop sends order:create for it), so an add-on that
processes new orders writes under the fault rounds; the card lists those
writes. EVENT=INSTANCE names the entity; other events take one of the
e-shop's orders, customers or products in turn.

A check is judged on what the add-on did, never assumed: one it gave no
evidence for says "not exercised" (no API call, no more calls than the limit
to make, every webhook refused alike, ...). When the first round's trigger
leads to no API call within --settle, the other rounds are not played.

--header-prefix WORD is the brand word of the run's sandbox, as for up:
<WORD>-Access-Token, application/vnd.<word>.v1.0, <WORD>-Webhook-Signature.
An add-on whose client library hard-codes its word is certified unchanged
with that word; the card says which word the run spoke, and notes calls
that sent their token in another one.

The command gets SANDBOX_URL, SANDBOX_ESHOP, SANDBOX_ESHOP_URL,
SANDBOX_OAUTH_URL, SANDBOX_CLIENT_ID, SANDBOX_CLIENT_SECRET, SANDBOX_ADDON,
SANDBOX_HEADER_PREFIX, ADDON_URL and ADDON_PORT in its environment, runs in
its own process group, and is stopped at the end.

The report card lists every check with its verdict and the calls and
deliveries that decided it, and ends FAILED (a check failed), INCOMPLETE
(none failed, some not exercised: neither passed nor failed) or CERTIFIED
(every check exercised, none failed); --junit (not exercised = skipped) and
--html write it for CI. The exit code is 1 when a check failed (or the run
could not start), else 0: INCOMPLETE is no failure, but is no certification
either; --require-all makes it exit 1 too, for a CI job that must certify.`,
		Example: `  sandbox certify --addon example-addon --addon-url http://127.0.0.1:9292/install --command 'sandbox example-addon --listen 127.0.0.1:9292' --trigger order:create
  sandbox certify --addon my-addon --addon-url http://127.0.0.1:9191/install --client-id my-client --client-secret my-secret --command 'python3 addon.py' --trigger order:create --junit certify.xml --html certify.html
  sandbox certify --addon my-addon --addon-url http://127.0.0.1:9191/install --listen 127.0.0.1:8090 --trigger order:create=2025000001   # the add-on runs already, pointed at 127.0.0.1:8090
  sandbox certify --addon my-addon --addon-url http://127.0.0.1:9191/install --header-prefix Acme --command ./bin/my-addon --trigger order:create   # its client library says Acme-Access-Token`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Addon == "" || o.InstallURL == "" {
				return usageError(cmd, "name the add-on and its install URL: sandbox certify --addon NAME --addon-url URL")
			}
			events := map[string]bool{}
			if cat, err := schemas.LoadCatalogue(); err == nil {
				for _, e := range cat.Events {
					events[e] = true
				}
			}
			for _, t := range triggers {
				tr, err := certify.ParseTrigger(t)
				if err != nil {
					return usageError(cmd, "%v", err)
				}
				if len(events) > 0 && !events[tr.Event] {
					return usageError(cmd, "--trigger %s: %q is not an event of the webhook catalogue", t, tr.Event)
				}
				o.Triggers = append(o.Triggers, tr)
			}
			o.Timing = certify.Timing{Webhook: webhook, Quiet: quiet, Settle: settle, Start: startAfter}
			o.Version = buildVersion()
			var err error
			if o.ChaosRate, o.ChaosSeed, err = chaos.parse(); err != nil {
				return usageError(cmd, "%v", err)
			}
			if logs {
				o.Log = cmd.ErrOrStderr()
			}
			if !asJSON {
				o.Progress = cmd.ErrOrStderr()
			}
			if host, _, err := net.SplitHostPort(o.Addr); err == nil {
				if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
					fmt.Fprintf(cmd.ErrOrStderr(), "warning: --listen %s is reachable from the network while certify runs: its control plane has no authentication. Listen on 127.0.0.1 unless you mean this.\n", o.Addr)
				}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			rep, err := certify.Run(ctx, o)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				if err := writeJSON(out, rep); err != nil {
					return fail(cmd, "%v", err)
				}
			} else {
				rep.WriteText(out)
			}
			for _, w := range []struct {
				file  string
				write func(*bytes.Buffer) error
			}{{junit, func(b *bytes.Buffer) error { return rep.WriteJUnit(b) }}, {html, func(b *bytes.Buffer) error { return rep.WriteHTML(b) }}} {
				if w.file == "" {
					continue
				}
				var buf bytes.Buffer
				if err := w.write(&buf); err != nil {
					return fail(cmd, "%s: %v", w.file, err)
				}
				if err := os.WriteFile(w.file, buf.Bytes(), 0o644); err != nil {
					return fail(cmd, "%v", err)
				}
				if !asJSON {
					fmt.Fprintf(out, "wrote %s\n", w.file)
				}
			}
			if ctx.Err() != nil {
				return fail(cmd, "interrupted")
			}
			return certifyExit(rep, requireAll)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Addon, "addon", "", "the add-on's name (example-addon keeps the fixtures' credentials)"+envHelp("addon"))
	f.StringVar(&o.InstallURL, "addon-url", "", "the add-on's install URL, where the e-shop sends GET <url>?code=..."+envHelp("addon-url"))
	f.StringVar(&o.WebhookURL, "webhook-url", "", "where system events go (default: /webhooks at the install URL's origin)"+envHelp("webhook-url"))
	f.StringVar(&o.RedirectURI, "redirect-uri", "", "the redirect_uri the add-on sends in the code exchange (default: the install URL)"+envHelp("redirect-uri"))
	f.StringVar(&o.ClientID, "client-id", "", "fixed OAuth client id (default: the fixtures' for their add-ons, else generated)"+envHelp("client-id"))
	f.StringVar(&o.ClientSecret, "client-secret", "", "fixed OAuth client secret"+envHelp("client-secret"))
	f.IntVar(&o.Eshop, "eshop", 1001, "the e-shop to install it into"+envHelp("eshop"))
	f.StringVar(&o.Command, "command", "", "shell command that starts the add-on (stopped at the end)"+envHelp("command"))
	f.StringArrayVar(&triggers, "trigger", nil, "EVENT or EVENT=INSTANCE that makes the add-on call the API (repeatable; the first drives the fault rounds; order:create creates a fresh order each time)")
	f.StringVar(&o.Addr, "listen", "127.0.0.1:0", "address of the run's own sandbox"+envHelp("listen"))
	f.StringVar(&o.HeaderPrefix, "header-prefix", sandbox.DefaultHeaderPrefix, "brand word of the run's sandbox, as up --header-prefix: header names, media type, webhook signature header (<prefix>-Access-Token, application/vnd.<prefix>.v1.0)"+envHelp("header-prefix"))
	f.StringVar(&junit, "junit", "", "write JUnit XML (a test case per check) to this file"+envHelp("junit"))
	f.StringVar(&html, "html", "", "write the report card as a self-contained HTML page to this file"+envHelp("html"))
	f.BoolVar(&asJSON, "json", false, "print the report as JSON"+envHelp("json"))
	f.BoolVar(&requireAll, "require-all", false, "exit 1 when a check was not exercised (INCOMPLETE), not only when one failed"+envHelp("require-all"))
	f.DurationVar(&webhook, "webhook-timeout", certify.DefaultTiming.Webhook, "how soon a notification must be answered"+envHelp("webhook-timeout"))
	f.DurationVar(&quiet, "quiet", certify.DefaultTiming.Quiet, "the add-on is done with a stimulus after this long without a call"+envHelp("quiet"))
	f.DurationVar(&settle, "settle", certify.DefaultTiming.Settle, "longest wait for the add-on to react to a stimulus"+envHelp("settle"))
	f.DurationVar(&startAfter, "start-timeout", certify.DefaultTiming.Start, "longest wait for the add-on to listen at its install URL"+envHelp("start-timeout"))
	chaos.add(f)
	f.BoolVar(&logs, "sandbox-log", false, "show the run's sandbox warnings and errors on stderr")
	return cmd
}

// certifyExit is the command's outcome: an error (exit 1) when a check
// failed, and with requireAll also when a check was not exercised.
func certifyExit(rep *certify.Report, requireAll bool) error {
	switch {
	case rep.Failed():
		return reported{fmt.Errorf("%d check(s) failed", rep.Count(certify.Failed))}
	case requireAll && rep.Count(certify.NotExercised) > 0:
		return reported{fmt.Errorf("--require-all: %d check(s) not exercised: %s", rep.Count(certify.NotExercised), strings.Join(rep.NotExercised(), ", "))}
	}
	return nil
}

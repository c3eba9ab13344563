package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/app/discover"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
)

func newUpCmd() *cobra.Command {
	var (
		addr, data, syncPolicy, fixturesDir, prefix, logLevel, limitsMode string
		headless                                                          bool
	)
	var trafficHistory int                           // --traffic-history
	var scenarioFile string                          // --scenario
	var webhookAttempts int                          // --webhook-attempts
	var webhookBackoff, webhookTimeout time.Duration // --webhook-backoff, --webhook-timeout
	var publicURL string                             // --public-url
	var allowDownload []string                       // --allow-download
	var bodyTimeout, idleTimeout time.Duration       // --body-timeout, --idle-timeout
	var chaos chaosFlags                             // --chaos, --seed (chaos.go)
	var paymentWithin time.Duration                  // --payment-status-within
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Serve the sandbox API",
		Long: `Start the sandbox: seed the e-shops from the fixtures and serve the API.
It prints the base URL, each e-shop's URL and the tokens to call it with, and
shuts down cleanly on Ctrl-C or SIGTERM (in-flight requests finish, the data
file is closed).`,
		Example: `  sandbox up
  sandbox up --addr 127.0.0.1:9000
  sandbox up --data ./sandbox.db          # keep data across restarts
  sandbox up --fixtures ./my-fixtures     # seed from your own fixture folder
  SANDBOX_ADDR=127.0.0.1:0 sandbox up     # any free port
  curl -H 'Content-Type: application/json' \
       -H 'Service-Private-API-Token: <token printed at start>' \
       http://127.0.0.1:8080/api/eshop`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			// No heap profile is ever taken from a running sandbox: do not
			// pay for sampling one on every request.
			runtime.MemProfileRate = 0
			level := slog.LevelInfo
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level: %v", err)
			}
			// Catch signals before anything else, so a Ctrl-C during start-up
			// also ends in a clean shutdown.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			ui := newUpUI(cmd, headless) // the terminal UI, when stdout is a terminal (tui.go)
			log := slog.New(slog.NewTextHandler(ui.logs(cmd.ErrOrStderr()), &slog.HandlerOptions{Level: level}))
			cfg := sandbox.Config{Addr: addr, DataFile: data, Sync: syncPolicy, Headless: headless, HeaderPrefix: prefix,
				PublicURL: publicURL, BodyTimeout: bodyTimeout, IdleTimeout: idleTimeout, Version: buildVersion(), AllowDownload: allowDownload}
			if bodyTimeout <= 0 || idleTimeout <= 0 {
				return fail(cmd, "--body-timeout and --idle-timeout must be above 0")
			}
			if paymentWithin <= 0 {
				return fail(cmd, "--payment-status-within must be above 0")
			}
			cfg.PaymentStatusWithin = paymentWithin
			if webhookAttempts < 1 || webhookBackoff <= 0 || webhookTimeout <= 0 {
				return fail(cmd, "--webhook-attempts must be at least 1 and --webhook-backoff, --webhook-timeout above 0")
			}
			cfg.WebhookAttempts, cfg.WebhookBackoff, cfg.WebhookTimeout = webhookAttempts, webhookBackoff, webhookTimeout
			lim := sandbox.DefaultLimits()
			switch limitsMode {
			case "on":
			case "off":
				lim.Off = true
			default:
				return fail(cmd, "--limits must be on or off, not %q", limitsMode)
			}
			cfg.Limits = &lim
			if fixturesDir != "" {
				st, err := os.Stat(fixturesDir)
				if err != nil || !st.IsDir() {
					return fail(cmd, "--fixtures %s: not a folder", fixturesDir)
				}
				cfg.Fixtures, cfg.FixturesName = os.DirFS(fixturesDir), fixturesDir
			}
			cfg.TrafficHistory = trafficHistory
			var err error
			if cfg.ChaosRate, cfg.ChaosSeed, err = chaos.parse(); err != nil {
				return usageError(cmd, "%v", err)
			}
			if scenarioFile != "" { // scenario.go
				sc, err := loadScenario(scenarioFile)
				if err != nil {
					return fail(cmd, "--scenario %v", err)
				}
				cfg.Scenario, cfg.ScenarioName = sc.Source, scenarioFile
				// The file's sandbox section shapes this sandbox as it
				// would the scenario's under sandbox test; a flag (or its
				// environment variable) given outright wins.
				sb := sc.Sandbox
				if sb.HeaderPrefix != "" && !flagGiven(cmd, "header-prefix") {
					cfg.HeaderPrefix = sb.HeaderPrefix
				}
				if !flagGiven(cmd, "limits") {
					lim := sb.Limits.Apply(*cfg.Limits)
					cfg.Limits = &lim
				}
				if sb.Fixtures != "" && sb.Fixtures != "embedded" && !flagGiven(cmd, "fixtures") {
					dir := filepath.Join(filepath.Dir(scenarioFile), sb.Fixtures)
					if filepath.IsAbs(sb.Fixtures) {
						dir = sb.Fixtures
					}
					if st, err := os.Stat(dir); err != nil || !st.IsDir() {
						return fail(cmd, "--scenario %s: sandbox.fixtures %s: not a folder", scenarioFile, dir)
					}
					cfg.Fixtures, cfg.FixturesName = os.DirFS(dir), dir
				}
			}
			a, err := app.Open(cfg, log)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			if a.Exposed() {
				warnExposed(cmd.ErrOrStderr(), a)
			}
			a.Start()
			// Paced once seeded: a large set loads at Go's default pace,
			// not at a small heap's wider one.
			paceGC(ctx) // gcpace.go
			// Record where it listens, so client commands and the example
			// add-on find it without --url (sandbox/app/discover).
			if forget, err := discover.Record(discover.Entry{Addr: a.Addr(), PublicURL: cfg.PublicURL, Version: cfg.Version}); err != nil {
				log.Warn("clients will not find this sandbox by themselves (give them --url or SANDBOX_URL)", "err", err)
			} else {
				defer forget()
			}
			stopped := waitErr(a)
			if ui.on {
				ctx, stopped = ui.show(ctx, cmd, a, stopped) // until the user quits
			} else {
				printBanner(cmd.OutOrStdout(), a)
				printScenario(cmd.OutOrStdout(), scenarioFile, cfg.Scenario) // scenario.go
				printChaos(cmd.OutOrStdout(), cfg.ChaosRate, cfg.ChaosSeed)
			}
			select {
			case <-ctx.Done():
			case err := <-stopped:
				if err != nil {
					return fail(cmd, "server stopped: %v", err)
				}
			}
			fmt.Fprintln(cmd.OutOrStdout(), "shutting down")
			shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := a.Close(shutdown); err != nil {
				return fail(cmd, "shutdown: %v", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "stopped")
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", sandbox.DefaultAddr, "address to listen on; loopback by default"+envHelp("addr"))
	f.StringVar(&data, "data", "", "BuntDB data file to persist to; in-memory when empty"+envHelp("data"))
	f.StringVar(&syncPolicy, "sync", "every-second", "data file sync policy: always (fsync every write; nothing acknowledged is lost), every-second, never"+envHelp("sync"))
	f.StringVar(&fixturesDir, "fixtures", "", "fixture folder to seed from; the embedded default set when empty"+envHelp("fixtures"))
	f.BoolVar(&headless, "headless", false, "run without the terminal UI (automatic when stdout is not a terminal)"+envHelp("headless"))
	f.IntVar(&trafficHistory, "traffic-history", traffic.DefaultHistory, "calls, and webhook attempts, kept for the terminal UI, the traffic stream and HAR export"+envHelp("traffic-history"))
	f.StringVar(&prefix, "header-prefix", sandbox.DefaultHeaderPrefix, "brand word in header names and media types (<prefix>-Access-Token, application/vnd.<prefix>.v1.0)"+envHelp("header-prefix"))
	f.StringVar(&limitsMode, "limits", "on", "the spec's limits (429, 423, rate bucket): on, or off for load tests"+envHelp("limits"))
	f.StringVar(&scenarioFile, "scenario", "", "scenario file whose faults apply while serving (see sandbox scenario examples)"+envHelp("scenario"))
	f.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error"+envHelp("log-level"))
	f.StringVar(&publicURL, "public-url", "", "URL clients reach the sandbox at when it runs behind a container port or a proxy (e.g. http://sandbox:8080); its host name is then answered too"+envHelp("public-url"))
	f.StringSliceVar(&allowDownload, "allow-download", nil, "loopback addresses (host:port, comma-separated) that sourceUrl and batch-file downloads may reach; other addresses of this machine are refused"+envHelp("allow-download"))
	chaos.add(f)
	f.DurationVar(&bodyTimeout, "body-timeout", sandbox.DefaultBodyTimeout, "how long a request body may take to arrive; a stalled one answers 408 and the connection closes"+envHelp("body-timeout"))
	f.DurationVar(&idleTimeout, "idle-timeout", sandbox.DefaultIdleTimeout, "how long an idle keep-alive connection stays open"+envHelp("idle-timeout"))
	f.IntVar(&webhookAttempts, "webhook-attempts", sandbox.DefaultWebhookAttempts, "attempts per webhook notification, the first included"+envHelp("webhook-attempts"))
	f.DurationVar(&webhookBackoff, "webhook-backoff", sandbox.DefaultWebhookBackoff, "delay before the first webhook retry; doubles after each failure (sandbox clock)"+envHelp("webhook-backoff"))
	f.DurationVar(&webhookTimeout, "webhook-timeout", sandbox.DefaultWebhookTimeout, "how long one webhook attempt waits for the receiver"+envHelp("webhook-timeout"))
	f.DurationVar(&paymentWithin, "payment-status-within", sandbox.DefaultPaymentStatusWithin, "contract report: how long (sandbox clock) an add-on has, after storing a payment result, to set the matching order status, and after marking an order paid online, to store the paid result"+envHelp("payment-status-within"))
	mustComplete(cmd, "sync", completeWords("always", "every-second", "never"))
	mustComplete(cmd, "limits", completeWords("on", "off"))
	mustComplete(cmd, "log-level", completeWords("debug", "info", "warn", "error"))
	mustComplete(cmd, "scenario", completeScenarioFiles)
	mustComplete(cmd, "fixtures", completeFolders)
	return cmd
}

func waitErr(a *app.App) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- a.Wait() }()
	return ch
}

// fail prints an error for a person and makes the command exit non-zero.
func fail(cmd *cobra.Command, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	fmt.Fprintln(cmd.ErrOrStderr(), "error:", err)
	return reported{err}
}

// warnExposed tells the developer, on stderr, that a sandbox listening
// beyond loopback is reachable by anyone on the network, with its
// unauthenticated control plane and its fixed, published tokens.
func warnExposed(w io.Writer, a *app.App) {
	fmt.Fprintf(w, `warning: the sandbox listens on %s, which is reachable from the network, not only from this machine.
  Anyone who can reach it can read every token at /_sandbox/eshops, reset or change the sandbox through the
  control plane (/_sandbox/, no authentication), and call the API with the fixtures' published tokens.
  Listen on 127.0.0.1 (the default) unless you mean this, e.g. inside a container (then pass --public-url).
`, a.Config.Addr)
}

// printBanner tells the developer where the sandbox is and how to call it.
func printBanner(w io.Writer, a *app.App) {
	h := sandbox.NewHeaders(a.Config.HeaderPrefix)
	fmt.Fprintf(w, "sandbox is up\n  base URL:      %s\n  control plane: %s/_sandbox/\n", a.BaseURL(), a.BaseURL())
	var creds []eshop.Credentials
	_ = a.Store.View(func(tx *store.Tx) (err error) {
		creds, err = eshop.ListCredentials(tx)
		return err
	})
	first := "" // the first private token, for a line to copy
	for _, e := range creds {
		fmt.Fprintf(w, "  e-shop %d %q: %s\n", e.ID, e.Name, a.Site.EshopURL(e.ID))
		for _, t := range e.Callable() {
			if t.Kind == auth.KindPrivate {
				fmt.Fprintf(w, "    %s: %s   (%s)\n", h.PrivateToken, t.Token, t.Name)
				if first == "" {
					first = t.Token
				}
			} else {
				fmt.Fprintf(w, "    %s: %s   (add-on %s)\n", h.AccessToken, t.Token, t.Addon)
			}
		}
	}
	if first != "" {
		fmt.Fprintf(w, "try: curl -H 'Content-Type: application/json' -H '%s: %s' %s/api/eshop\n", h.PrivateToken, first, a.BaseURL())
	}
}

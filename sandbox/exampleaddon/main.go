package exampleaddon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// DefaultListen matches the install URL of the sandbox's default fixtures.
const DefaultListen = "127.0.0.1:9090"

// DefaultSandbox is the sandbox's default address, used when nothing else
// names the sandbox.
const DefaultSandbox = "http://127.0.0.1:8080"

// Locator finds the sandbox when neither --sandbox nor SANDBOX_URL names
// it. The commands that run this add-on pass the sandbox's own discovery
// (the address `sandbox up` recorded), so this package imports nothing of
// the sandbox; nil means DefaultSandbox.
type Locator func(ctx context.Context) (string, error)

// Main runs the add-on as a program and returns its exit code; the
// example-addon program and the CLI's script tests call it.
func Main(locate Locator) int {
	if err := Run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, locate); err != nil {
		fmt.Fprintln(os.Stderr, "example-addon:", err)
		return 1
	}
	return 0
}

// Run runs the add-on's command line with args (its flags; --help prints
// them) until ctx ends or the process is interrupted.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer, locate Locator) error {
	cmd := Command(locate)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	return cmd.ExecuteContext(ctx)
}

// Long is what the add-on's help says it does, shared by the example-addon
// program and `sandbox example-addon`.
const Long = `Run the example add-on: a small but real add-on that performs the install
handshake, keeps its OAuth token, refreshes API tokens on expired-token,
verifies signed webhooks, backs off on 423 and 429, and serves as a test
payment gateway (it stores the payment result and sets the order status,
both calls of the payment flow's step 6). Its code is package
sandbox/exampleaddon, meant to be read.

It finds the sandbox like every client: --sandbox, else SANDBOX_URL, else
the sandbox that 'sandbox up' recorded, else ` + DefaultSandbox + `.`

// Command is the add-on's command line, a cobra command like the
// sandbox's own: the example-addon program runs it, and the sandbox
// program adds it as 'sandbox example-addon'. It serves until the
// command's context ends, Ctrl-C or SIGTERM.
func Command(locate Locator) *cobra.Command {
	var (
		cfg                Config
		listen, events     string
		install            int
		register, quiet    bool
		sandboxURL, eshopV string
		resultStatuses     string
	)
	cmd := &cobra.Command{
		Use:   "example-addon",
		Short: "Run the example add-on (the same code as cmd/example-addon)",
		Long:  Long,
		Example: `  sandbox example-addon --install 1001          # listen on 127.0.0.1:9090 and install into e-shop 1001
  sandbox example-addon --listen 127.0.0.1:0 --install 1001`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	fs := cmd.Flags()
	fs.StringVar(&listen, "listen", DefaultListen, "address to listen on")
	fs.StringVar(&cfg.PublicURL, "public-url", "", "URL the e-shop reaches this add-on at (default http://<listen>)")
	fs.StringVar(&sandboxURL, "sandbox", "", "the API's base URL {base_url} (the sandbox); default $SANDBOX_URL, else the sandbox that 'sandbox up' recorded, else "+DefaultSandbox)
	fs.StringVar(&cfg.OAuthURL, "oauth-url", "", "OAuth server address (default <sandbox>/eshops/<oauth-eshop>/action/ApiOAuthServer/token)")
	fs.StringVar(&eshopV, "oauth-eshop", "1001", "e-shop whose address serves as the OAuth server when --oauth-url is not given")
	fs.StringVar(&cfg.Name, "name", "example-addon", "the add-on's name in the sandbox")
	fs.StringVar(&cfg.ClientID, "client-id", os.Getenv("EXAMPLE_ADDON_CLIENT_ID"), "OAuth client id (default: $EXAMPLE_ADDON_CLIENT_ID, else from the sandbox's control plane)")
	fs.StringVar(&cfg.ClientSecret, "client-secret", os.Getenv("EXAMPLE_ADDON_CLIENT_SECRET"), "OAuth client secret (default: $EXAMPLE_ADDON_CLIENT_SECRET, else from the sandbox's control plane)")
	fs.StringVar(&cfg.RedirectURI, "redirect-uri", "", "redirect URI registered with the add-on (default: the install URL)")
	fs.StringVar(&cfg.HeaderPrefix, "header-prefix", headerPrefixDefault(), "brand word of the header names (env SANDBOX_HEADER_PREFIX, which sandbox test and certify set for the add-on)")
	fs.StringVar(&cfg.StateFile, "state", "", "file keeping OAuth tokens and signature keys between runs (mode 0600)")
	fs.StringVar(&events, "events", "order:create,order:update", "webhook events to register after installation (comma-separated; customer:import adds the customer snapshot of jobs.go)")
	fs.StringVar(&cfg.PaymentResult, "payment-result", ResultPaid, "what the test gateway reports for every payment: paid, failed, canceled or pending")
	fs.StringVar(&resultStatuses, "result-status", "", "order status per payment result, RESULT=ID comma-separated (default: paid to the e-shop's first status that marks orders paid, canceled to the basic status -4, others none)")
	fs.BoolVar(&register, "register", false, "sandbox only: set this process's install, redirect and webhook URLs and payment gateway address on the add-on in the sandbox")
	fs.IntVar(&install, "install", 0, "sandbox only: once listening, register (as --register) and ask the sandbox to install the add-on into this e-shop, then print the report")
	fs.BoolVar(&quiet, "quiet", false, "log warnings and errors only")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serve(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), locate, serveOptions{cfg: cfg, listen: listen, events: events,
			install: install, register: register, quiet: quiet, sandboxURL: sandboxURL, oauthEshop: eshopV, resultStatuses: resultStatuses})
	}
	return cmd
}

// headerPrefixDefault is $SANDBOX_HEADER_PREFIX, else Service.
func headerPrefixDefault() string {
	if v := os.Getenv("SANDBOX_HEADER_PREFIX"); v != "" {
		return v
	}
	return "Service"
}

// serveOptions are the command line's values.
type serveOptions struct {
	cfg                                    Config
	listen, events, sandboxURL, oauthEshop string
	resultStatuses                         string
	install                                int
	register, quiet                        bool
}

// serve runs the add-on until ctx ends, and optionally registers it with
// the sandbox and asks for an install.
func serve(ctx context.Context, stdout, stderr io.Writer, locate Locator, o serveOptions) error {
	cfg, listen, events, install, register, quiet := o.cfg, o.listen, o.events, o.install, o.register, o.quiet
	sandboxURL, eshopV, resultStatuses := o.sandboxURL, o.oauthEshop, o.resultStatuses
	switch cfg.PaymentResult {
	case ResultPaid, ResultFailed, ResultCanceled, ResultPending:
	default:
		return fmt.Errorf("--payment-result %q: give paid, failed, canceled or pending", cfg.PaymentResult)
	}
	statuses, err := ParseResultStatuses(resultStatuses)
	if err != nil {
		return fmt.Errorf("--result-status %w", err)
	}
	cfg.ResultStatuses = statuses
	base, err := sandboxBase(ctx, sandboxURL, locate)
	if err != nil {
		return err
	}
	cfg.APIURL = base
	if cfg.OAuthURL == "" {
		cfg.OAuthURL = cfg.APIURL + "/eshops/" + eshopV + "/action/ApiOAuthServer/token"
	}
	for _, e := range strings.Split(events, ",") {
		if e = strings.TrimSpace(e); e != "" {
			cfg.Events = append(cfg.Events, e)
		}
	}
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	defer ln.Close()
	if cfg.PublicURL == "" {
		cfg.PublicURL = "http://" + ln.Addr().String()
	}
	a, err := New(cfg, log)
	if err != nil {
		return err
	}
	if err := a.FetchCredentials(ctx); err != nil {
		return fmt.Errorf("client credentials: %w (give --client-id and --client-secret)", err)
	}
	if register || install > 0 { // an install goes to wherever this process listens
		if err := a.Register(ctx); err != nil {
			return err
		}
	}
	srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "example-addon listening on %s\n  install URL: %s\n  webhook URL: %s\n  payment gateway: %s\n  OAuth server: %s\n",
		ln.Addr(), a.cfg.InstallURL(), a.cfg.WebhookURL(), a.cfg.GatewayURL(), a.cfg.OAuthURL)

	if install > 0 {
		rep, err := a.RequestInstall(ctx, install)
		if err != nil {
			fmt.Fprintln(stdout, "install:", err)
		} else {
			fmt.Fprintf(stdout, "install %s into e-shop %d: %s\n", rep.ID, install, rep.Result)
			for _, p := range rep.Problems {
				fmt.Fprintln(stdout, "  -", p)
			}
		}
	}

	select {
	case <-ctx.Done():
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdown)
	a.Wait()
	fmt.Fprintln(stdout, "example-addon stopped")
	return err
}

// sandboxBase picks the sandbox: the flag, then $SANDBOX_URL, then
// locate, then DefaultSandbox; host:port gets http:// in front.
func sandboxBase(ctx context.Context, flagValue string, locate Locator) (string, error) {
	v := flagValue
	if v == "" {
		v = os.Getenv("SANDBOX_URL")
	}
	if v == "" && locate != nil {
		found, err := locate(ctx)
		if err != nil {
			return "", fmt.Errorf("finding the sandbox: %w (give --sandbox URL)", err)
		}
		v = found
	}
	if v == "" {
		v = DefaultSandbox
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	return strings.TrimRight(v, "/"), nil
}

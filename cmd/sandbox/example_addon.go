package main

import (
	"errors"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/cmd/example-addon/addon"
	"github.com/eshop-sandbox/sandbox/sandbox/discover"
)

// newExampleAddonCmd ships cmd/example-addon inside the sandbox binary, so
// the example scenarios run from a fresh clone with no build step: they
// start it as ${SANDBOX_BIN} example-addon.
func newExampleAddonCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "example-addon [flags]",
		Short: "Run the example add-on (the same code as cmd/example-addon)",
		Long: `Run the example add-on: a small but real add-on that performs the install
handshake, keeps its OAuth token, refreshes API tokens on expired-token,
verifies signed webhooks, backs off on 423 and 429, and serves as a test
payment gateway (it stores the payment result and sets the order status,
both calls of the payment flow's step 6). It is the same code
as cmd/example-addon (package cmd/example-addon/addon, meant to be read).

It finds the sandbox like every client: --sandbox, else SANDBOX_URL, else
the sandbox 'sandbox up' recorded, else http://127.0.0.1:8080. Its flags are
listed by 'sandbox example-addon -h'.`,
		Example: `  sandbox example-addon --install 1001          # listen on 127.0.0.1:9090 and install into e-shop 1001
  sandbox example-addon --listen 127.0.0.1:0 --install 1001`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			err := addon.Run(ctx, args, cmd.OutOrStdout(), cmd.ErrOrStderr(), discover.Locate)
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			if err != nil {
				return fail(cmd, "example-addon: %v", err)
			}
			return nil
		},
	}
}

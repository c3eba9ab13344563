package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/app"
	"github.com/eshop-sandbox/sandbox/sandbox/core/traffic"
	"github.com/eshop-sandbox/sandbox/tui"
)

func newTUICmd() *cobra.Command {
	var (
		url     string
		history int
	)
	cmd := &cobra.Command{
		Use:   "tui",
		Short: "Watch a running sandbox's calls and webhooks live",
		Long: `Attach the terminal UI to a sandbox that is already running (started with
--headless, in CI, in another terminal or on another machine you can reach).
It follows the sandbox's traffic stream (GET /_sandbox/traffic?follow=1), reads
the report, faults, outbox, jobs and installs views from its control plane and
acts through it. Press ? for the keys; q detaches at once (the sandbox keeps
running).`,
		Example: `  sandbox tui                              # the sandbox sandbox up recorded (else http://127.0.0.1:8080)
  sandbox tui --url http://127.0.0.1:9000
  SANDBOX_URL=http://10.0.0.5:8080 sandbox tui`,
		Args: cobra.NoArgs,
		PreRunE: func(cmd *cobra.Command, _ []string) error {
			return bindEnv(cmd)
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			target, err := resolveTarget(cmd)
			if err != nil {
				return fail(cmd, "%v", err)
			}
			base := target.URL
			if !isTerminal(cmd.OutOrStdout()) {
				return fail(cmd, "sandbox tui needs a terminal; for a plain stream use curl -N %s%s?follow=1", base, traffic.HistoryPath)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			o := tui.Options{Source: tui.NewRemoteSource(base, nil), Control: tui.NewHTTPControl(base), History: history}
			if err := tui.Run(ctx, o, nil, cmd.OutOrStdout()); err != nil {
				return fail(cmd, "terminal UI: %v", err)
			}
			return nil
		},
	}
	f := cmd.Flags()
	addURLFlag(cmd, &url)
	f.IntVar(&history, "history", tui.DefaultHistory, "calls (and webhook attempts) the UI keeps"+envHelp("history"))
	return cmd
}

// isTerminal reports whether w is a terminal: `sandbox up` opens its UI
// only then, so CI logs and pipes stay plain.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// upUI is the terminal UI of `sandbox up`: on when stdout is a terminal and
// --headless is not given. While it shows, log lines are held back (they
// would tear the screen) and printed when it closes.
type upUI struct {
	on   bool
	held *heldLogs
}

func newUpUI(cmd *cobra.Command, headless bool) *upUI {
	return &upUI{on: !headless && isTerminal(cmd.OutOrStdout()), held: &heldLogs{}}
}

// logs returns where the log should write: w itself when headless.
func (u *upUI) logs(w io.Writer) io.Writer {
	if !u.on {
		return w
	}
	u.held.out = w
	return u.held
}

// show runs the UI in the foreground until the user quits, a signal
// arrives (ctx) or the server stops. It returns the context the caller
// waits on (done once the user quit) and the channel that reports the
// server's end.
func (u *upUI) show(ctx context.Context, cmd *cobra.Command, a *app.App, stopped <-chan error) (context.Context, <-chan error) {
	uiCtx, cancelUI := context.WithCancel(ctx)
	defer cancelUI()
	fwd := make(chan error, 1)
	go func() {
		err := <-stopped
		fwd <- err
		cancelUI()
	}()
	info := func() traffic.Info {
		in := traffic.InfoOf(a.Store, a.Site, a.Clock, sandbox.NewHeaders(a.Config.HeaderPrefix))
		in.History = a.Config.TrafficHistory
		return in
	}
	o := tui.Options{Source: tui.NewBusSource(a.Bus, info, 4096), Control: tui.NewHTTPControl(a.BaseURL()), History: a.Config.TrafficHistory}
	if a.Config.DataFile == "" || a.Config.DataFile == ":memory:" {
		o.ConfirmQuit = quitQuestion
	}
	err := tui.Run(uiCtx, o, nil, cmd.OutOrStdout())
	u.held.release()
	if err != nil { // no UI after all: keep serving, headless
		fmt.Fprintln(cmd.ErrOrStderr(), "error: terminal UI:", err)
		printBanner(cmd.OutOrStdout(), a)
		return ctx, fwd
	}
	select {
	case serr := <-fwd: // the server stopped: hand its end to the caller's wait
		again := make(chan error, 1)
		again <- serr
		return ctx, again
	default:
	}
	if ctx.Err() != nil {
		return ctx, fwd
	}
	done, cancel := context.WithCancel(ctx)
	cancel() // the user quit: shut down like after Ctrl-C
	return done, fwd
}

// quitQuestion is what q asks in `sandbox up` when the store is in
// memory: quitting stops the server and its data is gone (with --data it
// is kept, and `sandbox tui` only detaches, so neither asks).
const quitQuestion = "Stop the sandbox? Its in-memory data will be lost. y: quit, other key: stay"

// heldLogsMax bounds the log lines kept while the UI shows.
const heldLogsMax = 256 << 10

// heldLogs keeps log output while the UI shows, up to heldLogsMax bytes
// (the newest), and writes through after release.
type heldLogs struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	out      io.Writer
	released bool
	lost     int
}

// Write holds p until release, keeping the newest lines.
func (h *heldLogs) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return h.out.Write(p)
	}
	h.buf.Write(p)
	if over := h.buf.Len() - heldLogsMax; over > 0 {
		if nl := bytes.IndexByte(h.buf.Bytes()[over:], '\n'); nl >= 0 {
			over += nl + 1 // drop whole lines
		}
		h.lost += over
		h.buf.Next(over)
	}
	return len(p), nil
}

// release prints what was held and lets later lines through.
func (h *heldLogs) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released || h.out == nil {
		return
	}
	h.released = true
	if h.lost > 0 {
		fmt.Fprintf(h.out, "(%d bytes of older log lines left out)\n", h.lost)
	}
	_, _ = h.buf.WriteTo(h.out)
}

package tui

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/aymanbagabas/go-osc52/v2"
)

// Copier puts text where the user can paste it and says where it went,
// as the end of a sentence ("copied to the clipboard (OSC 52)").
type Copier func(text string) (where string, err error)

// ClipboardEnv names the variable that overrides the choice between
// OSC 52 and a file: "osc52" (a tmux with allow-passthrough or
// set-clipboard on, say) or "file".
const ClipboardEnv = "SANDBOX_CLIPBOARD"

// OSC52Clipboard copies text with the OSC 52 terminal sequence written to
// w (the terminal the UI draws on): it works over SSH and, wrapped, inside
// GNU screen. The sequence is one write, so it does not tear a frame.
func OSC52Clipboard(w io.Writer) Copier {
	var mu sync.Mutex
	return func(s string) (string, error) {
		seq := osc52.New(s)
		if os.Getenv("STY") != "" || strings.HasPrefix(os.Getenv("TERM"), "screen") {
			seq = seq.Screen()
		}
		mu.Lock()
		defer mu.Unlock()
		if _, err := io.WriteString(w, seq.String()); err != nil {
			return "", err
		}
		return "copied to the clipboard (OSC 52)", nil
	}
}

// FileClipboard writes each text to a new file in dir (the system's
// temporary folder when empty), readable by the user only, and says
// where: for terminals that drop OSC 52.
func FileClipboard(dir, why string) Copier {
	return func(s string) (string, error) {
		f, err := os.CreateTemp(dir, "sandbox-curl-*.sh")
		if err != nil {
			return "", err
		}
		_, err = fmt.Fprintf(f, "#!/bin/sh\n%s\n", s)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("written to %s (%s)", f.Name(), why), nil
	}
}

// TerminalClipboard picks how copy-as-curl reaches the user: OSC 52 where
// the terminal takes it, else a file (and the message says where).
// getenv reads the environment (os.Getenv in use; tests pass their own).
func TerminalClipboard(w io.Writer, getenv func(string) string) Copier {
	if ok, why := osc52Works(getenv); !ok {
		return FileClipboard("", why)
	}
	return OSC52Clipboard(w)
}

// osc52Works tells from the environment whether the terminal passes an
// OSC 52 sequence on to the system clipboard, and if not, why. tmux drops
// it by default (allow-passthrough off since 3.3, set-clipboard
// external), and so do the Linux console and dumb terminals.
func osc52Works(getenv func(string) string) (bool, string) {
	switch strings.ToLower(getenv(ClipboardEnv)) {
	case "osc52":
		return true, ""
	case "file":
		return false, ClipboardEnv + "=file"
	}
	term := getenv("TERM")
	switch {
	case getenv("TMUX") != "" || strings.HasPrefix(term, "tmux"):
		return false, "tmux passes no OSC 52 clipboard by default; " + ClipboardEnv + "=osc52 if yours does"
	case term == "" || term == "dumb" || term == "linux":
		return false, "this terminal has no OSC 52 clipboard"
	}
	return true, ""
}

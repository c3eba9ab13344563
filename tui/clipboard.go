package tui

import (
	"io"
	"os"
	"strings"
	"sync"

	"github.com/aymanbagabas/go-osc52/v2"
)

// OSC52Clipboard copies text with the OSC 52 terminal sequence written to
// w (the terminal the UI draws on): it works over SSH and, wrapped, inside
// tmux and screen. mu serialises it with nothing else; the sequence is one
// write, so it does not tear a frame.
func OSC52Clipboard(w io.Writer) func(string) error {
	var mu sync.Mutex
	return func(s string) error {
		seq := osc52.New(s)
		switch {
		case os.Getenv("TMUX") != "":
			seq = seq.Tmux()
		case strings.HasPrefix(os.Getenv("TERM"), "screen"):
			seq = seq.Screen()
		}
		mu.Lock()
		defer mu.Unlock()
		_, err := io.WriteString(w, seq.String())
		return err
	}
}

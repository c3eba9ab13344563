package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run shows the UI on the terminal until the user quits or ctx ends, then
// prints the curl commands the user asked for to out. The source is
// closed on return.
func Run(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	defer o.Source.Close()
	if o.Renderer == nil {
		o.Renderer = lipgloss.NewRenderer(out) // honours NO_COLOR
	}
	if o.Clipboard == nil {
		o.Clipboard = TerminalClipboard(out, os.Getenv)
	}
	m := New(o)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen(), tea.WithOutput(out), tea.WithFPS(20)}
	if in != nil {
		opts = append(opts, tea.WithInput(in))
	}
	final, err := tea.NewProgram(m, opts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		err = nil // Ctrl-C / SIGTERM to the process: a normal end
	}
	if fm, ok := final.(*Model); ok {
		for _, c := range fm.CurlOnExit() {
			fmt.Fprintln(out, c)
		}
	}
	return err
}

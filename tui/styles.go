package tui

import "github.com/charmbracelet/lipgloss"

// Styles are the UI's looks. Everything they convey is also in the text
// (a ">" marks the selected row, brackets the active tab, the status is a
// number), so the UI reads the same without colour (NO_COLOR, or a
// renderer with the Ascii profile in tests).
type Styles struct {
	Title     lipgloss.Style
	Tab       lipgloss.Style
	TabActive lipgloss.Style
	Header    lipgloss.Style
	Selected  lipgloss.Style
	Dim       lipgloss.Style
	Section   lipgloss.Style
	Key       lipgloss.Style
	Flash     lipgloss.Style
	FlashErr  lipgloss.Style
	Warn      lipgloss.Style
	Status    [6]lipgloss.Style // by class: 0 no answer, 1xx .. 5xx
}

// NewStyles builds the styles on a renderer (its colour profile decides
// whether colours are emitted at all).
func NewStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	n := r.NewStyle
	return Styles{
		Title:     n().Bold(true),
		Tab:       n().Faint(true),
		TabActive: n().Bold(true).Underline(true),
		Header:    n().Bold(true).Faint(true),
		Selected:  n().Reverse(true),
		Dim:       n().Faint(true),
		Section:   n().Bold(true).Foreground(lipgloss.Color("12")),
		Key:       n().Bold(true),
		Flash:     n().Foreground(lipgloss.Color("10")),
		FlashErr:  n().Foreground(lipgloss.Color("9")).Bold(true),
		Warn:      n().Foreground(lipgloss.Color("11")).Bold(true),
		Status: [6]lipgloss.Style{
			n().Foreground(lipgloss.Color("9")).Bold(true), // no answer
			n(),
			n().Foreground(lipgloss.Color("10")),
			n().Foreground(lipgloss.Color("14")),
			n().Foreground(lipgloss.Color("11")),
			n().Foreground(lipgloss.Color("9")).Bold(true),
		},
	}
}

// status returns the style of an HTTP status (0: no answer).
func (s Styles) status(code int) lipgloss.Style {
	c := code / 100
	if c < 0 || c > 5 {
		c = 5
	}
	return s.Status[c]
}

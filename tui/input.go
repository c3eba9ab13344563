package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// lineInput is the one-line editor of the prompt: typing appends,
// backspace deletes a character, ctrl+w a word, ctrl+u everything. The
// cursor stays at the end, which is all a filter or a short command
// needs, and it never blinks (no timer messages, stable test frames).
type lineInput struct {
	prompt string
	value  []rune
	limit  int
}

func (in *lineInput) set(prompt, value string) {
	in.prompt, in.value = prompt, []rune(value)
}

func (in *lineInput) text() string { return string(in.value) }

// update applies an editing key and reports whether it was one.
func (in *lineInput) update(k tea.KeyMsg) bool {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		r := k.Runes
		if k.Type == tea.KeySpace {
			r = []rune{' '}
		}
		if in.limit > 0 && len(in.value)+len(r) > in.limit {
			return true
		}
		in.value = append(in.value, r...)
	case tea.KeyBackspace:
		if len(in.value) > 0 {
			in.value = in.value[:len(in.value)-1]
		}
	case tea.KeyCtrlW:
		s := strings.TrimRight(string(in.value), " ")
		if i := strings.LastIndex(s, " "); i >= 0 {
			in.value = []rune(s[:i+1])
		} else {
			in.value = nil
		}
	case tea.KeyCtrlU:
		in.value = nil
	default:
		return false
	}
	return true
}

// view is the prompt line with a block cursor at the end.
func (in *lineInput) view() string { return in.prompt + string(in.value) + "█" }

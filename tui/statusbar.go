package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// titleLine: where the sandbox is, its e-shops, and its clock (with the
// offset from the wall clock once it has been moved).
func (m *Model) titleLine() string {
	left := m.st.Title.Render("sandbox")
	switch {
	case m.connErr != "":
		left += " " + m.st.FlashErr.Render("disconnected: "+m.connErr+" (retrying)")
	case !m.hasInfo:
		left += " connecting…"
	default:
		left += " " + m.info.BaseURL
		if len(m.info.Eshops) > 0 {
			ids := make([]string, len(m.info.Eshops))
			for i, e := range m.info.Eshops {
				ids[i] = strconv.Itoa(e.ID)
			}
			left += " · e-shops " + strings.Join(ids, " ")
		}
	}
	if m.ended {
		left += " · feed ended"
	}
	right := ""
	if m.hasInfo {
		now := m.opts.Now().Add(m.info.Offset)
		right = now.Format("2006-01-02 15:04:05")
		if off := fmtOffset(m.info.Offset); off != "" {
			right += " (" + off + ")"
		}
	}
	return spread(left, right, m.width)
}

// tabLine: the two views (the active one in brackets, with row counts)
// and the filter in force.
func (m *Model) tabLine(shownCalls, shownHooks int) string {
	calls := fmt.Sprintf("Calls %s", m.countLabel(shownCalls, m.hist.calls.len()))
	hooks := fmt.Sprintf("Webhooks %s", m.countLabel(shownHooks, m.hist.attempts.len()))
	tabs := []string{calls, hooks}
	for i := range tabs {
		if tab(i) == m.tab {
			tabs[i] = m.st.TabActive.Render("[" + tabs[i] + "]")
		} else {
			tabs[i] = m.st.Tab.Render(" " + tabs[i] + " ")
		}
	}
	line := strings.Join(tabs, " ")
	if m.filter.active() {
		line += "  filter: " + m.filter.String()
	}
	if m.paused {
		line += "  " + m.st.Warn.Render(fmt.Sprintf("PAUSED +%d", len(m.pending)))
	}
	return line
}

func (m *Model) countLabel(shown, kept int) string {
	if m.filter.active() {
		return fmt.Sprintf("%d/%d", shown, kept)
	}
	return strconv.Itoa(kept)
}

// countsLine: the running totals.
func (m *Model) countsLine() string {
	c := m.counts
	parts := []string{
		fmt.Sprintf("calls %d", c.calls),
		fmt.Sprintf("errors %d", c.errors),
		fmt.Sprintf("deliveries %d", c.deliveries),
		fmt.Sprintf("failed %d", c.failed),
		fmt.Sprintf("dropped %d", m.dropped),
	}
	line := strings.Join(parts, "  ")
	if m.maintOn {
		line += "  " + m.st.Warn.Render("MAINTENANCE")
	}
	return line
}

// messageLine: the prompt being typed, the last message, or key hints.
func (m *Model) messageLine() string {
	switch {
	case m.state == stateInput:
		return m.input.view()
	case m.flash != "":
		if m.flashErr {
			return m.st.FlashErr.Render(m.flash)
		}
		return m.st.Flash.Render(m.flash)
	}
	var hints [][2]string
	switch m.state {
	case stateDetail:
		hints = [][2]string{{"esc", "back"}, {"↑↓", "scroll"}}
		if m.detailCall != nil {
			hints = append(hints, [2]string{"y", "copy curl"}, [2]string{"Y", "curl on exit"})
		} else {
			hints = append(hints, [2]string{"r", "replay"})
		}
	case stateHelp, stateInfo:
		hints = [][2]string{{"esc", "back"}}
	default:
		hints = [][2]string{{"?", "help"}, {"/", "filter"}, {"enter", "detail"}, {"tab", "calls/webhooks"}, {"p", "pause"}}
		if m.tab == tabWebhooks {
			hints = append(hints, [2]string{"r", "replay"})
		} else {
			hints = append(hints, [2]string{"y", "curl"})
		}
	}
	hints = append(hints, [2]string{"q", "quit"})
	parts := make([]string, len(hints))
	for i, h := range hints {
		parts[i] = m.st.Key.Render(h[0]) + " " + m.st.Dim.Render(h[1])
	}
	return strings.Join(parts, "  ")
}

// spread puts left and right on one line of width w; the left part gives
// way when both do not fit.
func spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if rw > 0 {
		left = clip(left, w-rw-1)
	}
	gap := w - ansi.StringWidth(left) - rw
	if gap < 1 {
		gap = 1
	}
	if right == "" {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}

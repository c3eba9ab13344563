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

// tabLine: the tabs (the active one in brackets, with row counts), the
// filter, the sort and the feed's state. Inactive tabs shrink to their
// key when it all does not fit.
func (m *Model) tabLine(rows rowsNow) string {
	labels := make([]string, tabCount)
	for t := tab(0); t < tabCount; t++ {
		labels[t] = t.String()
		if c := m.tabLabelCount(t, rows); c != "" {
			labels[t] += " " + c
		}
	}
	var extra []string
	if m.filter.active() {
		extra = append(extra, "filter: "+m.filter.String())
	}
	if name := m.sortName(m.tab); name != "" {
		extra = append(extra, "sort: "+name)
	}
	if m.paused {
		extra = append(extra, m.st.Warn.Render(fmt.Sprintf("PAUSED +%d", len(m.pending))))
	}
	tail := ""
	if len(extra) > 0 {
		tail = "  " + strings.Join(extra, "  ")
	}
	line := m.tabs(labels, false) + tail
	if ansi.StringWidth(line) > m.width {
		line = m.tabs(labels, true) + tail
	}
	if m.tab == tabCalls { // a hint, where there is room left
		if n := m.hiddenControl(); n > 0 {
			line += "  " + m.st.Dim.Render(fmt.Sprintf("%d control-plane calls hidden (a)", n))
		}
	}
	return line
}

// tabs joins the tab labels; compact shows inactive tabs by their key.
func (m *Model) tabs(labels []string, compact bool) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		switch {
		case tab(i) == m.tab:
			parts[i] = m.st.TabActive.Render("[" + l + "]")
		case compact:
			parts[i] = m.st.Tab.Render(strconv.Itoa(i + 1))
		default:
			parts[i] = m.st.Tab.Render(" " + l + " ")
		}
	}
	return strings.Join(parts, " ")
}

// tabLabelCount is the count a tab label shows: rows kept (shown/kept under a
// filter); "" for a view not read yet.
func (m *Model) tabLabelCount(t tab, rows rowsNow) string {
	switch t {
	case tabCalls:
		return m.countLabel(len(rows.calls), m.hist.calls.len()-m.hiddenControl())
	case tabWebhooks:
		kept := len(rows.hooks)
		if m.filter.active() {
			f := m.filter
			m.filter = filter{}
			kept = len(m.hookRows())
			m.filter = f
		}
		return m.countLabel(len(rows.hooks), kept)
	}
	vt := &m.views[t]
	if !vt.fetched {
		return ""
	}
	if t != m.tab || !m.filter.active() {
		return strconv.Itoa(len(vt.data.rows))
	}
	return m.countLabel(len(m.viewRows(t)), len(vt.data.rows))
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

// messageLine: the quit question, the prompt being typed, the last
// message, or key hints.
func (m *Model) messageLine() string {
	switch {
	case m.state == stateConfirm:
		return m.st.Warn.Render(m.opts.ConfirmQuit)
	case m.state == stateInput:
		return m.input.view()
	case m.flash != "":
		if m.flashErr {
			return m.st.FlashErr.Render(m.flash)
		}
		return m.st.Flash.Render(m.flash)
	}
	var hints [][2]string
	sub := m.detailSubject()
	switch {
	case m.state == stateDetail || m.split && m.focusDetail:
		hints = [][2]string{{"esc", "back"}, {"↑↓", "scroll"}}
		if len(m.matches) > 0 {
			hints = append(hints, [2]string{"n/N", "next match"})
		}
	case m.state == stateHelp, m.state == stateInfo:
		hints = [][2]string{{"esc", "back"}}
	default:
		hints = [][2]string{{"?", "help"}, {"/", "filter"}, {"tab", "views"}}
		if m.split {
			hints = append(hints, [2]string{"enter", "scroll detail"})
		} else {
			hints = append(hints, [2]string{"enter", "detail"})
		}
		if !m.tab.live() {
			hints = append(hints, [2]string{"R", "refresh"})
		} else {
			hints = append(hints, [2]string{"p", "pause"})
		}
	}
	switch {
	case m.state == stateHelp || m.state == stateInfo:
	case sub.call != nil:
		hints = append(hints, [2]string{"y", "curl"})
	case sub.hook != nil:
		hints = append(hints, [2]string{"r", "replay"})
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

package tui

import "strings"

// Minimum terminal size the layout needs.
const (
	minWidth  = 40
	minHeight = 10
)

// render draws the whole screen into m.frame: two top lines (title, tabs
// and filter), the body, two bottom lines (counts, messages or prompt).
// Every line fits the width; there are exactly height lines.
func (m *Model) render() {
	m.dirty = false
	m.renders++
	if m.width < minWidth || m.height < minHeight {
		m.frame = clip("terminal too small: the sandbox UI needs 40x10", m.width)
		return
	}
	h := m.bodyHeight()
	rows := rowsNow{calls: m.callRows(), hooks: m.hookRows()}
	var body []string
	switch m.screen() {
	case stateHelp:
		body = m.helpLines(h)
	case stateInfo:
		body = m.infoLines(h)
	case stateDetail:
		body = m.paneLines(m.shown, m.width, h, true)
	default:
		body = m.mainLines(rows, h)
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, clip(m.titleLine(), m.width), clip(m.tabLine(rows), m.width))
	for i := 0; i < h; i++ {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		lines = append(lines, clip(l, m.width))
	}
	lines = append(lines, clip(m.countsLine(), m.width), clip(m.messageLine(), m.width))
	m.frame = strings.Join(lines, "\n")
}

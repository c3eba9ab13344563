package tui

import (
	"fmt"
	"strings"
)

// helpLines lists every key binding, grouped, in two columns when the
// terminal is wide enough; ↑ and ↓ scroll it when it is too long.
func (m *Model) helpLines(h int) []string {
	var blocks [][]string
	for _, g := range m.keys.helpGroups() {
		block := []string{m.st.Section.Render(g.title)}
		for _, b := range g.bindings {
			hb := b.Help()
			block = append(block, "  "+m.st.Key.Render(cell(hb.Key, 13))+" "+hb.Desc)
		}
		blocks = append(blocks, append(block, ""))
	}
	var left, right []string
	if m.width >= 100 {
		for i, b := range blocks {
			if i < 2 {
				left = append(left, b...)
			} else {
				right = append(right, b...)
			}
		}
	} else {
		for _, b := range blocks {
			left = append(left, b...)
		}
	}
	colW := m.width / 2
	var body []string
	for i := 0; i < len(left) || i < len(right); i++ {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		if len(right) > 0 {
			l = cell(l, colW)
		}
		body = append(body, strings.TrimRight(l+r, " "))
	}
	room := h - 1
	m.helpTop = max(0, min(m.helpTop, len(body)-room))
	end := min(len(body), m.helpTop+room)
	note := "  (? or esc closes)"
	if m.helpTop > 0 || end < len(body) {
		note = fmt.Sprintf("  (? or esc closes; ↑↓ scroll, %d-%d of %d)", m.helpTop+1, end, len(body))
	}
	return append([]string{m.st.Title.Render("Keys") + m.st.Dim.Render(note)}, body[m.helpTop:end]...)
}

// infoLines shows each e-shop's address, tokens and add-ons: what a
// person needs to call the sandbox.
func (m *Model) infoLines(h int) []string {
	lines := []string{m.st.Title.Render("E-shops") + m.st.Dim.Render("  (i or esc closes)")}
	if !m.hasInfo {
		return append(lines, "", "  Not connected yet.")
	}
	lines = append(lines, fmt.Sprintf("  base URL       %s", m.info.BaseURL), fmt.Sprintf("  control plane  %s/_sandbox/", m.info.BaseURL))
	for _, e := range m.info.Eshops {
		lines = append(lines, "", m.st.Section.Render(fmt.Sprintf("  %d %s", e.ID, e.Name)), "    "+e.URL)
		for _, t := range e.Tokens {
			lines = append(lines, fmt.Sprintf("    %s: %s  (%s)", t.Header, t.Token, t.Label))
		}
		if len(e.Addons) > 0 {
			lines = append(lines, "    add-ons: "+strings.Join(e.Addons, ", "))
		}
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return lines
}

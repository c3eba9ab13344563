package tui

// sideBySide is the width from which the split view puts the detail
// beside the list; narrower terminals stack them.
const sideBySide = 120

// screen is what fills the body: the prompt and the quit question sit
// over the screen they were opened on.
func (m *Model) screen() state {
	s := m.state
	if s == stateConfirm {
		s = m.under
	}
	if s == stateInput {
		s = m.back
		if s != stateDetail {
			s = stateList
		}
	}
	return s
}

// rowsNow are the live tables' rows, filtered, computed once per frame.
type rowsNow struct {
	calls []callRow
	hooks []hookRow
}

// listLines draws the tab's table in w x h.
func (m *Model) listLines(rows rowsNow, w, h int) []string {
	switch m.tab {
	case tabCalls:
		return m.callLines(rows.calls, w, h)
	case tabWebhooks:
		return m.hookLines(rows.hooks, w, h)
	}
	return m.viewLines(m.tab, m.viewRows(m.tab), w, h)
}

// mainLines draws the body of the list screen: the table alone, or the
// split view (table and the selection's detail, side by side on wide
// terminals, stacked on others).
func (m *Model) mainLines(rows rowsNow, h int) []string {
	sel := m.subjectOf(rows)
	if !m.split || sel.key == "" { // nothing to detail: the table takes the room
		return m.listLines(rows, m.width, h)
	}
	if m.width >= sideBySide {
		dw := max(40, m.width*3/8)
		lw := m.width - dw - 1
		left := m.listLines(rows, lw, h)
		right := m.paneLines(sel, dw, h, m.focusDetail)
		sep := m.st.Dim.Render("│")
		out := make([]string, h)
		for i := range out {
			l, r := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			out[i] = cell(l, lw) + sep + r
		}
		return out
	}
	lh := m.listHeight()
	out := m.listLines(rows, m.width, lh)
	for len(out) < lh {
		out = append(out, "")
	}
	return append(out[:lh], m.paneLines(sel, m.width, h-lh, m.focusDetail)...)
}

// listHeight is how many lines the table has: the whole body, or its top
// half in the stacked split view.
func (m *Model) listHeight() int {
	h := m.bodyHeight()
	if m.split && m.width < sideBySide && m.screen() == stateList {
		return max(3, h/2)
	}
	return h
}

func callSeqs(rows []callRow) []int64 {
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	return seqs
}

func hookSeqs(rows []hookRow) []int64 {
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	return seqs
}

package tui

import (
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// isControl reports whether a call went to the sandbox's own control
// plane (by the area the sandbox resolved), whose calls (the UI's
// included) the calls table hides until asked.
func isControl(c *bus.Call) bool { return c.Control() }

// callRows are the retained calls that pass the filter (and the
// control-plane switch), in the order chosen (oldest first by default).
func (m *Model) callRows() []callRow {
	n := m.hist.calls.len()
	rows := make([]callRow, 0, n)
	for i := 0; i < n; i++ {
		r := m.hist.calls.at(i)
		if !m.showControl && isControl(r.c) {
			continue
		}
		if m.filter.call(r.c) && m.bodyMatch(r.seq, r.c.ReqBody, r.c.RespBody.Bytes()) {
			rows = append(rows, r)
		}
	}
	m.sortCalls(rows)
	return rows
}

// hiddenControl counts the retained control-plane calls the table hides.
func (m *Model) hiddenControl() int {
	if m.showControl {
		return 0
	}
	n := 0
	for i := 0; i < m.hist.calls.len(); i++ {
		if isControl(m.hist.calls.at(i).c) {
			n++
		}
	}
	return n
}

// callLayout sizes the calls table: the route takes what the fixed
// columns leave; wide tables also get the fault and operation columns.
type callLayout struct {
	width            int
	route            int
	fault, operation bool
}

const (
	timeWidth      = 12 // 15:04:05.000
	faultWidth     = 14
	operationWidth = 28
)

func callLayoutFor(w int) callLayout {
	l := callLayout{width: w, fault: w >= 110, operation: w >= 150}
	fixed := 2 + timeWidth + 1 + 5 + 1 + 7 + 1 + 6 + 1 + 1 + 4 + 1 + 6
	if l.fault {
		fixed += 1 + faultWidth
	}
	if l.operation {
		fixed += 1 + operationWidth
	}
	l.route = max(8, w-fixed)
	return l
}

// callLines draws the calls table in w x h: a header and the rows around
// the selection.
func (m *Model) callLines(rows []callRow, w, h int) []string {
	l := callLayoutFor(w)
	o := m.sorts[tabCalls]
	head := "  " + cell("TIME", timeWidth) + " " + headCell("SHOP", 5, false, o, 1) + " " + headCell("TOKEN", 7, false, o, 2) + " " +
		headCell("METHOD", 6, false, o, 3) + " " + headCell("ROUTE", l.route, false, o, 4) + " " + headCell("CODE", 4, true, o, 5) + " " +
		headCell("TOOK", 6, true, o, 6)
	if l.fault {
		head += " " + headCell("FAULT", faultWidth, false, o, 7)
	}
	if l.operation {
		head += " " + headCell("OPERATION", operationWidth, false, o, 8)
	}
	lines := []string{m.st.Header.Render(head)}
	if len(rows) == 0 {
		return append(lines, m.emptyCalls()...)
	}
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	idx := m.callCur.place(seqs)
	start := m.callCur.window(seqs, idx, h-1)
	for i := start; i < len(rows) && i < start+h-1; i++ {
		lines = append(lines, m.callLine(rows[i], l, i == idx))
	}
	return lines
}

func (m *Model) callLine(r callRow, l callLayout, selected bool) string {
	c := r.c
	status := statusText(c.Status)
	if c.Fault != "" && !l.fault {
		status += "*"
	}
	mark := "  "
	if selected {
		mark = "> "
	}
	pre := mark + cell(c.Time.Format("15:04:05.000"), timeWidth) + " " + cell(eshopCell(c.Eshop), 5) + " " + cell(dash(c.TokenKind), 7) + " " +
		cell(c.Method, 6) + " " + cell(c.Path, l.route) + " "
	code := rcell(status, 4)
	post := " " + rcell(fmtDur(c.Duration), 6)
	if l.fault {
		post += " " + cell(dash(c.Fault), faultWidth)
	}
	if l.operation {
		post += " " + cell(dash(c.Operation), operationWidth)
	}
	if selected {
		return m.st.Selected.Render(cell(pre+code+post, l.width))
	}
	return pre + m.st.status(c.Status).Render(code) + post
}

// emptyCalls says what to do when there is nothing to show.
func (m *Model) emptyCalls() []string {
	if m.hist.calls.len() > 0 {
		if !m.filter.active() && m.hiddenControl() == m.hist.calls.len() {
			return []string{"", "  Only control-plane calls so far; a shows them."}
		}
		return []string{"", "  No call matches the filter; c clears it, esc too."}
	}
	lines := []string{"", "  Waiting for calls…  (i lists the e-shops and every token)"}
	if m.hasInfo {
		for _, e := range m.info.Eshops {
			for _, t := range e.Tokens {
				lines = append(lines, "", "  Try:", "  curl -H 'Content-Type: application/json' \\",
					"       -H '"+t.Header+": "+t.Token+"' \\",
					"       "+strings.TrimRight(m.info.BaseURL, "/")+"/api/eshop")
				return lines
			}
		}
	}
	return lines
}

// bodyMatch applies the body search to a row's bodies, remembering the
// answer per row (a row never changes, and bodies are up to 64 KiB).
func (m *Model) bodyMatch(seq int64, parts ...[]byte) bool {
	q := m.filter.body
	if q.empty() {
		return true
	}
	if m.bodyCacheQ != q.raw || m.bodyCache == nil || len(m.bodyCache) > 4*m.opts.History {
		m.bodyCache, m.bodyCacheQ = map[int64]bool{}, q.raw
	}
	if v, ok := m.bodyCache[seq]; ok {
		return v
	}
	v := q.matchAny(parts...)
	m.bodyCache[seq] = v
	return v
}

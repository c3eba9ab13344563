package tui

import (
	"strconv"
	"strings"
)

// callRows are the retained calls that pass the filter, oldest first.
func (m *Model) callRows() []callRow {
	n := m.hist.calls.len()
	rows := make([]callRow, 0, n)
	for i := 0; i < n; i++ {
		r := m.hist.calls.at(i)
		if m.filter.call(r.c) {
			rows = append(rows, r)
		}
	}
	return rows
}

// callLayout sizes the calls table: the route takes what the fixed
// columns leave; wide terminals also get the fault and operation columns.
type callLayout struct {
	route            int
	fault, operation bool
}

const (
	faultWidth     = 14
	operationWidth = 28
)

func (m *Model) callLayout() callLayout {
	l := callLayout{fault: m.width >= 110, operation: m.width >= 150}
	fixed := 2 + 8 + 1 + 5 + 1 + 7 + 1 + 6 + 1 + 1 + 4 + 1 + 6
	if l.fault {
		fixed += 1 + faultWidth
	}
	if l.operation {
		fixed += 1 + operationWidth
	}
	l.route = max(8, m.width-fixed)
	return l
}

// callLines draws the calls table in h lines: a header and the rows
// around the selection.
func (m *Model) callLines(rows []callRow, h int) []string {
	l := m.callLayout()
	head := "  " + cell("TIME", 8) + " " + cell("SHOP", 5) + " " + cell("TOKEN", 7) + " " + cell("METHOD", 6) + " " +
		cell("ROUTE", l.route) + " " + rcell("CODE", 4) + " " + rcell("TOOK", 6)
	if l.fault {
		head += " " + cell("FAULT", faultWidth)
	}
	if l.operation {
		head += " " + cell("OPERATION", operationWidth)
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
	shop := "-"
	if c.Eshop != 0 {
		shop = strconv.Itoa(c.Eshop)
	}
	status := statusText(c.Status)
	if c.Fault != "" && !l.fault {
		status += "*"
	}
	mark := "  "
	if selected {
		mark = "> "
	}
	pre := mark + cell(c.Time.Format("15:04:05"), 8) + " " + cell(shop, 5) + " " + cell(dash(c.TokenKind), 7) + " " +
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
		return m.st.Selected.Render(cell(pre+code+post, m.width))
	}
	return pre + m.st.status(c.Status).Render(code) + post
}

// emptyCalls says what to do when there is nothing to show.
func (m *Model) emptyCalls() []string {
	if m.hist.calls.len() > 0 {
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

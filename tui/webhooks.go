package tui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
)

// hookRow is one delivery attempt as the webhooks view lists it: the
// attempts of one notification stay together, retries under the first.
type hookRow struct {
	seq   int64
	d     *bus.Delivery
	retry bool // not the first attempt of its notification
}

// hookRows groups the retained attempts by delivery id (notifications in
// the order they first appeared, attempts by number) and keeps the groups
// with at least one attempt that passes the filter.
func (m *Model) hookRows() []hookRow {
	n := m.hist.attempts.len()
	index := map[string]int{}
	var groups [][]attemptRow
	for i := 0; i < n; i++ {
		a := m.hist.attempts.at(i)
		id := a.d.ID
		if id == "" {
			id = "#" + strconv.FormatInt(a.seq, 10)
		}
		g, ok := index[id]
		if !ok {
			g = len(groups)
			index[id] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], a)
	}
	rows := make([]hookRow, 0, n)
	for _, g := range groups {
		match := false
		for _, a := range g {
			match = match || m.filter.attempt(a.d)
		}
		if !match {
			continue
		}
		sort.SliceStable(g, func(i, j int) bool { return g[i].d.Attempt < g[j].d.Attempt })
		for i, a := range g {
			rows = append(rows, hookRow{seq: a.seq, d: a.d, retry: i > 0})
		}
	}
	return rows
}

type hookLayout struct{ event, entity, target int }

const sigWidth = 10

func (m *Model) hookLayout() hookLayout {
	rem := m.width - (2 + 8 + 1 + 1 + 1 + 3 + 1 + 4 + 1 + 6 + 1 + 1 + sigWidth)
	l := hookLayout{event: max(12, min(24, rem*30/100)), entity: max(10, min(24, rem*22/100))}
	l.target = max(8, rem-l.event-l.entity)
	return l
}

// hookLines draws the webhooks table in h lines.
func (m *Model) hookLines(rows []hookRow, h int) []string {
	l := m.hookLayout()
	head := "  " + cell("TIME", 8) + " " + cell("EVENT", l.event) + " " + cell("ENTITY", l.entity) + " " + rcell("TRY", 3) + " " +
		rcell("CODE", 4) + " " + cell("STATE", 6) + " " + cell("TARGET", l.target) + " " + cell("SIGNATURE", sigWidth)
	lines := []string{m.st.Header.Render(head)}
	if len(rows) == 0 {
		if m.hist.attempts.len() > 0 {
			return append(lines, "", "  No webhook matches the filter; c clears it, esc too.")
		}
		return append(lines, "", "  No webhook sent yet.", "",
			"  Register one with POST /api/webhooks, or press E to emit an event.")
	}
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	idx := m.hookCur.place(seqs)
	start := m.hookCur.window(seqs, idx, h-1)
	for i := start; i < len(rows) && i < start+h-1; i++ {
		lines = append(lines, m.hookLine(rows[i], l, i == idx))
	}
	return lines
}

// attemptState says how an attempt ended for the notification.
func attemptState(d *bus.Delivery) string {
	switch {
	case d.Succeeded:
		return "ok"
	case d.Final:
		return "failed"
	}
	return "retry"
}

func (m *Model) hookLine(r hookRow, l hookLayout, selected bool) string {
	d := r.d
	event, entity := d.Event, d.Instance
	if r.retry {
		event, entity = " └ retry", ""
	}
	mark := "  "
	if selected {
		mark = "> "
	}
	pre := mark + cell(d.Time.Format("15:04:05"), 8) + " " + cell(event, l.event) + " " + cell(entity, l.entity) + " " +
		rcell(strconv.Itoa(d.Attempt), 3) + " "
	status := statusText(d.Status)
	if d.Fault != "" {
		status += "*" // a scripted fault; the detail pane names it
	}
	code := rcell(status, 4)
	post := " " + cell(attemptState(d), 6) + " " + cell(shortURL(d.URL, l.target), l.target) + " " + cell(dash(d.Signature), sigWidth)
	if selected {
		return m.st.Selected.Render(cell(pre+code+post, m.width))
	}
	return pre + m.st.status(d.Status).Render(code) + post
}

// shortURL fits a receiver URL in w cells: without the scheme, and cut on
// the left when still too long, since the port and path tell receivers
// apart.
func shortURL(u string, w int) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if ansi.StringWidth(u) > w {
		u = ansi.TruncateLeft(u, ansi.StringWidth(u)-w+1, "…")
	}
	return u
}

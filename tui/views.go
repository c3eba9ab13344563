package tui

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// dataView describes a view the control plane answers: where it is read,
// its columns, and how its answer becomes rows.
type dataView struct {
	path    string
	columns []column
	toneCol int    // the column coloured by the row's tone (-1: none)
	empty   string // said when there is no row at all
	load    func(raw json.RawMessage, st Styles) (viewData, error)
}

// column is one column of a view's table; one column per view has no
// width and takes what the others leave.
type column struct {
	title string
	width int
	right bool
}

// viewData is what one fetch of a view gives.
type viewData struct {
	rows    []viewRow
	summary string // one line above the table ("3 findings: ...")
}

// viewRow is one row of a view.
type viewRow struct {
	key    string // identity across fetches (keeps the selection)
	seq    int64  // position in the fetch, for the cursor
	eshop  int    // 0: not about one e-shop (the e-shop filter keeps it)
	cells  []string
	tone   int    // an HTTP-like status that colours toneCol (0: none)
	title  string // the detail pane's heading
	detail string // the detail pane's text (what the body search reads)
}

// text is what the text filter reads of a row.
func (r *viewRow) text() string { return strings.Join(r.cells, " ") }

// viewTable is a view's state: its rows and how the last fetch went.
type viewTable struct {
	data    viewData
	err     string    // the last fetch failed (the rows are the previous ones)
	loading bool      // a fetch is under way
	fetched bool      // at least one fetch answered
	asked   time.Time // wall clock of the last fetch started
	seen    int64     // m.activity when it started
}

// viewMsg is the answer of a view's fetch.
type viewMsg struct {
	tab  tab
	data viewData
	err  error
}

// Refresh pacing of the view on screen: again after traffic, at most
// every viewMinAge; anyway every viewMaxAge. The fetch is a control-plane
// call like any other (hidden by default), so it is kept rare.
const (
	viewMinAge = 2 * time.Second
	viewMaxAge = 15 * time.Second
)

// dataViews are the views, by tab.
var dataViews = map[tab]*dataView{
	tabReport:   reportView,
	tabFaults:   faultsView,
	tabOutbox:   outboxView,
	tabJobs:     jobsView,
	tabInstalls: installsView,
}

// refreshView fetches the view on screen when it is due (force: now,
// unless a fetch is already under way).
func (m *Model) refreshView(force bool) tea.Cmd {
	dv := dataViews[m.tab]
	if dv == nil {
		return nil
	}
	vt := &m.views[m.tab]
	now := m.opts.Now()
	age := now.Sub(vt.asked)
	due := force || !vt.fetched && vt.asked.IsZero() || age >= viewMaxAge || (m.activity != vt.seen && age >= viewMinAge)
	if vt.loading || !due {
		return nil
	}
	ctl := m.opts.Control
	if ctl == nil {
		vt.err, vt.asked = "no control plane here", now
		return nil
	}
	vt.loading, vt.asked, vt.seen = true, now, m.activity
	t, st := m.tab, m.st
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
		defer cancel()
		var raw json.RawMessage
		if err := ctl.Read(ctx, dv.path, &raw); err != nil {
			return viewMsg{tab: t, err: err}
		}
		data, err := dv.load(raw, st)
		return viewMsg{tab: t, data: data, err: err}
	}
}

// onView takes a fetch's answer, keeping the selection on the same row.
func (m *Model) onView(msg viewMsg) {
	vt := &m.views[msg.tab]
	vt.loading = false
	if msg.err != nil {
		vt.err = msg.err.Error()
		return
	}
	cur := &m.viewCur[msg.tab]
	selKey, topKey := "", ""
	for _, r := range vt.data.rows {
		if r.seq == cur.sel {
			selKey = r.key
		}
		if r.seq == cur.top {
			topKey = r.key
		}
	}
	for i := range msg.data.rows {
		r := &msg.data.rows[i]
		r.seq = int64(i + 1)
		if r.key == selKey {
			cur.sel = r.seq
		}
		if r.key == topKey {
			cur.top = r.seq
		}
	}
	vt.data, vt.err, vt.fetched = msg.data, "", true
}

// viewRows are the rows of a view that pass the filter, in the order
// chosen.
func (m *Model) viewRows(t tab) []viewRow {
	var rows []viewRow
	for _, r := range m.views[t].data.rows {
		if m.filter.eshop != 0 && r.eshop != 0 && r.eshop != m.filter.eshop {
			continue
		}
		if !m.filter.text.matchString(r.text()) || !m.filter.body.matchString(r.detail) {
			continue
		}
		rows = append(rows, r)
	}
	m.sortViewRows(t, rows)
	return rows
}

// viewLines draws a view in w x h: its summary, the header, the rows
// around the selection.
func (m *Model) viewLines(t tab, rows []viewRow, w, h int) []string {
	dv, vt := dataViews[t], &m.views[t]
	status := vt.data.summary
	switch {
	case vt.err != "":
		status = "could not read GET " + dv.path + ": " + vt.err
	case !vt.fetched:
		status = "reading GET " + dv.path + "…"
	}
	lines := []string{}
	if vt.err != "" {
		lines = append(lines, m.st.FlashErr.Render(clip(status, w)))
	} else {
		lines = append(lines, m.st.Dim.Render(clip(status, w)))
	}
	widths := columnWidths(dv.columns, w-2)
	head := "  "
	for i, c := range dv.columns {
		if i > 0 {
			head += " "
		}
		head += headCell(c.title, widths[i], c.right, m.sorts[t], i+1)
	}
	lines = append(lines, m.st.Header.Render(head))
	if len(rows) == 0 {
		switch {
		case len(vt.data.rows) > 0:
			return append(lines, "", "  Nothing matches the filter; c clears it, esc too.")
		case vt.fetched:
			return append(lines, "", "  "+dv.empty)
		}
		return lines
	}
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	cur := &m.viewCur[t]
	idx := cur.place(seqs)
	room := h - len(lines)
	start := cur.window(seqs, idx, room)
	for i := start; i < len(rows) && i < start+room; i++ {
		lines = append(lines, m.viewLine(dv, rows[i], widths, w, i == idx))
	}
	return lines
}

func (m *Model) viewLine(dv *dataView, r viewRow, widths []int, w int, selected bool) string {
	mark := "  "
	if selected {
		mark = "> "
	}
	var b strings.Builder
	b.WriteString(mark)
	for i, c := range dv.columns {
		if i > 0 {
			b.WriteByte(' ')
		}
		v := ""
		if i < len(r.cells) {
			v = r.cells[i]
		}
		if c.right {
			v = rcell(v, widths[i])
		} else {
			v = cell(v, widths[i])
		}
		if i == dv.toneCol && r.tone != 0 && !selected {
			v = m.st.status(r.tone).Render(v)
		}
		b.WriteString(v)
	}
	if selected {
		return m.st.Selected.Render(cell(b.String(), w))
	}
	return b.String()
}

// columnWidths gives the flexible column what the fixed ones leave of w
// (at least 8 cells).
func columnWidths(cols []column, w int) []int {
	out := make([]int, len(cols))
	fixed, flex := len(cols)-1, -1
	for i, c := range cols {
		if c.width == 0 {
			flex = i
			continue
		}
		out[i] = c.width
		fixed += c.width
	}
	if flex >= 0 {
		out[flex] = max(8, w-fixed)
	}
	return out
}

// selectedViewRow is the selected row of the view on screen (nil on a
// live tab or an empty view).
func (m *Model) selectedViewRow() *viewRow {
	if m.tab.live() {
		return nil
	}
	rows := m.viewRows(m.tab)
	seqs := make([]int64, len(rows))
	for i, r := range rows {
		seqs[i] = r.seq
	}
	if i := m.viewCur[m.tab].place(seqs); i >= 0 {
		r := rows[i]
		return &r
	}
	return nil
}

// shortTime shows a sandbox timestamp of the control plane
// (2025-06-01T10:00:00+0000) as its time of day; anything else as it is.
func shortTime(s string) string {
	if t, err := sandbox.ParseTime(s); err == nil {
		return t.Format("15:04:05")
	}
	return s
}

// eshopCell is an e-shop id for a table ("-" for none).
func eshopCell(id int) string {
	if id == 0 {
		return "-"
	}
	return strconv.Itoa(id)
}

// sheet builds a view row's detail text: field lines and sections, in
// the look of the call detail.
type sheet struct {
	b  strings.Builder
	st Styles
}

// field adds "name  value" (nothing when the value is empty).
func (s *sheet) field(name, value string) {
	if value == "" {
		return
	}
	s.b.WriteString(cell(name, 12) + " " + value + "\n")
}

// section starts a titled block.
func (s *sheet) section(title string) {
	s.b.WriteString("\n" + s.st.Section.Render("── "+title+" ──") + "\n")
}

// text adds lines as they are.
func (s *sheet) text(t string) {
	s.b.WriteString(strings.TrimRight(t, "\n") + "\n")
}

// para adds a paragraph and a blank line after it (nothing when empty).
func (s *sheet) para(t string) {
	if t = strings.TrimSpace(t); t != "" {
		s.b.WriteString(t + "\n\n")
	}
}

// json adds a value pretty-printed.
func (s *sheet) json(v any) {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		s.text(err.Error())
		return
	}
	s.text(string(raw))
}

func (s *sheet) String() string { return strings.TrimRight(s.b.String(), "\n") }

package tui

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// sortOrder is how a list is sorted: col 0 keeps the natural order (the
// feed's, or the view's), col i sorts by the list's i-th column.
type sortOrder struct {
	col  int
	desc bool
}

// callSortColumns are the calls table's columns, as o cycles through
// them after the natural (time) order.
var callSortColumns = []struct {
	title string
	less  func(a, b *bus.Call) bool
}{
	{"SHOP", func(a, b *bus.Call) bool { return a.Eshop < b.Eshop }},
	{"TOKEN", func(a, b *bus.Call) bool { return a.TokenKind < b.TokenKind }},
	{"METHOD", func(a, b *bus.Call) bool { return a.Method < b.Method }},
	{"ROUTE", func(a, b *bus.Call) bool { return a.Path < b.Path }},
	{"CODE", func(a, b *bus.Call) bool { return a.Status < b.Status }},
	{"TOOK", func(a, b *bus.Call) bool { return a.Duration < b.Duration }},
	{"FAULT", func(a, b *bus.Call) bool { return a.Fault < b.Fault }},
	{"OPERATION", func(a, b *bus.Call) bool { return a.Operation < b.Operation }},
}

// sortColumns counts the sortable columns of a tab (0: none, webhooks
// keep their retries together).
func sortColumns(t tab) int {
	switch {
	case t == tabCalls:
		return len(callSortColumns)
	case t == tabWebhooks:
		return 0
	}
	return len(dataViews[t].columns)
}

// sortName names a tab's sort for the tab line ("" for the natural order).
func (m *Model) sortName(t tab) string {
	o := m.sorts[t]
	if o.col == 0 {
		return ""
	}
	name := ""
	if t == tabCalls {
		name = callSortColumns[o.col-1].title
	} else {
		name = dataViews[t].columns[o.col-1].title
	}
	return strings.ToLower(name) + arrow(o.desc)
}

func arrow(desc bool) string {
	if desc {
		return "↓"
	}
	return "↑"
}

// headCell is a header cell of w cells; the sorted column carries the
// order's arrow, in place of the title's last letter when it is full.
func headCell(title string, w int, right bool, o sortOrder, col int) string {
	if o.col == col && col != 0 {
		if ansi.StringWidth(title)+1 > w {
			title = ansi.Truncate(title, max(0, w-1), "")
		}
		title += arrow(o.desc)
	}
	if right {
		return rcell(title, w)
	}
	return cell(title, w)
}

// cycleSort moves a tab's sort to the next column (then back to the
// natural order).
func (m *Model) cycleSort() {
	n := sortColumns(m.tab)
	if n == 0 {
		m.setFlash("webhooks keep each notification's attempts together, in time order", true)
		return
	}
	o := &m.sorts[m.tab]
	o.col = (o.col + 1) % (n + 1)
	if o.col == 0 {
		o.desc = false
		m.cur().newest()
		m.setFlash("in time order again, following the newest", false)
		return
	}
	m.cur().oldest(m.rowSeqs()) // a sorted list is read from its top
	m.setFlash("sorted by "+m.sortName(m.tab)+" (O reverses, o the next column)", false)
}

// reverseSort turns a tab's order around (the natural order too: newest
// first).
func (m *Model) reverseSort() {
	if sortColumns(m.tab) == 0 {
		m.setFlash("webhooks keep each notification's attempts together, in time order", true)
		return
	}
	o := &m.sorts[m.tab]
	o.desc = !o.desc
	m.cur().oldest(m.rowSeqs())
	if o.col == 0 && o.desc {
		m.setFlash("newest first", false)
		return
	}
	m.setFlash("sorted by "+m.sortName(m.tab), false)
}

// sortCalls orders the calls table's rows; equal rows keep feed order.
func (m *Model) sortCalls(rows []callRow) {
	o := m.sorts[tabCalls]
	if o.col == 0 {
		if o.desc {
			slices.Reverse(rows)
		}
		return
	}
	less := callSortColumns[o.col-1].less
	sort.SliceStable(rows, func(i, j int) bool {
		if o.desc {
			return less(rows[j].c, rows[i].c)
		}
		return less(rows[i].c, rows[j].c)
	})
}

// sortViewRows orders a view's rows by one column: numerically when both
// cells are numbers, else as text without case.
func (m *Model) sortViewRows(t tab, rows []viewRow) {
	o := m.sorts[t]
	if o.col == 0 {
		if o.desc {
			slices.Reverse(rows)
		}
		return
	}
	c := o.col - 1
	less := func(a, b viewRow) bool {
		x, y := cellAt(a, c), cellAt(b, c)
		nx, ex := strconv.ParseFloat(x, 64)
		ny, ey := strconv.ParseFloat(y, 64)
		if ex == nil && ey == nil {
			return nx < ny
		}
		return strings.ToLower(x) < strings.ToLower(y)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if o.desc {
			return less(rows[j], rows[i])
		}
		return less(rows[i], rows[j])
	})
}

func cellAt(r viewRow, i int) string {
	if i < len(r.cells) {
		return r.cells[i]
	}
	return ""
}

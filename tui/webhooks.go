package tui

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// hookRow is one delivery attempt as the webhooks view lists it (the
// attempts of one notification stay together, retries under the first),
// or a notification still queued for its attempt.
type hookRow struct {
	seq    int64
	d      *bus.Delivery
	retry  bool       // not the first row of its notification
	queued bool       // no attempt made yet: waits in its receiver's queue
	due    *time.Time // a queued row: not before then (an earlier notification to its receiver waits for a retry)
}

// hookRows groups the retained attempts by delivery id (notifications in
// the order they first appeared, attempts by number) and keeps the groups
// with at least one row that passes the filter. A queued row stays only
// until an attempt of its number (or a later one) arrives.
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
	blocked := map[string]time.Time{} // receiver URL -> when its queue moves next, from the notifications so far
	for _, g := range groups {
		tried := 0
		for _, a := range g {
			if !a.queued {
				tried = max(tried, a.d.Attempt)
			}
		}
		kept := g[:0:0]
		match := false
		var due *time.Time
		for _, a := range g {
			if a.queued && a.d.Attempt <= tried {
				continue
			}
			if a.queued && a.d.NextTry != nil {
				t := *a.d.NextTry
				if b, ok := blocked[a.d.URL]; ok && b.After(t) {
					t = b
				}
				due = &t
			}
			kept = append(kept, a)
			if a.queued {
				match = match || m.filter.queued(a.d) && m.bodyMatch(a.seq, a.d.ReqBody)
			} else {
				match = match || m.filter.attempt(a.d) && m.bodyMatch(a.seq, a.d.ReqBody, a.d.RespBody)
			}
		}
		if last := g[len(g)-1].d; due != nil {
			blocked[last.URL] = *due
		} else if !last.Final && !last.Succeeded && last.NextTry != nil && !g[len(g)-1].queued {
			blocked[last.URL] = *last.NextTry
		}
		if !match {
			continue
		}
		sort.SliceStable(kept, func(i, j int) bool {
			if kept[i].d.Attempt != kept[j].d.Attempt {
				return kept[i].d.Attempt < kept[j].d.Attempt
			}
			return !kept[i].queued && kept[j].queued
		})
		for i, a := range kept {
			r := hookRow{seq: a.seq, d: a.d, retry: i > 0, queued: a.queued}
			if a.queued {
				r.due = due
			}
			rows = append(rows, r)
		}
	}
	return rows
}

type hookLayout struct {
	width                 int
	event, entity, target int
	signature             bool
}

const (
	sigWidth  = 10
	nextWidth = 8
)

func hookLayoutFor(w int) hookLayout {
	l := hookLayout{width: w, signature: w >= 110}
	fixed := 2 + timeWidth + 1 + 1 + 1 + 3 + 1 + 4 + 1 + 6 + 1 + nextWidth + 1
	if l.signature {
		fixed += 1 + sigWidth
	}
	rem := w - fixed
	l.event, l.entity = max(12, min(24, rem*30/100)), max(10, min(24, rem*22/100))
	l.target = max(8, rem-l.event-l.entity)
	// Narrow: the entity gives way first, then the event, down to 6 cells.
	over := l.event + l.entity + l.target - rem
	for _, w := range []*int{&l.entity, &l.event} {
		if over <= 0 {
			break
		}
		cut := min(over, *w-6)
		*w -= cut
		over -= cut
	}
	return l
}

// hookLines draws the webhooks table in w x h.
func (m *Model) hookLines(rows []hookRow, w, h int) []string {
	l := hookLayoutFor(w)
	head := "  " + cell("TIME", timeWidth) + " " + cell("EVENT", l.event) + " " + cell("ENTITY", l.entity) + " " + rcell("TRY", 3) + " " +
		rcell("CODE", 4) + " " + cell("STATE", 6) + " " + cell("NEXT", nextWidth) + " " + cell("TARGET", l.target)
	if l.signature {
		head += " " + cell("SIGNATURE", sigWidth)
	}
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

// rowState is a row's STATE: queued, or how its attempt ended.
func (r hookRow) state() string {
	if r.queued {
		return "queued"
	}
	return attemptState(r.d)
}

// next is when the notification's next attempt is due ("-" when none).
func (r hookRow) next() string {
	switch {
	case r.queued && r.due != nil:
		return r.due.Format("15:04:05")
	case r.d.NextTry == nil || r.d.Final:
		return "-"
	}
	return r.d.NextTry.Format("15:04:05")
}

func (m *Model) hookLine(r hookRow, l hookLayout, selected bool) string {
	d := r.d
	event, entity := d.Event, d.Instance
	switch {
	case r.retry && r.queued:
		event, entity = " └ queued", ""
	case r.retry:
		event, entity = " └ retry", ""
	}
	mark := "  "
	if selected {
		mark = "> "
	}
	pre := mark + cell(d.Time.Format("15:04:05.000"), timeWidth) + " " + cell(event, l.event) + " " + cell(entity, l.entity) + " " +
		rcell(strconv.Itoa(d.Attempt), 3) + " "
	status := statusText(d.Status)
	switch {
	case r.queued:
		status = "-"
	case d.Fault != "":
		status += "*" // a scripted fault; the detail pane names it
	}
	code := rcell(status, 4)
	post := " " + cell(r.state(), 6) + " " + cell(r.next(), nextWidth) + " " + cell(shortURL(d.URL, l.target), l.target)
	if l.signature {
		post += " " + cell(dash(d.Signature), sigWidth)
	}
	if selected {
		return m.st.Selected.Render(cell(pre+code+post, l.width))
	}
	if r.queued {
		return pre + code + post
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

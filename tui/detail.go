package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/eshop-sandbox/sandbox/sandbox/core/bus"
)

// subject is what a detail pane shows: a call, a webhook attempt (or a
// queued notification), or a row of a control-plane view.
type subject struct {
	key    string // "" for nothing
	call   *bus.Call
	hook   *bus.Delivery
	queued bool
	due    *time.Time // a queued webhook: not before then
	row    *viewRow
}

// selectedSubject is the selected row of the tab on screen.
func (m *Model) selectedSubject() subject {
	var rows rowsNow
	switch m.tab {
	case tabCalls:
		rows.calls = m.callRows()
	case tabWebhooks:
		rows.hooks = m.hookRows()
	}
	return m.subjectOf(rows)
}

// subjectOf is the selected row of the tab on screen, from its rows
// computed for this frame.
func (m *Model) subjectOf(now rowsNow) subject {
	switch m.tab {
	case tabCalls:
		rows := now.calls
		if i := m.callCur.place(callSeqs(rows)); i >= 0 {
			return subject{key: "c" + strconv.FormatInt(rows[i].seq, 10), call: rows[i].c}
		}
	case tabWebhooks:
		rows := now.hooks
		if i := m.hookCur.place(hookSeqs(rows)); i >= 0 {
			r := rows[i]
			return subject{key: "h" + strconv.FormatInt(r.seq, 10), hook: r.d, queued: r.queued, due: r.due}
		}
	default:
		if r := m.selectedViewRow(); r != nil {
			return subject{key: fmt.Sprintf("v%d|%s", m.tab, r.key), row: r}
		}
	}
	return subject{}
}

// detailSubject is what the detail shows now: the whole-screen detail's
// row, or the selection (the split view's pane follows it).
func (m *Model) detailSubject() subject {
	if m.screen() == stateDetail {
		return m.shown
	}
	return m.selectedSubject()
}

// content is a subject's full text.
func (m *Model) content(s subject) string {
	switch {
	case s.call != nil:
		return m.callDetail(s.call)
	case s.hook != nil:
		return m.hookDetail(s.hook, s.queued, s.due)
	case s.row != nil:
		return s.row.detail
	}
	return ""
}

// title is a subject's heading.
func (s subject) title() string {
	switch {
	case s.call != nil:
		return "Call · request id " + dash(s.call.ID)
	case s.hook != nil && s.queued:
		return fmt.Sprintf("Webhook · delivery id %s · queued for attempt %d", dash(s.hook.ID), s.hook.Attempt)
	case s.hook != nil:
		return fmt.Sprintf("Webhook · delivery id %s · attempt %d", dash(s.hook.ID), s.hook.Attempt)
	case s.row != nil:
		return s.row.title
	}
	return "Detail"
}

// fillPane puts a subject's text, wrapped at w, in the viewport of vh
// lines, when the subject, the width or the body search changed: a new
// subject opens at its first match (or at the top).
func (m *Model) fillPane(s subject, w, vh int) {
	m.detail.Width, m.detail.Height = w, max(1, vh)
	q := m.filter.body
	if s.key == m.paneKey && w == m.paneWidth && q.raw == m.matchQ {
		return
	}
	text := wrap(m.content(s), w)
	m.detail.SetContent(text)
	newSubject := s.key != m.paneKey
	m.matches = nil
	if !q.empty() {
		m.matches = q.lineMatches(strings.Split(ansi.Strip(text), "\n"))
	}
	switch {
	case len(m.matches) > 0 && (newSubject || q.raw != m.matchQ):
		m.matchAt = 0
		m.detail.SetYOffset(m.matches[0])
	case newSubject:
		m.detail.GotoTop()
	}
	if m.matchAt >= len(m.matches) {
		m.matchAt = 0
	}
	m.paneKey, m.paneWidth, m.matchQ = s.key, w, q.raw
}

// jumpMatch moves the pane to the next (delta 1) or previous match of
// the body search.
func (m *Model) jumpMatch(delta int) {
	if len(m.matches) == 0 {
		if m.filter.body.empty() {
			m.setFlash("b searches the bodies; n and N then go from match to match", true)
		} else {
			m.setFlash("no match in this detail", true)
		}
		return
	}
	m.matchAt = (m.matchAt + delta + len(m.matches)) % len(m.matches)
	m.detail.SetYOffset(m.matches[m.matchAt])
}

// paneLines draws a detail pane in w x h: a heading (marked when the keys
// scroll it) and the viewport.
func (m *Model) paneLines(s subject, w, h int, focused bool) []string {
	if h <= 0 {
		return nil
	}
	m.fillPane(s, w, h-1)
	var pos []string
	if len(m.matches) > 0 {
		pos = append(pos, fmt.Sprintf("match %d/%d", m.matchAt+1, len(m.matches)))
	}
	if m.detail.TotalLineCount() > m.detail.Height {
		pos = append(pos, fmt.Sprintf("%d%%", int(m.detail.ScrollPercent()*100)))
	}
	mark := "  "
	if focused {
		mark = "▶ "
	}
	style := m.st.Header
	if focused {
		style = m.st.Title
	}
	lines := []string{style.Render(spread(mark+s.title(), strings.Join(pos, " "), w))}
	if s.key == "" {
		return append(lines, "", "  Nothing selected.")
	}
	return append(lines, strings.Split(m.detail.View(), "\n")...)[:min(h, 1+m.detail.Height)]
}

// callDetail is everything recorded about one call.
func (m *Model) callDetail(c *bus.Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", c.Method, c.Path)
	fmt.Fprintf(&b, "%s · %s · %s\n", statusLine(c.Status), fmtDur(c.Duration), c.Time.Format("2006-01-02 15:04:05.000"))
	fmt.Fprintf(&b, "request id %s\n", dash(c.ID))
	fmt.Fprintf(&b, "e-shop %s · token %s · operation %s\n", eshopCell(c.Eshop), dash(c.TokenKind), dash(c.Operation))
	if c.Fault != "" {
		fmt.Fprintf(&b, "fault applied: %s\n", c.Fault)
	}
	if c.RemoteAddr != "" {
		fmt.Fprintf(&b, "from %s\n", c.RemoteAddr)
	}
	m.section(&b, "Request headers", "")
	writeHeaders(&b, c.ReqHeader)
	m.section(&b, "Request body", sizeNote(len(c.ReqBody), c.ReqBodySize))
	writeBody(&b, c.ReqBody)
	m.section(&b, "Response headers", "")
	writeHeaders(&b, c.RespHeader)
	m.section(&b, "Response body", sizeNote(c.RespBody.Len(), c.RespBodySize))
	writeBody(&b, c.RespBody.Bytes())
	return strings.TrimRight(b.String(), "\n")
}

// hookDetail is everything recorded about one delivery attempt, or about
// a notification queued for one.
func (m *Model) hookDetail(d *bus.Delivery, queued bool, due *time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s\n", d.URL)
	if queued {
		fmt.Fprintf(&b, "queued at %s for attempt %d: not sent yet\n", d.Time.Format("2006-01-02 15:04:05.000"), d.Attempt)
	} else {
		fmt.Fprintf(&b, "%s · %s · %s · %s\n", statusLine(d.Status), fmtDur(d.Duration), d.Time.Format("2006-01-02 15:04:05.000"), attemptState(d))
	}
	fmt.Fprintf(&b, "event %s · instance %s · e-shop %d\n", d.Event, d.Instance, d.Eshop)
	fmt.Fprintf(&b, "signature %s\n", dash(d.Signature))
	if d.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", d.Error)
	}
	if d.Fault != "" {
		fmt.Fprintf(&b, "fault applied: %s\n", d.Fault)
	}
	switch {
	case due != nil && queued:
		fmt.Fprintf(&b, "goes out at %s at the earliest (sandbox clock; earlier notifications to this receiver go first)\n", due.Format("2006-01-02 15:04:05"))
	case d.NextTry != nil && !d.Final:
		fmt.Fprintf(&b, "next attempt at %s (sandbox clock; + advances it)\n", d.NextTry.Format("2006-01-02 15:04:05"))
	}
	m.section(&b, "Request body", "")
	writeBody(&b, d.ReqBody)
	if !queued {
		m.section(&b, "Response body", "")
		writeBody(&b, d.RespBody)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (m *Model) section(b *strings.Builder, title, note string) {
	if note != "" {
		title += " (" + note + ")"
	}
	b.WriteString("\n" + m.st.Section.Render("── "+title+" ──") + "\n")
}

// sizeNote says when a body was cut by the tap.
func sizeNote(kept int, size int64) string {
	if size > int64(kept) {
		return fmt.Sprintf("%d of %d bytes kept", kept, size)
	}
	return ""
}

func writeHeaders(b *strings.Builder, h http.Header) {
	if len(h) == 0 {
		b.WriteString("(none)\n")
		return
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		for _, v := range h[k] {
			fmt.Fprintf(b, "%s: %s\n", k, v)
		}
	}
}

// writeBody pretty-prints JSON, shows other text as it is, and only
// describes binary data.
func writeBody(b *strings.Builder, body []byte) {
	switch {
	case len(body) == 0:
		b.WriteString("(empty)\n")
	case json.Valid(body):
		var out bytes.Buffer
		_ = json.Indent(&out, body, "", "  ")
		b.Write(out.Bytes())
		b.WriteByte('\n')
	case utf8.Valid(body):
		b.Write(bytes.TrimRight(body, "\n"))
		b.WriteByte('\n')
	default:
		fmt.Fprintf(b, "(%d bytes of binary data)\n", len(body))
	}
}

// wrap breaks every line at width cells, keeping indentation.
func wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Hardwrap(strings.ReplaceAll(s, "\t", "    "), width, true)
}

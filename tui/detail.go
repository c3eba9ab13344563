package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"github.com/eshop-sandbox/sandbox/sandbox/bus"
)

// layoutDetail sizes the detail pane's viewport to the body and fills it
// for the current width (long lines are wrapped, not cut).
func (m *Model) layoutDetail() {
	m.detail.Width = m.width
	m.detail.Height = max(1, m.bodyHeight()-1)
	var content string
	switch {
	case m.detailCall != nil:
		content = m.callDetail(m.detailCall)
	case m.detailHook != nil:
		content = m.hookDetail(m.detailHook)
	}
	m.detail.SetContent(wrap(content, m.width))
}

// detailLines draws the pane: a heading with the ids, then the viewport.
func (m *Model) detailLines(h int) []string {
	var title string
	switch {
	case m.detailCall != nil:
		title = "Call · request id " + dash(m.detailCall.ID)
	case m.detailHook != nil:
		title = fmt.Sprintf("Webhook · delivery id %s · attempt %d", dash(m.detailHook.ID), m.detailHook.Attempt)
	}
	pos := ""
	if m.detail.TotalLineCount() > m.detail.Height {
		pos = fmt.Sprintf("%d%%", int(m.detail.ScrollPercent()*100))
	}
	lines := []string{m.st.Title.Render(spread(title, pos, m.width))}
	return append(lines, strings.Split(m.detail.View(), "\n")...)[:min(h, 1+m.detail.Height)]
}

// callDetail is everything recorded about one call.
func (m *Model) callDetail(c *bus.Call) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", c.Method, c.Path)
	fmt.Fprintf(&b, "%s · %s · %s\n", statusLine(c.Status), fmtDur(c.Duration), c.Time.Format("2006-01-02 15:04:05"))
	fmt.Fprintf(&b, "request id %s\n", dash(c.ID))
	shop := "-"
	if c.Eshop != 0 {
		shop = fmt.Sprint(c.Eshop)
	}
	fmt.Fprintf(&b, "e-shop %s · token %s · operation %s\n", shop, dash(c.TokenKind), dash(c.Operation))
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

// hookDetail is everything recorded about one delivery attempt.
func (m *Model) hookDetail(d *bus.Delivery) string {
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s\n", d.URL)
	fmt.Fprintf(&b, "%s · %s · %s · %s\n", statusLine(d.Status), fmtDur(d.Duration), d.Time.Format("2006-01-02 15:04:05"), attemptState(d))
	fmt.Fprintf(&b, "event %s · instance %s · e-shop %d\n", d.Event, d.Instance, d.Eshop)
	fmt.Fprintf(&b, "signature %s\n", dash(d.Signature))
	if d.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", d.Error)
	}
	if d.Fault != "" {
		fmt.Fprintf(&b, "fault applied: %s\n", d.Fault)
	}
	if d.NextTry != nil {
		fmt.Fprintf(&b, "next attempt at %s\n", d.NextTry.Format("2006-01-02 15:04:05"))
	}
	m.section(&b, "Request body", "")
	writeBody(&b, d.ReqBody)
	m.section(&b, "Response body", "")
	writeBody(&b, d.RespBody)
	return strings.TrimRight(b.String(), "\n")
}

func (m *Model) section(b *strings.Builder, title, note string) {
	if note != "" {
		title += " (" + note + ")"
	}
	b.WriteString("\n" + m.st.Section.Render("── "+title+" ──") + "\n")
}

// sizeNote says when a body was cut by the recorder.
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

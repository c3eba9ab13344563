package tui

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// clip shortens s (which may hold styling) to at most w cells, marking
// the cut with an ellipsis.
func clip(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// cell clips plain text to w cells and pads it to exactly w.
func cell(s string, w int) string {
	s = clip(s, w)
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// rcell right-aligns plain text in w cells.
func rcell(s string, w int) string {
	s = clip(s, w)
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s = strings.Repeat(" ", pad) + s
	}
	return s
}

// fmtDur renders a call's duration compactly: 850µs, 12ms, 1.4s.
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// fmtOffset renders how far the sandbox clock is from the wall clock:
// +1h, -5m, +2d3h; "" when it is within a second.
func fmtOffset(d time.Duration) string {
	d = d.Round(time.Second)
	if d > -time.Second && d < time.Second {
		return ""
	}
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	var b strings.Builder
	b.WriteString(sign)
	for _, u := range []struct {
		n time.Duration
		s string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if d >= u.n {
			fmt.Fprintf(&b, "%d%s", d/u.n, u.s)
			d %= u.n
		}
	}
	return b.String()
}

// statusText is a status as a table shows it; 0 means no answer.
func statusText(code int) string {
	if code == 0 {
		return "ERR"
	}
	return fmt.Sprint(code)
}

// statusLine is a status with its reason phrase.
func statusLine(code int) string {
	if code == 0 {
		return "no answer"
	}
	return strings.TrimSpace(fmt.Sprintf("%d %s", code, http.StatusText(code)))
}

// dash stands in for an empty value in a table.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

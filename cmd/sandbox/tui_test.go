package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestHeldLogs checks that log lines written while the terminal UI shows
// are kept (the newest, bounded, whole lines) and printed when it closes,
// and that later lines go straight through.
func TestHeldLogs(t *testing.T) {
	var out bytes.Buffer
	h := &heldLogs{out: &out}
	fmt.Fprintln(h, "level=INFO msg=first")
	if out.Len() != 0 {
		t.Fatal("a log line reached the terminal while the UI shows")
	}
	h.release()
	fmt.Fprintln(h, "level=INFO msg=after")
	if got := out.String(); got != "level=INFO msg=first\nlevel=INFO msg=after\n" {
		t.Fatalf("got %q", got)
	}

	out.Reset()
	h = &heldLogs{out: &out}
	line := strings.Repeat("x", 1000) + "\n"
	for i := 0; i < 2*heldLogsMax/len(line); i++ {
		fmt.Fprintf(h, "%05d%s", i, line)
	}
	h.release()
	s := out.String()
	if !strings.HasPrefix(s, "(") || !strings.Contains(s, "bytes of older log lines left out)\n") {
		t.Fatalf("no note of the lines left out: %.80q", s)
	}
	body := s[strings.Index(s, "\n")+1:]
	if len(body) > heldLogsMax || !strings.HasSuffix(body, line) || len(body)%(len(line)+5) != 0 {
		t.Fatalf("kept %d bytes, not whole newest lines", len(body))
	}
}
